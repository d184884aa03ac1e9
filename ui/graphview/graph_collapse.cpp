// SPDX-License-Identifier: MIT
#include "ui/graphview/graph_collapse.h"

#include <map>
#include <unordered_map>

namespace placescope::ui {
namespace {

std::vector<std::string> splitPath(const std::string& text, bool dropLeaf)
{
    std::vector<std::string> parts;
    std::string current;
    for (char c : text) {
        if (c == '/') {
            if (!current.empty())
                parts.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty() && !dropLeaf)
        parts.push_back(current);
    return parts;
}

std::string joinPath(const std::vector<std::string>& parts, size_t count)
{
    std::string path;
    for (size_t i = 0; i < count && i < parts.size(); ++i)
        path += (i ? "/" : "") + parts[i];
    return path;
}

} // namespace

DataLayout inputLayout(const ModelGraph& model, const ModelOp& op)
{
    for (int value : op.inputs) {
        if (value < 0 || static_cast<size_t>(value) >= model.values.size())
            continue;
        const ModelValue& input = model.values[static_cast<size_t>(value)];
        if (!input.isWeight && input.shape.size() == 4)
            return input.layout;
    }
    return DataLayout::None;
}

std::vector<std::string> scopePath(const ModelGraph& model, const ModelOp& op)
{
    if (!op.scope.empty())
        return splitPath(op.scope, false);
    auto fromName = splitPath(op.name, true);
    if (!fromName.empty())
        return fromName;
    if (!op.outputs.empty() && op.outputs[0] >= 0 && static_cast<size_t>(op.outputs[0]) < model.values.size()) {
        auto fromOutput = splitPath(model.values[static_cast<size_t>(op.outputs[0])].name, true);
        if (!fromOutput.empty())
            return fromOutput;
    }
    // Exporters that number activations still name parameters by module ("conv2_1/x1_w_0").
    for (int value : op.inputs)
        if (value >= 0 && static_cast<size_t>(value) < model.values.size()
            && model.values[static_cast<size_t>(value)].isWeight) {
            auto fromWeight = splitPath(model.values[static_cast<size_t>(value)].name, true);
            if (!fromWeight.empty())
                return fromWeight;
        }
    return {};
}

VisibleGraph buildVisibleGraph(const ModelGraph& model, bool collapse, const std::set<std::string>& expanded)
{
    VisibleGraph graph;
    graph.nodeOfOp.assign(model.ops.size(), -1);
    std::map<std::string, std::vector<int>> groups;
    std::vector<std::string> groupOfOp(model.ops.size());
    std::vector<std::vector<std::string>> paths(model.ops.size());
    for (size_t i = 0; i < model.ops.size(); ++i) {
        const ModelOp& op = model.ops[i];
        if (op.producesWeight)
            continue;
        if (collapse) {
            // An op with no scope of its own (a Relu, a Concat) sits with the op feeding its last input: for a
            // running Concat(previous, new) that is the new layer, not the first one of the chain.
            paths[i] = scopePath(model, op);
            for (size_t k = op.inputs.size(); paths[i].empty() && k > 0; --k) {
                const int value = op.inputs[k - 1];
                if (value < 0 || static_cast<size_t>(value) >= model.values.size()
                    || model.values[static_cast<size_t>(value)].isWeight)
                    continue;
                const int producer = model.values[static_cast<size_t>(value)].producer;
                if (producer >= 0 && static_cast<size_t>(producer) < i)
                    paths[i] = paths[static_cast<size_t>(producer)];
                break;
            }
            const auto& path = paths[i];
            size_t depth = 1;
            while (depth <= path.size() && expanded.count(joinPath(path, depth)))
                ++depth;
            if (depth <= path.size()) {
                groupOfOp[i] = joinPath(path, depth);
                groups[groupOfOp[i]].push_back(static_cast<int>(i));
            }
        }
    }
    // Nodes in op order (a group appears where its first op is), so the layout follows the model's flow.
    std::unordered_map<std::string, int> nodeOfGroup;
    for (size_t i = 0; i < model.ops.size(); ++i) {
        const ModelOp& op = model.ops[i];
        if (op.producesWeight)
            continue;
        const std::string& group = groupOfOp[i];
        if (!group.empty() && groups[group].size() > 1) {
            auto it = nodeOfGroup.find(group);
            if (it == nodeOfGroup.end()) {
                VisibleGraph::Node node;
                node.ops = groups[group];
                node.groupPath = group;
                node.label = group + "  (" + std::to_string(node.ops.size()) + " ops)";
                it = nodeOfGroup.emplace(group, static_cast<int>(graph.nodes.size())).first;
                graph.nodes.push_back(std::move(node));
            }
            graph.nodeOfOp[i] = it->second;
            continue;
        }
        graph.nodeOfOp[i] = static_cast<int>(graph.nodes.size());
        graph.nodes.push_back({ { static_cast<int>(i) }, op.type + (op.name.empty() ? "" : " " + op.name), "" });
    }
    // Edges: producer node -> consumer node per value, deduplicated, bytes summed over distinct values.
    std::map<std::pair<int, int>, int64_t> edgeBytes;
    std::set<std::pair<int, std::pair<int, int>>> seen; // (value, edge)
    for (size_t i = 0; i < model.ops.size(); ++i) {
        const int to = graph.nodeOfOp[i];
        if (to < 0)
            continue;
        for (int value : model.ops[i].inputs) {
            if (value < 0 || static_cast<size_t>(value) >= model.values.size())
                continue;
            const int producer = model.values[static_cast<size_t>(value)].producer;
            if (producer < 0 || static_cast<size_t>(producer) >= model.ops.size())
                continue;
            const int from = graph.nodeOfOp[static_cast<size_t>(producer)];
            if (from < 0 || from == to)
                continue;
            const std::pair<int, int> key { from, to };
            if (seen.insert({ value, key }).second)
                edgeBytes[key] += model.values[static_cast<size_t>(value)].bytes;
        }
    }
    for (const auto& [key, bytes] : edgeBytes)
        graph.edges.push_back({ key.first, key.second, bytes });
    return graph;
}

GraphInput toLayoutInput(const VisibleGraph& visible)
{
    GraphInput input;
    input.nodes.reserve(visible.nodes.size());
    for (const auto& node : visible.nodes)
        input.nodes.push_back({ node.label, {}, 0 });
    for (const auto& edge : visible.edges)
        input.edges.push_back({ edge.from, edge.to, {}, false });
    return input;
}

} // namespace placescope::ui
