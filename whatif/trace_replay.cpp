// SPDX-License-Identifier: MIT
#include "whatif/trace_replay.h"

#include "placement/engine/resource_clock.h"

#include <algorithm>

namespace placescope {

namespace {

constexpr int64_t kNever = INT64_MIN;

} // namespace

Result<ReplaySchedule> replayGraph(const ReplayGraph& graph)
{
    const int32_t n = static_cast<int32_t>(graph.tasks.size());
    ReplaySchedule s;
    s.start.assign(n, -1);
    s.end.assign(n, -1);
    s.startBlocker.assign(n, -1);
    s.endBlocker.assign(n, -1);
    s.startCause.assign(n, EventCause::Dropped);
    s.endCause.assign(n, EventCause::Dropped);

    // Dropped tasks leave their lane: each task follows the closest surviving task before it, and a dependency
    // on a dropped task moves to that survivor.
    std::vector<int32_t> survivor(static_cast<size_t>(n), -1);
    for (const ReplayLane& lane : graph.lanes) {
        int32_t previous = -1;
        for (int32_t id : lane.tasks) {
            if (!graph.tasks[id].dropped)
                previous = id;
            survivor[id] = previous;
        }
    }
    auto resolved = [&](int32_t task) { return task < 0 ? -1 : survivor[task]; };

    // Each lane is a chain, so the replay walks the lanes with one cursor each instead of building successor
    // lists (which cost more memory than the graph on a 10M-event trace): a lane advances while its next event's
    // dependencies on other lanes have happened, and the walk repeats until no lane can move. A host lane runs
    // ahead to its next wait, the GPU lanes drain up to what it launched, so the number of rounds follows the
    // number of waits and cross-lane hand-offs, not of events.
    enum : uint8_t
    {
        kPending,
        kStarted,
        kEnded
    };
    std::vector<uint8_t> state(static_cast<size_t>(n), kPending);
    auto started = [&](int32_t id) { return state[id] != kPending; };
    auto ended = [&](int32_t id) { return state[id] == kEnded; };
    ResourceClocks<int64_t> lanes(static_cast<int>(graph.lanes.size()));
    std::vector<size_t> cursor(graph.lanes.size(), 0);
    std::vector<int32_t> lastAlive(graph.lanes.size(), -1);

    // The start event of task `id`, once the events it depends on have happened; false: not yet.
    auto tryStart = [&](int32_t id, int32_t previous) {
        const ReplayTask& t = graph.tasks[id];
        if (t.launcher >= 0 && !graph.tasks[t.launcher].dropped && !started(t.launcher))
            return false;
        const ReplayLinks& links = graph.linksOf(t);
        const int32_t cross = resolved(links.crossPred);
        if (cross >= 0 && !ended(cross))
            return false;
        int64_t inputs = kNever;
        int32_t blocker = -1;
        EventCause cause = EventCause::Anchor;
        auto consider = [&](int64_t time, int32_t from, EventCause why) {
            if (time > inputs) {
                inputs = time;
                blocker = from;
                cause = why;
            }
        };
        // A thread's first call has no call before it: an edit of the CPU time before it (input=) moves its anchor by
        // its laneGap, so the first step is edited like the others.
        if (t.anchored)
            consider(t.measuredStart + (previous < 0 && t.kind == TaskKind::HostCall ? t.laneGap : 0), -1,
                EventCause::Anchor);
        if (t.launcher >= 0)
            consider(s.start[t.launcher] + t.launchLag, t.launcher, EventCause::Launch);
        if (cross >= 0)
            consider(s.end[cross] + links.crossLag, cross, EventCause::CrossStream);
        if (inputs == kNever && previous < 0) // its anchor was dropped with everything before it
            consider(t.measuredStart, -1, EventCause::Anchor);
        const StartDecision<int64_t> decision = lanes.decide(t.lane, inputs, blocker, t.laneGap);
        s.start[id] = decision.start;
        s.startBlocker[id] = decision.blocker;
        s.startCause[id]
            = previous >= 0 && decision.blocker == previous && decision.start != inputs ? EventCause::LaneOrder : cause;
        state[id] = kStarted;
        return true;
    };
    // Its end event: its own duration, or later when it waits for GPU work or for the ranks of a collective.
    auto tryEnd = [&](int32_t id) {
        const ReplayTask& t = graph.tasks[id];
        const ReplayLinks& links = graph.linksOf(t);
        for (uint32_t a = links.awaitBegin; a < links.awaitEnd; ++a)
            if (const int32_t awaited = resolved(graph.awaited[a]); awaited >= 0 && !ended(awaited))
                return false;
        auto isPeer = [&](int32_t peer) {
            return peer != id && !graph.tasks[peer].dropped
                && graph.linksOf(graph.tasks[peer]).collective == links.collective;
        };
        if (links.collective >= 0)
            for (int32_t peer : graph.collectives[links.collective])
                if (isPeer(peer) && !started(peer))
                    return false;
        int64_t end = s.start[id] + t.duration;
        int32_t blocker = -1;
        EventCause cause = EventCause::Duration;
        for (uint32_t a = links.awaitBegin; a < links.awaitEnd; ++a) {
            const int32_t awaited = resolved(graph.awaited[a]);
            if (awaited >= 0 && s.end[awaited] + links.wake > end) {
                end = s.end[awaited] + links.wake;
                blocker = awaited;
                cause = EventCause::Wait;
            }
        }
        if (links.collective >= 0)
            for (int32_t peer : graph.collectives[links.collective])
                if (isPeer(peer) && s.start[peer] + links.collectiveLag > end) {
                    end = s.start[peer] + links.collectiveLag;
                    blocker = peer;
                    cause = EventCause::Collective;
                }
        s.end[id] = end;
        s.endBlocker[id] = blocker;
        s.endCause[id] = cause;
        lanes.occupy(t.lane, id, end);
        state[id] = kEnded;
        return true;
    };

    size_t remaining = 0;
    for (const ReplayTask& t : graph.tasks)
        remaining += t.dropped ? 0 : 1;
    for (bool moved = true; moved && remaining > 0;) {
        moved = false;
        for (size_t l = 0; l < graph.lanes.size(); ++l) {
            const std::vector<int32_t>& ids = graph.lanes[l].tasks;
            while (cursor[l] < ids.size()) {
                const int32_t id = ids[cursor[l]];
                if (graph.tasks[id].dropped) {
                    ++cursor[l];
                    continue;
                }
                if (!started(id) && !tryStart(id, lastAlive[l]))
                    break;
                if (!tryEnd(id))
                    break;
                lastAlive[l] = id;
                ++cursor[l];
                --remaining;
                moved = true;
            }
        }
    }
    if (remaining > 0)
        return Status::error("the trace's dependency graph has a cycle (" + std::to_string(remaining)
            + " tasks never became ready); the replay cannot order it");
    return s;
}

int64_t replayedInstant(const ReplayGraph& graph, const ReplaySchedule& schedule, int32_t laneIndex, int64_t timeNs)
{
    if (laneIndex < 0)
        return timeNs;
    const auto& ids = graph.lanes[laneIndex].tasks;
    auto alive = [&](int32_t id) { return !graph.tasks[id].dropped; };
    auto pos = std::partition_point(
        ids.begin(), ids.end(), [&](int32_t id) { return graph.tasks[id].measuredStart <= timeNs; });
    auto before = pos;
    while (before != ids.begin() && !alive(*(before - 1)))
        --before;
    auto after = pos;
    while (after != ids.end() && !alive(*after))
        ++after;
    if (before == ids.begin()) {
        if (after == ids.end())
            return timeNs;
        // Before the lane's first task nothing is replayed: the instant moves with the task when it starts later, and
        // stays (no later than the task) when an edit of the time before it made it start earlier.
        const int64_t shifted = schedule.start[*after] - (graph.tasks[*after].measuredStart - timeNs);
        return shifted >= timeNs ? shifted : std::min(timeNs, schedule.start[*after]);
    }
    const int32_t p = *(before - 1);
    const ReplayTask& previous = graph.tasks[p];
    if (timeNs < previous.measuredEnd)
        return schedule.start[p] + std::min(timeNs - previous.measuredStart, schedule.end[p] - schedule.start[p]);
    if (after == ids.end())
        return schedule.end[p] + (timeNs - previous.measuredEnd);
    const int64_t measuredGap = graph.tasks[*after].measuredStart - previous.measuredEnd;
    const int64_t replayedGap = schedule.start[*after] - schedule.end[p];
    if (measuredGap <= 0)
        return schedule.end[p];
    const double fraction = static_cast<double>(timeNs - previous.measuredEnd) / static_cast<double>(measuredGap);
    return schedule.end[p]
        + static_cast<int64_t>(fraction * static_cast<double>(replayedGap) + (replayedGap >= 0 ? 0.5 : -0.5));
}

} // namespace placescope
