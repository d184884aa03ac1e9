// SPDX-License-Identifier: MIT
// placement_bench: plan() (sum objective, min-cut + simulation) on random layered graphs of 10k and 100k
// ops, timed against a baseline measured in the same run: the all-GPU simulation of the same graph.
#include "placement/engine/planner.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

using namespace placescope;

static OpGraph layeredGraph(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> cost(1, 200), coin(0, 1);
    OpGraph graph;
    graph.devices = { { "cpu", DeviceKind::Cpu, 0 }, { "gpu", DeviceKind::Gpu, 0 } };
    graph.links = { { 0, 1, 10, 12 }, { 1, 0, 10, 12 } };
    for (int i = 0; i < n; ++i) {
        PlacementOp op { "op" + std::to_string(i), "", { cost(rng), cost(rng) / 10 }, {}, 4096 };
        if (coin(rng) < 0.05)
            op.costUs[1] = kNoKernel;
        graph.ops.push_back(op);
    }
    std::uniform_int_distribution<int> back(1, 50);
    for (int to = 1; to < n; ++to)
        for (int k = 0; k < 2; ++k)
            graph.edges.push_back({ std::max(0, to - back(rng)), to, 100000 });
    return graph;
}

int main()
{
    for (int n : { 10000, 100000 }) {
        OpGraph graph = layeredGraph(n, 1);
        auto t0 = std::chrono::steady_clock::now();
        auto order = topologicalOrder(graph);
        std::vector<int> allGpu(n, 1);
        for (int i = 0; i < n; ++i)
            if (!std::isfinite(graph.ops[i].costUs[1]))
                allGpu[i] = 0;
        Timeline baseline = simulate(graph, allGpu, *order);
        auto t1 = std::chrono::steady_clock::now();
        auto proposal = plan(graph, {});
        auto t2 = std::chrono::steady_clock::now();
        double baseS = std::chrono::duration<double>(t1 - t0).count();
        double planS = std::chrono::duration<double>(t2 - t1).count();
        if (!proposal.isOk()) {
            std::printf("n=%d plan failed: %s\n", n, proposal.status().message().c_str());
            return 1;
        }
        std::printf("ops=%d edges=%zu plan(sum)=%.3f s  baseline(topo sort + all-GPU simulation)=%.4f s  "
                    "ratio=%.1fx  sum: proposal %.0f us vs GPU-where-possible %.0f us\n",
            n, graph.edges.size(), planS, baseS, planS / baseS, proposal->objectiveUs, baseline.sumUs);
    }
    return 0;
}
