// SPDX-License-Identifier: MIT
#pragma once

#include "placement/graph/model_graph.h"
#include "profiler/base/status.h"

#include <string>

namespace placescope::ui {

// Reads a model file into a ModelGraph with the placement engine's graph sources (the one place the GUI
// names them). Any thread.
Result<ModelGraph> readModelGraph(const std::string& path);

} // namespace placescope::ui
