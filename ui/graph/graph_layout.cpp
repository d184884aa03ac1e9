// SPDX-License-Identifier: MIT
#include "ui/graph/graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <mutex>
#include <sstream>
#include <unordered_map>

namespace placescope::ui {
namespace {

std::mutex gGraphvizMutex; // Graphviz is not re-entrant

// Reads Graphviz's "plain" output: "graph s w h", "node name x y w h ...", "edge tail head n x1 y1 ...".
// Units are inches with y up; converted to points with y down.
Status parsePlain(const std::string& text, size_t nodeCount, GraphLayout& layout)
{
    std::istringstream in(text);
    std::string line;
    double scale = 1.0;
    layout.nodes.assign(nodeCount, {});
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string kind;
        fields >> kind;
        if (kind == "graph") {
            fields >> scale >> layout.width >> layout.height;
            layout.width *= 72 * scale;
            layout.height *= 72 * scale;
        } else if (kind == "node") {
            std::string name;
            double x, y, w, h;
            fields >> name >> x >> y >> w >> h;
            const size_t index = std::stoul(name.substr(1));
            if (index < nodeCount)
                layout.nodes[index] = { x * 72, layout.height - y * 72, w * 72, h * 72 };
        } else if (kind == "edge") {
            std::string tail, head;
            int n = 0;
            fields >> tail >> head >> n;
            GraphLayout::EdgePath path;
            path.from = std::stoi(tail.substr(1));
            path.to = std::stoi(head.substr(1));
            for (int i = 0; i < n; ++i) {
                double x, y;
                fields >> x >> y;
                path.points.emplace_back(x * 72, layout.height - y * 72);
            }
            layout.edges.push_back(std::move(path));
        }
    }
    return Status::ok();
}

} // namespace

Result<GraphLayout> layoutGraph(const GraphInput& graph, const CancelToken* cancel)
{
    if (graph.nodes.empty())
        return GraphLayout {};
    std::lock_guard lock(gGraphvizMutex);
    if (cancel && cancel->isCancelled())
        return Status::error("layout cancelled");
    GVC_t* gvc = gvContext();
    Agraph_t* g = agopen(const_cast<char*>("g"), Agdirected, nullptr);
    agattr(g, AGRAPH, const_cast<char*>("rankdir"), const_cast<char*>("TB"));
    agattr(g, AGRAPH, const_cast<char*>("nodesep"), const_cast<char*>("0.2"));
    agattr(g, AGRAPH, const_cast<char*>("ranksep"), const_cast<char*>("0.3"));
    agattr(g, AGNODE, const_cast<char*>("shape"), const_cast<char*>("box"));
    agattr(g, AGNODE, const_cast<char*>("label"), const_cast<char*>(""));
    agattr(g, AGNODE, const_cast<char*>("width"), const_cast<char*>("0.75"));
    agattr(g, AGNODE, const_cast<char*>("height"), const_cast<char*>("0.3"));
    agattr(g, AGNODE, const_cast<char*>("fixedsize"), const_cast<char*>("true"));
    std::vector<Agnode_t*> nodes;
    nodes.reserve(graph.nodes.size());
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        std::string name = "n" + std::to_string(i);
        Agnode_t* node = agnode(g, name.data(), 1);
        // Width from the label so boxes fit their text (about 7 pt per character at the view's font).
        const std::string width
            = std::to_string(std::max(0.75, static_cast<double>(graph.nodes[i].label.size()) * 0.09 + 0.2));
        agsafeset(node, const_cast<char*>("width"), const_cast<char*>(width.c_str()), const_cast<char*>("0.75"));
        nodes.push_back(node);
    }
    for (const auto& edge : graph.edges)
        if (edge.from >= 0 && edge.to >= 0 && static_cast<size_t>(edge.from) < nodes.size()
            && static_cast<size_t>(edge.to) < nodes.size())
            agedge(g, nodes[static_cast<size_t>(edge.from)], nodes[static_cast<size_t>(edge.to)], nullptr, 1);
    Status status = Status::ok();
    GraphLayout layout;
    if (gvLayout(gvc, g, "dot") != 0) {
        status = Status::error("Graphviz dot could not lay out the graph");
    } else {
        char* data = nullptr;
        unsigned int length = 0;
        if (gvRenderData(gvc, g, "plain", &data, &length) == 0 && data) {
            status = parsePlain(std::string(data, length), graph.nodes.size(), layout);
            gvFreeRenderData(data);
        } else {
            status = Status::error("Graphviz could not render the layout");
        }
        gvFreeLayout(gvc, g);
    }
    agclose(g);
    gvFreeContext(gvc);
    if (!status.isOk())
        return status;
    return layout;
}

} // namespace placescope::ui
