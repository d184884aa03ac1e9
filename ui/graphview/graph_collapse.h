// SPDX-License-Identifier: MIT
// What the graph view draws: the model's ops with weight producers folded away, and, for large graphs, ops
// collapsed into one node per scope ("layer1", "backbone/stage2") that the user expands one level at a time.
// Qt-free and cheap (linear in ops + edges), so it runs on the UI thread before the layout job.
#pragma once

#include "placement/graph/model_graph.h"
#include "ui/graph/graph_layout.h"

#include <set>
#include <string>
#include <vector>

namespace placescope::ui {

struct VisibleGraph
{
    struct Node
    {
        std::vector<int> ops; // model ops it stands for (one for a plain op node)
        std::string label;
        std::string groupPath; // scope path of a group node ("" for an op node)
        bool isGroup() const { return !groupPath.empty(); }
    };
    struct Edge
    {
        int from = 0, to = 0; // node indices
        int64_t bytes = 0; // summed bytes of the distinct values it carries
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::vector<int> nodeOfOp; // model op -> node, -1 for folded weight producers
};

// Layout of an op's first 4-D (non-weight) input: what the graph view marks and the op table lists.
DataLayout inputLayout(const ModelGraph& model, const ModelOp& op);

// Graphs with more visible ops than this start collapsed by scope.
inline constexpr size_t kCollapseThreshold = 500;

// The scope path an op is grouped by: ModelOp::scope, else its name's prefix, else its first output's name
// prefix ("conv2_1/x1" -> "conv2_1"), else its first weight's name prefix; split at '/', empty components dropped.
std::vector<std::string> scopePath(const ModelGraph& model, const ModelOp& op);

// Builds the visible graph. collapse = false shows every op; otherwise an op sits in the group of the first
// prefix of its scope path that is not in `expanded` (an op without a scope path takes the one of the op feeding
// its last input), and groups of one op are shown as the op.
VisibleGraph buildVisibleGraph(const ModelGraph& model, bool collapse, const std::set<std::string>& expanded);

// What Graphviz lays out for a visible graph: its nodes' labels and its edges (colours and labels are drawn later).
GraphInput toLayoutInput(const VisibleGraph& visible);

} // namespace placescope::ui
