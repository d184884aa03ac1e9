// SPDX-License-Identifier: MIT
#pragma once

#include "profiler/base/status.h"
#include "ui/graph/graph_layout.h"

#include <string>

namespace placescope::ui {

// Reads an ONNX model's main graph into nodes (one per op) and edges (tensor producer -> consumer). The GUI's
// own reader until the placement engine's op graph is available to it; no costs or devices (all GPU).
Result<GraphInput> readOnnxGraph(const std::string& path);

} // namespace placescope::ui
