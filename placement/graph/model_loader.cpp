// SPDX-License-Identifier: MIT
#include "placement/graph/model_loader.h"

#include "placement/graph/execution_trace_loader.h"
#include "placement/graph/graph_file.h"
#include "placement/graph/onnx_model_loader.h"
#include "placement/graph/trace_ops_graph.h"
#include "profiler/base/file_head.h"

namespace placescope {

Result<GraphSourceKind> sniffGraphSource(const std::string& path)
{
    PLACESCOPE_ASSIGN_OR_RETURN(std::string head, readGraphFileHead(path, 64));
    switch (classifyFileHead(head)) {
    case FileHeadKind::Sqlite:
        return GraphSourceKind::PlacescopeTrace;
    case FileHeadKind::Gzip:
    case FileHeadKind::JsonObject:
        return GraphSourceKind::ExecutionTrace;
    case FileHeadKind::JsonArray:
    case FileHeadKind::Other:
        break;
    }
    // Protobuf writes fields in number order and every ONNX writer sets ir_version (field 1, varint): tag 0x08.
    if (head[0] == 0x08)
        return GraphSourceKind::Onnx;
    return GraphSourceKind::Unknown;
}

Result<ModelGraph> loadModelGraph(const std::string& path)
{
    PLACESCOPE_ASSIGN_OR_RETURN(GraphSourceKind kind, sniffGraphSource(path));
    switch (kind) {
    case GraphSourceKind::Onnx:
        return loadOnnxModel(path);
    case GraphSourceKind::ExecutionTrace:
        return loadExecutionTrace(path);
    case GraphSourceKind::PlacescopeTrace:
        return modelGraphFromTrace(path);
    case GraphSourceKind::Unknown:
        break;
    }
    return Status::error(path
        + ": not a model: expected an ONNX model, a PyTorch execution trace (JSON) or a "
          "Placescope trace (SQLite)");
}

} // namespace placescope
