// SPDX-License-Identifier: MIT
// The makespan solver: plain HEFT (Topcuoglu, Hariri & Wu 2002: upward rank with mean costs, each op to
// the device where it finishes first) on the ListScheduler model, the makespan lower bound, and
// solveMakespan, which hands HEFT, the sum optimum and the single-device placements (preferDevice) to
// PlacementSearch.
#include "placement/engine/list_scheduler.h"
#include "placement/engine/local_search.h"
#include "placement/engine/planner.h"
#include "placement/engine/preferred_placement.h"

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

Schedule heftSchedule(
    const OpGraph& graph, const std::vector<std::optional<int>>& pins, const std::vector<int>& topoOrder)
{
    const int n = static_cast<int>(graph.ops.size());
    const int devices = static_cast<int>(graph.devices.size());
    ListScheduler scheduler(graph);
    // Mean transfer cost of one byte count over all ordered device pairs, the same device counting as 0.
    auto meanTransfer = [&](int64_t bytes) {
        double total = 0;
        for (int a = 0; a < devices; ++a)
            for (int b = 0; b < devices; ++b)
                total += scheduler.transferUs(a, b, bytes);
        return total / (devices * devices);
    };
    std::vector<double> rank(n, 0);
    for (auto it = topoOrder.rbegin(); it != topoOrder.rend(); ++it) {
        const int op = *it;
        double mean = 0;
        int count = 0;
        for (int d = 0; d < devices; ++d)
            if (allowed(graph, pins, op, d)) {
                mean += graph.ops[op].costUs[d];
                ++count;
            }
        double tail = 0;
        for (const int* e = scheduler.outBegin(op); e != scheduler.outEnd(op); ++e)
            tail = std::max(tail, rank[graph.edges[*e].to] + meanTransfer(graph.edges[*e].bytes));
        rank[op] = (count ? mean / count : 0) + tail;
    }
    std::vector<int> position(n), indegree(n, 0);
    for (int i = 0; i < n; ++i)
        position[topoOrder[i]] = i;
    for (const PlacementEdge& e : graph.edges)
        ++indegree[e.to];
    // Ready ops leave a heap by rank (ties: topological position), so every op is placed after its inputs
    // even where zero costs make ranks equal along an edge.
    auto lower = [&](int a, int b) { return rank[a] != rank[b] ? rank[a] < rank[b] : position[a] > position[b]; };
    std::priority_queue<int, std::vector<int>, decltype(lower)> ready(lower);
    for (int op = 0; op < n; ++op)
        if (indegree[op] == 0)
            ready.push(op);
    Schedule schedule;
    schedule.assignment.assign(n, 0);
    schedule.order.reserve(n);
    while (!ready.empty()) {
        const int op = ready.top();
        ready.pop();
        int bestDevice = -1;
        double bestFinish = kNoKernel;
        for (int d = 0; d < devices; ++d) {
            if (!allowed(graph, pins, op, d))
                continue;
            const double end = scheduler.earliestStart(op, d) + graph.ops[op].costUs[d];
            if (bestDevice < 0 || end < bestFinish) {
                bestFinish = end;
                bestDevice = d;
            }
        }
        schedule.assignment[op] = bestDevice;
        scheduler.place(op, bestDevice);
        schedule.order.push_back(op);
        for (const int* e = scheduler.outBegin(op); e != scheduler.outEnd(op); ++e)
            if (--indegree[graph.edges[*e].to] == 0)
                ready.push(graph.edges[*e].to);
    }
    return schedule;
}

double makespanLowerBound(
    const OpGraph& graph, const std::vector<std::optional<int>>& pins, const std::vector<int>& topoOrder)
{
    const int n = static_cast<int>(graph.ops.size());
    const int devices = static_cast<int>(graph.devices.size());
    std::vector<double> cheapest(n, kNoKernel), longest(n, 0);
    double work = 0;
    for (int op = 0; op < n; ++op) {
        for (int d = 0; d < devices; ++d)
            if (allowed(graph, pins, op, d))
                cheapest[op] = std::min(cheapest[op], graph.ops[op].costUs[d]);
        work += cheapest[op];
    }
    std::vector<std::vector<int>> predecessors(n);
    for (const PlacementEdge& e : graph.edges)
        predecessors[e.to].push_back(e.from);
    double bound = devices > 0 ? work / devices : 0;
    for (int op : topoOrder) {
        double head = 0;
        for (int from : predecessors[op])
            head = std::max(head, longest[from]);
        longest[op] = head + cheapest[op];
        bound = std::max(bound, longest[op]);
    }
    return bound;
}

Result<Schedule> solveMakespan(const OpGraph& graph, const PlanOptions& options, const std::vector<int>& topoOrder)
{
    PLACESCOPE_ASSIGN_OR_RETURN(std::vector<std::optional<int>> pins, effectivePins(graph, options));
    const int devices = static_cast<int>(graph.devices.size());
    std::vector<Schedule> starts;
    starts.push_back(heftSchedule(graph, pins, topoOrder));
    if (devices == 2) {
        auto sum = solveSum(graph, options);
        if (sum.isOk())
            starts.push_back({ std::move(*sum), topoOrder });
    }
    // "All on device d" as the comparisons price it (ops without d's kernel and pinned ops elsewhere): a
    // strictly uniform start would exist for no model (its host ends are pinned to the CPU), and the search
    // only keeps what is better than its best start, so the proposal is never worse than these.
    for (int d = 0; d < devices; ++d)
        starts.push_back({ preferDevice(graph, pins, d), topoOrder });
    PlacementSearch search(graph, pins, topoOrder, Objective::Makespan, options.searchEffort);
    return search.improve(starts);
}

} // namespace placescope
