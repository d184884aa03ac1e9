// SPDX-License-Identifier: MIT
#include "ui/whatif/whatif_lane_rows.h"

#include "whatif/replay_graph.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace placescope::ui {

namespace {

std::vector<uint8_t> pathTasks(const CriticalPath& path, size_t taskCount)
{
    std::vector<uint8_t> onPath(taskCount, 0);
    for (const PathSegment& segment : path.segments)
        if (segment.task >= 0 && static_cast<size_t>(segment.task) < taskCount)
            onPath[static_cast<size_t>(segment.task)] = 1;
    return onPath;
}

EventKind eventKind(TaskKind kind)
{
    switch (kind) {
    case TaskKind::HostCall:
        return EventKind::Runtime;
    case TaskKind::Memcpy:
        return EventKind::Memcpy;
    case TaskKind::Memset:
        return EventKind::Memset;
    case TaskKind::Kernel:
        break;
    }
    return EventKind::Kernel;
}

struct Span
{
    int64_t startNs;
    int64_t endNs;
    int32_t task;
};

// Sorted by start into `row` (and the critical flags beside it when asked for).
void fill(std::vector<Span> spans, const ReplayGraph& graph, const std::vector<uint32_t>& nameOf,
    const std::vector<uint8_t>* onPath, LaneRow& row, std::vector<uint8_t>* critical)
{
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.startNs < b.startNs; });
    for (const Span& span : spans) {
        const auto task = static_cast<size_t>(span.task);
        row.push(span.startNs, span.endNs, nameOf[task], static_cast<uint32_t>(span.task), 0,
            eventKind(graph.tasks[task].kind));
        if (critical)
            critical->push_back((*onPath)[task]);
    }
    row.finish();
}

} // namespace

WhatIfLaneRows buildLaneRows(const WhatIfResult& result, const TraceData& trace)
{
    const ReplayGraph& graph = result.predictedGraph;
    const ReplaySchedule& schedule = result.predictedSchedule;
    const size_t taskCount = graph.tasks.size();
    // The edits keep task indices (they change durations, drop or move tasks), so both paths index the same tasks.
    const std::vector<uint8_t> before = pathTasks(result.replayPath, taskCount);
    const std::vector<uint8_t> after = pathTasks(result.predictedPath, taskCount);
    WhatIfLaneRows rows;
    // One name per distinct task name, so a kernel keeps its colour on both rows and across lanes.
    std::vector<uint32_t> nameOf(taskCount);
    std::unordered_map<std::string, uint32_t> nameIds;
    for (size_t t = 0; t < taskCount; ++t) {
        auto [it, added] = nameIds.emplace(taskName(trace, graph.tasks[t]), static_cast<uint32_t>(rows.names.size()));
        if (added)
            rows.names.push_back(it->first);
        nameOf[t] = it->second;
    }
    rows.startNs = std::numeric_limits<int64_t>::max();
    rows.endNs = std::numeric_limits<int64_t>::min();
    for (const ReplayLane& lane : graph.lanes) {
        std::vector<Span> measured, dropped, predicted;
        for (int32_t id : lane.tasks) {
            const auto index = static_cast<size_t>(id);
            const ReplayTask& task = graph.tasks[index];
            if (index < result.measuredTaskCount) { // an edit's own work has no measured span
                (task.dropped ? dropped : measured).push_back({ task.measuredStart, task.measuredEnd, id });
                rows.startNs = std::min(rows.startNs, task.measuredStart);
                rows.endNs = std::max(rows.endNs, task.measuredEnd);
            }
            // Every task that is not dropped was scheduled (replayGraph fails otherwise); its time may be negative (a
            // worker's first batch, loaded before a trace that starts at 0).
            if (task.dropped || index >= schedule.start.size())
                continue;
            predicted.push_back({ schedule.start[index], schedule.end[index], id });
            rows.startNs = std::min(rows.startNs, schedule.start[index]);
            rows.endNs = std::max(rows.endNs, schedule.end[index]);
        }
        if (measured.empty() && dropped.empty() && predicted.empty())
            continue;
        WhatIfLaneRow row;
        row.label = lane.label;
        row.gpu = lane.kind == ReplayLane::Kind::Gpu;
        fill(std::move(measured), graph, nameOf, &before, row.measured.events, &row.measured.critical);
        fill(std::move(dropped), graph, nameOf, nullptr, row.measured.dropped, nullptr);
        fill(std::move(predicted), graph, nameOf, &after, row.predicted.events, &row.predicted.critical);
        row.predicted.dropped.finish();
        rows.lanes.push_back(std::move(row));
    }
    if (rows.lanes.empty())
        rows.startNs = rows.endNs = 0;
    return rows;
}

} // namespace placescope::ui
