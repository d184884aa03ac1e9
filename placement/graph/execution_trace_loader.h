// SPDX-License-Identifier: MIT
// PyTorch execution traces (torch.profiler.ExecutionTraceObserver JSON, plain or gzip) as a ModelGraph: the
// outermost framework ops become ops, data edges are rebuilt from tensor ids, shapes/dtypes/devices come from the
// recorded tensors, layouts from strides where the schema records them. An ET has no durations: measured times
// stay -1, measuredDevice is where the op's tensors lived. Thread-safe: no state of its own.
#pragma once

#include "placement/graph/model_graph.h"
#include "profiler/base/status.h"

#include <string>

namespace placescope {

// Reads schemas 1.0.x (flat "inputs"/"input_shapes"/"input_types" with "parent", as in PyTorch 2.0/2.1) and the
// later nested form ("inputs": {"values","shapes","types","strides"} with "ctrl_deps"). A file that is not an ET
// (not JSON, no "nodes" array, a Kineto trace) is an error with a one-line message.
Result<ModelGraph> loadExecutionTrace(const std::string& path);

} // namespace placescope
