// SPDX-License-Identifier: MIT
#include "placement/engine/planner.h"

#include "placement/engine/max_flow.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace placescope {

Result<std::vector<int>> topologicalOrder(const OpGraph& graph)
{
    const int n = static_cast<int>(graph.ops.size());
    std::vector<int> indegree(n, 0);
    std::vector<std::vector<int>> successors(n);
    for (const PlacementEdge& edge : graph.edges) {
        successors[edge.from].push_back(edge.to);
        ++indegree[edge.to];
    }
    std::vector<int> order;
    order.reserve(n);
    for (int i = 0; i < n; ++i)
        if (indegree[i] == 0)
            order.push_back(i);
    for (size_t head = 0; head < order.size(); ++head)
        for (int next : successors[order[head]])
            if (--indegree[next] == 0)
                order.push_back(next);
    if (static_cast<int>(order.size()) != n) {
        for (int i = 0; i < n; ++i)
            if (indegree[i] > 0)
                return Status::error("the op graph has a cycle through op '" + graph.ops[i].id + "'");
    }
    return order;
}

Status validateGraph(const OpGraph& graph)
{
    const int deviceCount = static_cast<int>(graph.devices.size());
    if (deviceCount == 0)
        return Status::error("the problem has no devices");
    const int n = static_cast<int>(graph.ops.size());
    for (const PlacementEdge& edge : graph.edges)
        if (edge.from < 0 || edge.from >= n || edge.to < 0 || edge.to >= n)
            return Status::error("an edge names a missing op");
    for (const PlacementOp& op : graph.ops) {
        if (static_cast<int>(op.costUs.size()) != deviceCount)
            return Status::error("op '" + op.id + "' has no cost for every device");
        bool anywhere = false;
        for (double cost : op.costUs) {
            if (cost < 0 || std::isnan(cost))
                return Status::error("op '" + op.id + "' has a negative cost");
            anywhere = anywhere || std::isfinite(cost);
        }
        if (!anywhere)
            return Status::error("op '" + op.id + "' has a kernel on no device");
        if (op.pin && (*op.pin < 0 || *op.pin >= deviceCount))
            return Status::error("op '" + op.id + "' is pinned to a missing device");
        if (op.pin && !std::isfinite(op.costUs[*op.pin]))
            return Status::error("op '" + op.id + "' is pinned to device '" + graph.devices[*op.pin].name
                + "' which has no kernel for it");
    }
    return topologicalOrder(graph).status();
}

Timeline simulate(const OpGraph& graph, const std::vector<int>& assignment, const std::vector<int>& order)
{
    const size_t n = graph.ops.size();
    Timeline timeline;
    timeline.peakMemoryBytes.assign(graph.devices.size(), 0);
    std::vector<std::vector<int>> incoming(n);
    std::vector<int> lastConsumer(n, -1);
    for (size_t e = 0; e < graph.edges.size(); ++e)
        incoming[graph.edges[e].to].push_back(static_cast<int>(e));
    std::vector<double> finish(n, 0);
    std::vector<double> deviceFree(graph.devices.size(), 0);
    std::vector<double> start(n, 0);
    for (int op : order) {
        const int device = assignment[op];
        double ready = deviceFree[device];
        for (int e : incoming[op]) {
            const PlacementEdge& edge = graph.edges[e];
            const int from = assignment[edge.from];
            double arrive = finish[edge.from];
            if (from != device) {
                double cost = graph.transferUs(from, device, edge.bytes);
                timeline.spans.push_back({ -1, e, device, arrive, arrive + cost });
                arrive += cost;
                timeline.transferredBytes += edge.bytes;
                timeline.transferUs += cost;
                ++timeline.transferCount;
            }
            ready = std::max(ready, arrive);
        }
        const double cost = graph.ops[op].costUs[device];
        start[op] = ready;
        finish[op] = ready + cost;
        deviceFree[device] = finish[op];
        timeline.sumUs += cost;
        timeline.spans.push_back({ op, -1, device, ready, finish[op] });
        timeline.makespanUs = std::max(timeline.makespanUs, finish[op]);
    }
    timeline.sumUs += timeline.transferUs;
    // Liveness: an op's output occupies its device from the op's start until its last consumer ends.
    std::vector<double> releaseAt(finish);
    for (const PlacementEdge& edge : graph.edges)
        releaseAt[edge.from] = std::max(releaseAt[edge.from], finish[edge.to]);
    std::vector<std::vector<std::pair<double, int64_t>>> events(graph.devices.size());
    for (size_t op = 0; op < n; ++op) {
        int64_t bytes = graph.ops[op].memoryBytes;
        if (bytes <= 0)
            continue;
        events[assignment[op]].push_back({ start[op], bytes });
        events[assignment[op]].push_back({ releaseAt[op], -bytes });
    }
    for (size_t d = 0; d < events.size(); ++d) {
        std::sort(events[d].begin(), events[d].end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : a.second < b.second; // frees before allocations
        });
        int64_t live = 0;
        for (const auto& [time, delta] : events[d]) {
            live += delta;
            timeline.peakMemoryBytes[d] = std::max(timeline.peakMemoryBytes[d], live);
        }
    }
    return timeline;
}

Result<std::vector<int>> solveSum(const OpGraph& graph, const PlanOptions& options)
{
    const int n = static_cast<int>(graph.ops.size());
    if (graph.devices.size() == 1)
        return std::vector<int>(n, 0);
    if (graph.devices.size() != 2)
        return Status::error("the sum objective is solved exactly for two devices only");
    std::vector<std::optional<int>> pins(n);
    for (int i = 0; i < n; ++i)
        pins[i] = graph.ops[i].pin;
    for (auto [op, device] : options.pins) {
        if (op < 0 || op >= n || device < 0 || device > 1)
            return Status::error("a pin names a missing op or device");
        pins[op] = device;
    }
    // Source = device 0, sink = device 1. Keeping v on the source side cuts v->t, so v->t carries the
    // cost on device 0 and s->v the cost on device 1; a pin or a missing kernel is an infinite capacity.
    const double inf = kNoKernel;
    const int source = n;
    const int sink = n + 1;
    MaxFlow flow(n + 2);
    for (int i = 0; i < n; ++i) {
        double cost0 = graph.ops[i].costUs[0];
        double cost1 = graph.ops[i].costUs[1];
        if (pins[i] && *pins[i] == 0)
            cost1 = inf;
        if (pins[i] && *pins[i] == 1)
            cost0 = inf;
        if (!std::isfinite(cost0) && !std::isfinite(cost1))
            return Status::error("op '" + graph.ops[i].id + "' is pinned to a device without its kernel");
        // Only the difference matters to the cut; the common part is added back by the simulator.
        double common = std::min(cost0, cost1);
        flow.addEdge(source, i, cost1 - common);
        flow.addEdge(i, sink, cost0 - common);
    }
    for (const PlacementEdge& edge : graph.edges)
        flow.addEdge(edge.from, edge.to, graph.transferUs(0, 1, edge.bytes), graph.transferUs(1, 0, edge.bytes));
    if (!std::isfinite(flow.run(source, sink)))
        return Status::error("the pins and missing kernels leave no feasible placement");
    std::vector<bool> side = flow.sourceSide(source);
    std::vector<int> assignment(n);
    for (int i = 0; i < n; ++i)
        assignment[i] = side[i] ? 0 : 1;
    return assignment;
}

Result<Proposal> plan(const OpGraph& graph, const PlanOptions& options)
{
    PLACESCOPE_RETURN_IF_ERROR(validateGraph(graph));
    PLACESCOPE_ASSIGN_OR_RETURN(std::vector<int> order, topologicalOrder(graph));
    Proposal proposal;
    if (options.objective == Objective::Sum || graph.devices.size() == 1) {
        PLACESCOPE_ASSIGN_OR_RETURN(proposal.assignment, solveSum(graph, options));
        proposal.timeline = simulate(graph, proposal.assignment, order);
        proposal.exact = true;
        proposal.objectiveUs = options.objective == Objective::Sum ? proposal.timeline.sumUs : proposal.timeline.makespanUs;
        proposal.lowerBoundUs = proposal.objectiveUs;
    } else {
        PLACESCOPE_ASSIGN_OR_RETURN(proposal.assignment, solveMakespan(graph, options, order, &proposal.lowerBoundUs));
        proposal.timeline = simulate(graph, proposal.assignment, order);
        // The sum optimum is a candidate too (it often wins when transfers dominate).
        if (graph.devices.size() == 2) {
            auto sum = solveSum(graph, options);
            if (sum.isOk()) {
                Timeline other = simulate(graph, *sum, order);
                if (other.makespanUs < proposal.timeline.makespanUs) {
                    proposal.assignment = *sum;
                    proposal.timeline = std::move(other);
                }
            }
        }
        // Single-device placements are candidates too, so the proposal never loses to "all on one device".
        for (int d = 0; d < static_cast<int>(graph.devices.size()); ++d) {
            std::vector<int> single(graph.ops.size(), d);
            bool feasible = true;
            for (size_t i = 0; i < graph.ops.size(); ++i)
                feasible = feasible && std::isfinite(graph.ops[i].costUs[d]) && (!graph.ops[i].pin || *graph.ops[i].pin == d);
            for (auto [op, device] : options.pins)
                feasible = feasible && device == d;
            if (!feasible)
                continue;
            Timeline other = simulate(graph, single, order);
            if (other.makespanUs < proposal.timeline.makespanUs) {
                proposal.assignment = std::move(single);
                proposal.timeline = std::move(other);
            }
        }
        proposal.objectiveUs = proposal.timeline.makespanUs;
    }
    for (size_t d = 0; d < graph.devices.size(); ++d)
        if (graph.devices[d].memoryBytes > 0 && proposal.timeline.peakMemoryBytes[d] > graph.devices[d].memoryBytes)
            return Status::error("the placement needs " + std::to_string(proposal.timeline.peakMemoryBytes[d])
                + " bytes on device '" + graph.devices[d].name + "', over its memory limit");
    return proposal;
}

} // namespace placescope
