// SPDX-License-Identifier: MIT
// graph_layout_bench [nodes]: Graphviz dot layout of a synthetic ResNet-like op graph (a chain with a skip edge
// every 3 ops and a side branch every 10) on a worker thread, as the GUI runs it; a 10x smaller graph in the
// same run is the baseline for the scaling ratio. Goal: 2,000 nodes in < 5 s.
#include "profiler/base/units.h"
#include "ui/graph/graph_layout.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>

using namespace placescope::ui;

namespace {

GraphInput resnetLike(int nodes)
{
    GraphInput graph;
    const char* ops[] = { "Conv", "BatchNormalization", "Relu", "Add" };
    for (int i = 0; i < nodes; ++i)
        graph.nodes.push_back(
            { std::string(ops[i % 4]) + " layer" + std::to_string(i), ops[i % 4], i % 17 == 0 ? 1 : 0 });
    for (int i = 1; i < nodes; ++i) {
        graph.edges.push_back({ i - 1, i, {}, false });
        if (i % 3 == 0 && i >= 3)
            graph.edges.push_back({ i - 3, i, {}, false });
        if (i % 10 == 0 && i + 5 < nodes)
            graph.edges.push_back({ i, i + 5, {}, false });
    }
    return graph;
}

double layoutSeconds(int nodes, size_t& edgesOut)
{
    const GraphInput graph = resnetLike(nodes);
    const auto start = std::chrono::steady_clock::now();
    auto job = std::async(std::launch::async, [&] { return layoutGraph(graph); });
    auto layout = job.get();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!layout.isOk()) {
        std::fprintf(stderr, "layout failed: %s\n", layout.status().message().c_str());
        std::exit(1);
    }
    edgesOut = layout->edges.size();
    return seconds;
}

} // namespace

int main(int argc, char** argv)
{
    const int nodes = argc > 1 ? std::atoi(argv[1]) : 2000;
    size_t smallEdges = 0, edges = 0;
    const double small = layoutSeconds(nodes / 10, smallEdges);
    const double full = layoutSeconds(nodes, edges);
    std::printf("dot layout: %d nodes / %zu edges in %s on a worker thread (goal < 5.00 s: %.2fx of budget); "
                "%d nodes in %s (%.1fx the time for 10x the nodes)\n",
        nodes, edges, placescope::formatNanoseconds(full * 1e9).c_str(), full / 5.0, nodes / 10,
        placescope::formatNanoseconds(small * 1e9).c_str(), full / small);
    return 0;
}
