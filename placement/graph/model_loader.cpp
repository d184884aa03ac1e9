// SPDX-License-Identifier: MIT
#include "placement/graph/model_loader.h"

#include "placement/graph/execution_trace_loader.h"
#include "placement/graph/graph_file.h"
#include "placement/graph/onnx_model_loader.h"
#include "placement/graph/trace_ops_graph.h"

#include <cctype>
#include <cstring>

namespace placescope {

Result<GraphSourceKind> sniffGraphSource(const std::string& path)
{
    PLACESCOPE_ASSIGN_OR_RETURN(std::string head, readGraphFileHead(path, 64));
    static const char kSqliteMagic[] = "SQLite format 3"; // followed by a NUL byte
    if (head.size() >= sizeof kSqliteMagic && std::memcmp(head.data(), kSqliteMagic, sizeof kSqliteMagic) == 0)
        return GraphSourceKind::PlacescopeTrace;
    if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b)
        return GraphSourceKind::ExecutionTrace;
    for (char c : head) {
        if (std::isspace(static_cast<unsigned char>(c)))
            continue;
        if (c == '{')
            return GraphSourceKind::ExecutionTrace;
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
    return Status::error(path + ": not a model: expected an ONNX model, a PyTorch execution trace (JSON) or a "
                                "Placescope trace (SQLite)");
}

} // namespace placescope
