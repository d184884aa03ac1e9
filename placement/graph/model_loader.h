// SPDX-License-Identifier: MIT
// One entry point for every graph source: picks the loader from the file's content, not its name.
#pragma once

#include "placement/graph/model_graph.h"
#include "profiler/base/status.h"

#include <string>

namespace placescope {

enum class GraphSourceKind
{
    Unknown,
    Onnx,
    ExecutionTrace,
    PlacescopeTrace
};

// From the first bytes: SQLite header -> Placescope trace; gzip or a JSON object -> PyTorch execution trace;
// a protobuf starting with ModelProto's ir_version field -> ONNX. Errors only for unreadable files.
Result<GraphSourceKind> sniffGraphSource(const std::string& path);

// Loads an ONNX model, a PyTorch execution trace or a Placescope trace's framework ops; anything else is a
// one-line error naming the file and what it expected.
Result<ModelGraph> loadModelGraph(const std::string& path);

} // namespace placescope
