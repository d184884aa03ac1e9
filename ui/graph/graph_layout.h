// SPDX-License-Identifier: MIT
#pragma once

#include "profiler/base/progress.h"
#include "profiler/base/status.h"

#include <string>
#include <vector>

namespace placescope::ui {

// A graph to lay out: nodes with a label and a group (device), edges with an optional label (bytes).
struct GraphInput
{
    struct Node
    {
        std::string label;
        std::string opType;
        int group = 0; // 0 GPU, 1 CPU
    };
    struct Edge
    {
        int from = 0;
        int to = 0;
        std::string label;
        bool crossDevice = false;
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
};

// Graphviz dot's result in points (y grows downwards, as in Qt): node boxes and edge spline control points.
struct GraphLayout
{
    struct NodeBox
    {
        double x = 0, y = 0, width = 0, height = 0; // centre and size
    };
    struct EdgePath
    {
        int from = 0, to = 0;
        std::vector<std::pair<double, double>> points; // cubic B-spline control points
    };
    double width = 0, height = 0;
    std::vector<NodeBox> nodes;
    std::vector<EdgePath> edges;
};

// Lays the graph out with Graphviz dot (libgvc + cgraph). Thread-safe to call from one worker at a time:
// Graphviz keeps global state, so calls are serialised with a mutex inside.
Result<GraphLayout> layoutGraph(const GraphInput& graph, const CancelToken* cancel = nullptr);

} // namespace placescope::ui
