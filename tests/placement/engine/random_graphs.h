// SPDX-License-Identifier: MIT
// Random placement problems for the engine tests, and the brute-force makespan they are judged against.
#pragma once

#include "placement/engine/list_scheduler.h"
#include "placement/engine/planner.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace placescope::test {

// A random DAG on a CPU and a GPU. `style` varies the regime: 0 = costs of the same scale, 1 = GPU ten
// times faster with heavy transfers, 2 = cheap transfers (overlap pays). About 10% of ops have no GPU
// kernel and 10% are pinned; every op has an output of up to 1 MB.
inline OpGraph randomGraph(std::mt19937& rng, int n, int style = 0)
{
    OpGraph graph;
    graph.devices = { { "cpu", DeviceKind::Cpu, 0 }, { "gpu", DeviceKind::Gpu, 0 } };
    std::uniform_real_distribution<double> lat(1, 20), bw(2, 20), cost(1, 200), coin(0, 1);
    graph.links = { { 0, 1, lat(rng), bw(rng) }, { 1, 0, lat(rng), bw(rng) } };
    std::uniform_int_distribution<int64_t> memory(0, 1000000);
    for (int i = 0; i < n; ++i) {
        PlacementOp op;
        op.id = "op" + std::to_string(i);
        op.costUs = { cost(rng), style == 1 ? cost(rng) / 10 : cost(rng) };
        op.memoryBytes = memory(rng);
        const double r = coin(rng);
        if (r < 0.1)
            op.costUs[1] = kNoKernel;
        else if (r < 0.15)
            op.pin = 0;
        else if (r < 0.2)
            op.pin = 1;
        graph.ops.push_back(op);
    }
    std::uniform_int_distribution<int64_t> bytes(0, style == 1 ? 2000000 : style == 2 ? 20000 : 400000);
    for (int to = 1; to < n; ++to)
        for (int from = 0; from < to; ++from)
            if (coin(rng) < 0.3)
                graph.edges.push_back({ from, to, bytes(rng) });
    return graph;
}

inline bool feasibleDevice(const OpGraph& graph, int op, int device)
{
    return std::isfinite(graph.ops[op].costUs[device]) && (!graph.ops[op].pin || *graph.ops[op].pin == device);
}

// A topological order drawn at random: Kahn's algorithm taking a random ready op each step.
inline std::vector<int> randomTopologicalOrder(const OpGraph& graph, std::mt19937& rng)
{
    const int n = static_cast<int>(graph.ops.size());
    std::vector<int> indegree(n, 0), ready, order;
    std::vector<std::vector<int>> successors(n);
    for (const PlacementEdge& e : graph.edges) {
        ++indegree[e.to];
        successors[e.from].push_back(e.to);
    }
    for (int i = 0; i < n; ++i)
        if (indegree[i] == 0)
            ready.push_back(i);
    while (!ready.empty()) {
        const size_t pick = rng() % ready.size();
        const int op = ready[pick];
        ready.erase(ready.begin() + static_cast<long>(pick));
        order.push_back(op);
        for (int next : successors[op])
            if (--indegree[next] == 0)
                ready.push_back(next);
    }
    return order;
}

// Brute force for the makespan objective, defined concretely: every feasible assignment of the 2^n (pins
// and missing kernels respected) is simulated in 4 + `randomOrders` list orders: Kahn's breadth-first
// topological order, the assignment's bottom-level order, its earliest-start (ETF) and earliest-finish
// dispatch orders, and
// `randomOrders` random topological orders (the same ones for every assignment). The best makespan over
// all of them is the reference. Returns infinity when no assignment is feasible. With `withinMemory`, only
// schedules whose peaks fit the devices' memory limits count.
inline double bruteForceMakespan(const OpGraph& graph, int randomOrders, bool withinMemory = false, unsigned seed = 5)
{
    const int n = static_cast<int>(graph.ops.size());
    std::mt19937 rng(seed);
    std::vector<int> topo = *topologicalOrder(graph);
    std::vector<std::vector<int>> fixedOrders { topo };
    for (int k = 0; k < randomOrders; ++k)
        fixedOrders.push_back(randomTopologicalOrder(graph, rng));
    ListScheduler scheduler(graph);
    double best = kNoKernel;
    std::vector<int64_t> peak;
    std::vector<double> when;
    for (uint32_t mask = 0; mask < (1u << n); ++mask) {
        std::vector<int> assignment(n);
        bool feasible = true;
        for (int i = 0; i < n && feasible; ++i) {
            assignment[i] = (mask >> i) & 1;
            feasible = feasibleDevice(graph, i, assignment[i]);
        }
        if (!feasible)
            continue;
        std::vector<std::vector<int>> orders = fixedOrders;
        orders.push_back(scheduler.bottomLevelOrder(assignment, topo));
        orders.push_back(scheduler.earliestStartOrder(assignment, topo));
        orders.push_back(scheduler.earliestStartOrder(assignment, topo, true));
        for (const auto& order : orders) {
            const double makespan = scheduler.run(assignment, order);
            if (withinMemory) {
                scheduler.peakMemory(assignment, peak, when);
                bool fits = true;
                for (size_t d = 0; d < graph.devices.size(); ++d)
                    fits = fits && (graph.devices[d].memoryBytes <= 0 || peak[d] <= graph.devices[d].memoryBytes);
                if (!fits)
                    continue;
            }
            best = std::min(best, makespan);
        }
    }
    return best;
}

} // namespace placescope::test
