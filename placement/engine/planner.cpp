// SPDX-License-Identifier: MIT
#include "placement/engine/planner.h"

#include "placement/engine/list_scheduler.h"
#include "placement/engine/local_search.h"
#include "placement/engine/max_flow.h"
#include "placement/engine/preferred_placement.h"
#include "profiler/base/units.h"

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
    ListScheduler scheduler(graph);
    Timeline timeline;
    for (int op : order)
        scheduler.place(op, assignment[op], &timeline);
    timeline.makespanUs = scheduler.makespan();
    timeline.sumUs += timeline.transferUs;
    std::vector<double> peakTime;
    scheduler.peakMemory(assignment, timeline.peakMemoryBytes, peakTime);
    return timeline;
}

Result<std::vector<std::optional<int>>> effectivePins(const OpGraph& graph, const PlanOptions& options)
{
    const int n = static_cast<int>(graph.ops.size());
    const int devices = static_cast<int>(graph.devices.size());
    std::vector<std::optional<int>> pins(n);
    for (int i = 0; i < n; ++i)
        pins[i] = graph.ops[i].pin;
    for (auto [op, device] : options.pins) {
        if (op < 0 || op >= n)
            return Status::error("a pin names op index " + std::to_string(op) + ", which does not exist");
        if (device < 0 || device >= devices)
            return Status::error(
                "op '" + graph.ops[op].id + "' is pinned to missing device index " + std::to_string(device));
        if (!std::isfinite(graph.ops[op].costUs[device]))
            return Status::error("op '" + graph.ops[op].id + "' is pinned to device '" + graph.devices[device].name
                + "' which has no kernel for it");
        pins[op] = device;
    }
    return pins;
}

Result<std::vector<int>> solveSum(const OpGraph& graph, const PlanOptions& options)
{
    const int n = static_cast<int>(graph.ops.size());
    if (graph.devices.size() == 1)
        return std::vector<int>(n, 0);
    if (graph.devices.size() != 2)
        return Status::error("the sum objective is solved exactly for two devices only");
    PLACESCOPE_ASSIGN_OR_RETURN(std::vector<std::optional<int>> pins, effectivePins(graph, options));
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

namespace {

std::string bytesText(int64_t bytes)
{
    return formatBytes(bytes); // the one sizes formatter: binary units, as every size people read
}

// An op that can only live on one device and whose output alone exceeds that device's memory makes every
// placement infeasible; say which.
Status checkForcedMemory(const OpGraph& graph, const std::vector<std::optional<int>>& pins)
{
    for (size_t op = 0; op < graph.ops.size(); ++op) {
        std::optional<int> only = pins[op];
        if (!only) {
            int count = 0;
            for (size_t d = 0; d < graph.devices.size(); ++d)
                if (std::isfinite(graph.ops[op].costUs[d])) {
                    only = static_cast<int>(d);
                    ++count;
                }
            if (count != 1)
                only.reset();
        }
        if (!only)
            continue;
        const PlacementDevice& device = graph.devices[*only];
        if (device.memoryBytes > 0 && graph.ops[op].memoryBytes > device.memoryBytes)
            return Status::error("op '" + graph.ops[op].id + "' must run on device '" + device.name + "' and needs "
                + bytesText(graph.ops[op].memoryBytes) + ", over its memory limit of " + bytesText(device.memoryBytes));
    }
    return Status::ok();
}

Status memoryError(const OpGraph& graph, const Timeline& timeline)
{
    for (size_t d = 0; d < graph.devices.size(); ++d)
        if (graph.devices[d].memoryBytes > 0 && timeline.peakMemoryBytes[d] > graph.devices[d].memoryBytes)
            return Status::error("no placement found within device '" + graph.devices[d].name + "' memory limit of "
                + bytesText(graph.devices[d].memoryBytes) + " (the best found peaks at "
                + bytesText(timeline.peakMemoryBytes[d]) + ")");
    return Status::ok();
}

bool hasMemoryLimits(const OpGraph& graph)
{
    for (const PlacementDevice& device : graph.devices)
        if (device.memoryBytes > 0)
            return true;
    return false;
}

} // namespace

Result<Proposal> plan(const OpGraph& graph, const PlanOptions& options)
{
    PLACESCOPE_RETURN_IF_ERROR(validateGraph(graph));
    PLACESCOPE_ASSIGN_OR_RETURN(std::vector<int> topoOrder, topologicalOrder(graph));
    PLACESCOPE_ASSIGN_OR_RETURN(std::vector<std::optional<int>> pins, effectivePins(graph, options));
    PLACESCOPE_RETURN_IF_ERROR(checkForcedMemory(graph, pins));
    const int n = static_cast<int>(graph.ops.size());
    Proposal proposal;
    if (options.objective == Objective::Sum || graph.devices.size() == 1) {
        std::vector<int> assignment(n, 0);
        if (graph.devices.size() > 1) {
            PLACESCOPE_ASSIGN_OR_RETURN(assignment, solveSum(graph, options));
        }
        // The order does not change the sum; the bottom-level order gives the timeline a sensible makespan
        // and is the first order tried for memory.
        Schedule chosen { assignment, ListScheduler(graph).bottomLevelOrder(assignment, topoOrder) };
        if (hasMemoryLimits(graph)) {
            PlacementSearch repair(graph, pins, topoOrder, options.objective, options.searchEffort);
            chosen = repair.improve({ chosen });
            if (repair.bestKey().overflowBytes > 0) {
                // Eviction from the min cut did not fit (memory depends on the schedule, not only on the
                // assignment): start again from HEFT's placement and order (compact schedules free memory
                // early) and from the single-device placements, and keep the best.
                std::vector<Schedule> singles { heftSchedule(graph, pins, topoOrder) };
                for (int d = 0; d < static_cast<int>(graph.devices.size()); ++d)
                    singles.push_back({ preferDevice(graph, pins, d), topoOrder });
                PlacementSearch grow(graph, pins, topoOrder, options.objective, options.searchEffort);
                Schedule grown = grow.improve(singles);
                const SearchKey a = grow.bestKey();
                const SearchKey b = repair.bestKey();
                if (a.overflowBytes < b.overflowBytes || (a.overflowBytes == b.overflowBytes && a.value < b.value))
                    chosen = std::move(grown);
            }
        }
        const double cutValue = simulate(graph, assignment, topoOrder).sumUs;
        if (graph.devices.size() == 1 && options.objective == Objective::Makespan)
            proposal.lowerBoundUs = makespanLowerBound(graph, pins, topoOrder);
        else
            proposal.lowerBoundUs = cutValue;
        int moved = 0;
        for (int op = 0; op < n; ++op)
            moved += chosen.assignment[op] != assignment[op];
        proposal.exact = moved == 0;
        if (moved > 0)
            proposal.notes.push_back("memory repair moved " + std::to_string(moved) + (moved == 1 ? " op" : " ops")
                + " after the minimum cut: the result fits the memory limits but is no longer proven optimal");
        proposal.assignment = std::move(chosen.assignment);
        proposal.order = std::move(chosen.order);
    } else {
        PLACESCOPE_ASSIGN_OR_RETURN(Schedule chosen, solveMakespan(graph, options, topoOrder));
        proposal.assignment = std::move(chosen.assignment);
        proposal.order = std::move(chosen.order);
        proposal.lowerBoundUs = makespanLowerBound(graph, pins, topoOrder);
    }
    proposal.timeline = simulate(graph, proposal.assignment, proposal.order);
    proposal.objectiveUs = options.objective == Objective::Sum ? proposal.timeline.sumUs : proposal.timeline.makespanUs;
    if (proposal.exact)
        proposal.lowerBoundUs = proposal.objectiveUs;
    if (hasMemoryLimits(graph))
        PLACESCOPE_RETURN_IF_ERROR(memoryError(graph, proposal.timeline));
    return proposal;
}

} // namespace placescope
