// SPDX-License-Identifier: MIT
#include "ui/whatif/whatif_lane_rows.h"

#include <algorithm>
#include <limits>

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

void finish(WhatIfSpanRow& row)
{
    std::sort(row.spans.begin(), row.spans.end(),
        [](const WhatIfSpan& a, const WhatIfSpan& b) { return a.startNs < b.startNs; });
    for (const WhatIfSpan& span : row.spans)
        row.longestNs = std::max(row.longestNs, span.endNs - span.startNs);
}

} // namespace

WhatIfLaneRows buildLaneRows(const WhatIfResult& result)
{
    const ReplayGraph& graph = result.predictedGraph;
    const ReplaySchedule& schedule = result.predictedSchedule;
    const size_t taskCount = graph.tasks.size();
    // The edits keep task indices (they change durations, drop or move tasks), so both paths index the same tasks.
    const std::vector<uint8_t> before = pathTasks(result.replayPath, taskCount);
    const std::vector<uint8_t> after = pathTasks(result.predictedPath, taskCount);
    WhatIfLaneRows rows;
    rows.startNs = std::numeric_limits<int64_t>::max();
    rows.endNs = std::numeric_limits<int64_t>::min();
    for (const ReplayLane& lane : graph.lanes) {
        WhatIfLaneRow row;
        row.label = lane.label;
        row.gpu = lane.kind == ReplayLane::Kind::Gpu;
        for (int32_t id : lane.tasks) {
            const auto index = static_cast<size_t>(id);
            const ReplayTask& task = graph.tasks[index];
            row.measured.spans.push_back(
                { task.measuredStart, task.measuredEnd, id, before[index] != 0, task.dropped });
            rows.startNs = std::min(rows.startNs, task.measuredStart);
            rows.endNs = std::max(rows.endNs, task.measuredEnd);
            if (task.dropped || index >= schedule.start.size() || schedule.start[index] < 0)
                continue;
            row.predicted.spans.push_back({ schedule.start[index], schedule.end[index], id, after[index] != 0, false });
            rows.startNs = std::min(rows.startNs, schedule.start[index]);
            rows.endNs = std::max(rows.endNs, schedule.end[index]);
        }
        if (row.measured.spans.empty())
            continue;
        finish(row.measured);
        finish(row.predicted);
        rows.lanes.push_back(std::move(row));
    }
    if (rows.lanes.empty())
        rows.startNs = rows.endNs = 0;
    return rows;
}

std::pair<size_t, size_t> visibleSpans(const WhatIfSpanRow& row, int64_t fromNs, int64_t toNs)
{
    auto byStart = [](const WhatIfSpan& span, int64_t t) { return span.startNs < t; };
    const auto first = std::lower_bound(row.spans.begin(), row.spans.end(), fromNs - row.longestNs, byStart);
    const auto last = std::lower_bound(first, row.spans.end(), toNs, byStart);
    return { static_cast<size_t>(first - row.spans.begin()), static_cast<size_t>(last - row.spans.begin()) };
}

} // namespace placescope::ui
