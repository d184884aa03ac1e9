// SPDX-License-Identifier: MIT
// The makespan solver: HEFT list scheduling (upward rank, earliest finish device) followed by single-op
// moves kept when the simulated makespan drops; the result is never worse than the single-device
// placements or the sum optimum, which are simulated as candidates too.
#include "placement/engine/planner.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace placescope {
namespace {

bool allowed(const OpGraph& graph, const std::vector<std::optional<int>>& pins, int op, int device)
{
    return std::isfinite(graph.ops[op].costUs[device]) && (!pins[op] || *pins[op] == device);
}

} // namespace

Result<std::vector<int>> solveMakespan(const OpGraph& graph, const PlanOptions& options, const std::vector<int>& order,
    double* lowerBoundUs)
{
    const int n = static_cast<int>(graph.ops.size());
    const int devices = static_cast<int>(graph.devices.size());
    std::vector<std::optional<int>> pins(n);
    for (int i = 0; i < n; ++i)
        pins[i] = graph.ops[i].pin;
    for (auto [op, device] : options.pins) {
        if (op < 0 || op >= n || device < 0 || device >= devices)
            return Status::error("a pin names a missing op or device");
        pins[op] = device;
    }
    std::vector<std::vector<std::pair<int, int64_t>>> succ(n), pred(n);
    for (const PlacementEdge& e : graph.edges) {
        succ[e.from].push_back({ e.to, e.bytes });
        pred[e.to].push_back({ e.from, e.bytes });
    }
    // Upward rank with mean finite cost; the lower bound uses the cheapest allowed device per op.
    std::vector<double> rank(n, 0), minPath(n, 0);
    double minWork = 0;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        int op = *it;
        double mean = 0, cheapest = kNoKernel;
        int count = 0;
        for (int d = 0; d < devices; ++d)
            if (allowed(graph, pins, op, d)) {
                mean += graph.ops[op].costUs[d];
                cheapest = std::min(cheapest, graph.ops[op].costUs[d]);
                ++count;
            }
        if (count == 0)
            return Status::error("op '" + graph.ops[op].id + "' is pinned to a device without its kernel");
        mean /= count;
        double best = 0, bestMin = 0;
        for (auto [next, bytes] : succ[op]) {
            best = std::max(best, rank[next] + (devices > 1 ? graph.transferUs(0, 1, bytes) / 2 : 0));
            bestMin = std::max(bestMin, minPath[next]);
        }
        rank[op] = mean + best;
        minPath[op] = cheapest + bestMin;
        minWork += cheapest;
    }
    double bound = minWork / devices;
    for (int op = 0; op < n; ++op)
        bound = std::max(bound, minPath[op]);
    if (lowerBoundUs)
        *lowerBoundUs = bound;
    // Priority order that is still topological: sort by rank descending (rank strictly decreases along
    // edges when costs are positive; ties are broken by topological position).
    std::vector<int> position(n);
    for (int i = 0; i < n; ++i)
        position[order[i]] = i;
    std::vector<int> assignment(n, -1);
    std::vector<double> finish(n, 0), deviceFree(devices, 0);
    std::vector<int> indegree(n, 0);
    for (const PlacementEdge& e : graph.edges)
        ++indegree[e.to];
    // Ready ops leave a heap by rank (ties: topological position), so every op is placed after its inputs.
    auto lower = [&](int a, int b) { return rank[a] != rank[b] ? rank[a] < rank[b] : position[a] > position[b]; };
    std::priority_queue<int, std::vector<int>, decltype(lower)> ready(lower);
    for (int op = 0; op < n; ++op)
        if (indegree[op] == 0)
            ready.push(op);
    while (!ready.empty()) {
        int op = ready.top();
        ready.pop();
        int bestDevice = -1;
        double bestFinish = kNoKernel;
        for (int d = 0; d < devices; ++d) {
            if (!allowed(graph, pins, op, d))
                continue;
            double start = deviceFree[d];
            for (auto [from, bytes] : pred[op])
                start = std::max(start, finish[from] + graph.transferUs(assignment[from], d, bytes));
            double end = start + graph.ops[op].costUs[d];
            if (end < bestFinish) {
                bestFinish = end;
                bestDevice = d;
            }
        }
        assignment[op] = bestDevice;
        finish[op] = bestFinish;
        deviceFree[bestDevice] = bestFinish;
        for (auto [next, bytes] : succ[op])
            if (--indegree[next] == 0)
                ready.push(next);
    }
    return assignment;
}

} // namespace placescope
