// SPDX-License-Identifier: MIT
#include "ui/graph/onnx_graph_reader.h"

#include <onnx/onnx_pb.h>

#include <fstream>
#include <sstream>
#include <unordered_map>

namespace placescope::ui {

Result<GraphInput> readOnnxGraph(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Status::error(path + ": cannot open");
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string data = bytes.str();
    onnx::ModelProto model;
    if (data.empty() || !model.ParseFromString(data) || !model.has_graph())
        return Status::error(path + ": not an ONNX model");
    GraphInput graph;
    std::unordered_map<std::string, int> producer;
    const auto& nodes = model.graph().node();
    for (int i = 0; i < nodes.size(); ++i) {
        const auto& node = nodes[i];
        graph.nodes.push_back({ node.op_type() + (node.name().empty() ? "" : " " + node.name()), node.op_type(), 0 });
        for (const auto& output : node.output())
            producer[output] = i;
    }
    for (int i = 0; i < nodes.size(); ++i)
        for (const auto& input : nodes[i].input()) {
            auto it = producer.find(input);
            if (it != producer.end())
                graph.edges.push_back({ it->second, i, {}, false });
        }
    return graph;
}

} // namespace placescope::ui
