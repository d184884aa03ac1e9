// SPDX-License-Identifier: MIT
#include "whatif/critical_path.h"

#include <algorithm>

namespace placescope {

std::string_view pathCategoryName(PathCategory category)
{
    switch (category) {
    case PathCategory::CpuOps:
        return "cpu";
    case PathCategory::Launch:
        return "launch";
    case PathCategory::Kernel:
        return "kernel";
    case PathCategory::Copy:
        return "copy";
    case PathCategory::Sync:
        return "sync";
    case PathCategory::Communication:
        return "communication";
    case PathCategory::Wait:
        return "wait";
    }
    return "?";
}

namespace {

PathCategory categoryOfWork(const ReplayTask& t)
{
    switch (t.kind) {
    case TaskKind::HostCall:
        return t.role == HostRole::Launch ? PathCategory::Launch
            : t.role == HostRole::Wait    ? PathCategory::Sync
                                          : PathCategory::CpuOps;
    case TaskKind::Kernel:
        return t.communication ? PathCategory::Communication : PathCategory::Kernel;
    default:
        return PathCategory::Copy;
    }
}

} // namespace

CriticalPath criticalPath(
    const ReplayGraph& graph, const ReplaySchedule& schedule, int32_t lastTask, int64_t windowStartNs)
{
    CriticalPath path;
    path.startNs = windowStartNs;
    path.endNs = windowStartNs; // no work in the window (a CPU-only trace): an empty path, not a negative length
    if (lastTask < 0 || graph.tasks[lastTask].dropped)
        return path;
    path.endNs = schedule.end[lastTask];
    // Pieces are cut at the earliest time the walk has reached: a dependency with a negative lag (clock skew kept as
    // measured) can lead to an event later than its successor, and its time must not count twice.
    // The walk runs twice, counting and then filling, so the segments take exactly their size (a path through a
    // 10M-event run has millions, and a grown vector would hold up to twice that).
    auto walk = [&](auto&& emit) {
        int64_t reached = path.endNs;
        auto add = [&](int32_t task, PathCategory category, int64_t from, int64_t to) {
            from = std::max(from, windowStartNs);
            to = std::min(to, reached);
            if (to <= from)
                return;
            reached = from;
            emit(PathSegment { from, to, task, category });
        };
        int32_t task = lastTask;
        bool atEnd = true;
        // Each step moves to an earlier event, so the walk ends; the bound guards against a malformed schedule.
        for (size_t guard = 0; task >= 0 && guard < 2 * graph.tasks.size() + 2; ++guard) {
            const ReplayTask& t = graph.tasks[task];
            const int64_t now = atEnd ? schedule.end[task] : schedule.start[task];
            if (now <= windowStartNs)
                break;
            const int32_t blocker = atEnd ? schedule.endBlocker[task] : schedule.startBlocker[task];
            switch (atEnd ? schedule.endCause[task] : schedule.startCause[task]) {
            case EventCause::Duration:
                add(task, categoryOfWork(t), schedule.start[task], now);
                atEnd = false;
                continue;
            case EventCause::Wait:
                add(task, PathCategory::Sync, schedule.end[blocker], now);
                task = blocker;
                atEnd = true;
                continue;
            case EventCause::Collective:
                add(task, PathCategory::Communication, schedule.start[blocker], now);
                task = blocker;
                atEnd = false;
                continue;
            case EventCause::LaneOrder:
                add(task, t.isGpu() ? PathCategory::Wait : PathCategory::CpuOps, schedule.end[blocker], now);
                task = blocker;
                atEnd = true;
                continue;
            case EventCause::Launch:
                add(task, PathCategory::Launch, schedule.start[blocker], now);
                task = blocker;
                atEnd = false;
                continue;
            case EventCause::CrossStream:
                add(task, t.isGpu() ? PathCategory::Wait : PathCategory::CpuOps, schedule.end[blocker], now);
                task = blocker;
                atEnd = true;
                continue;
            case EventCause::Anchor:
                // Nothing recorded before it explains its start: the time since the window began is its thread's (or
                // stream's) own, so the categories add up to the path's length.
                add(task, t.isGpu() ? PathCategory::Wait : PathCategory::CpuOps, windowStartNs, now);
                break;
            case EventCause::Dropped:
                break;
            }
            break;
        }
    };
    size_t count = 0;
    walk([&](const PathSegment&) { ++count; });
    path.segments.reserve(count);
    walk([&](const PathSegment& segment) {
        path.segments.push_back(segment);
        path.categoryNs[static_cast<size_t>(segment.category)] += segment.endNs - segment.startNs;
    });
    return path;
}

} // namespace placescope
