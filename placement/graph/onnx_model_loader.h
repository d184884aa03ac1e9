// SPDX-License-Identifier: MIT
// ONNX models as a ModelGraph: the ModelProto is parsed with Debian's libonnx (protobuf), ONNX shape inference
// fills shapes and dtypes (a failure there becomes a note, never an error), initializers, Constant and
// ConstantOfShape-of-a-weight become weights, nested If/Loop/Scan bodies are flattened into the graph with a
// scope naming their owner ("If_3/then_branch"), and ops of custom domains stay opaque ops.
// Thread-safe: no state of its own (ONNX's schema registry is initialised once by libonnx).
#pragma once

#include "placement/graph/model_graph.h"
#include "profiler/base/status.h"

#include <string>

namespace placescope {

// Reads an .onnx file. A missing, empty, truncated or non-ONNX file, a graph whose nodes form a cycle, a node input
// nothing produces and a tensor produced twice (invalid ONNX) are errors with a one-line message naming the file
// and the cause. Subgraphs may nest about 300 deep (protobuf's default stopped at 32).
Result<ModelGraph> loadOnnxModel(const std::string& path);

// The same from the serialized ModelProto already in memory; `label` names it in messages and ModelGraph::path.
Result<ModelGraph> parseOnnxModel(const std::string& bytes, const std::string& label);

} // namespace placescope
