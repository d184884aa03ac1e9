// SPDX-License-Identifier: MIT
#include "ui/placement/model_source.h"

#include "placement/graph/model_loader.h"

namespace placescope::ui {

Result<ModelGraph> readModelGraph(const std::string& path) { return loadModelGraph(path); }

} // namespace placescope::ui
