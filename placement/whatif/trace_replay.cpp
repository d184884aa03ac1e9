// SPDX-License-Identifier: MIT
#include "placement/whatif/trace_replay.h"

#include "placement/engine/resource_clock.h"

#include <algorithm>

namespace placescope {

namespace {

constexpr int64_t kNever = INT64_MIN;

int32_t startNode(int32_t task) { return task * 2; }
int32_t endNode(int32_t task) { return task * 2 + 1; }

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
    s.survivor.assign(n, -1);

    // Dropped tasks leave their lane: each task follows the closest surviving task before it, and a dependency
    // on a dropped task moves to that survivor.
    std::vector<int32_t> lanePrevious(n, -1);
    for (const ReplayLane& lane : graph.lanes) {
        int32_t previous = -1;
        for (int32_t id : lane.tasks) {
            lanePrevious[id] = previous;
            if (!graph.tasks[id].dropped)
                previous = id;
            s.survivor[id] = previous;
        }
    }
    auto resolved = [&](int32_t task) { return task < 0 ? -1 : s.survivor[task]; };

    // Successor lists (CSR) over 2n events, built from each event's dependencies.
    auto forEachDependency = [&](int32_t node, auto&& visit) {
        const int32_t id = node / 2;
        const ReplayTask& t = graph.tasks[id];
        if (node % 2 == 0) {
            if (lanePrevious[id] >= 0)
                visit(endNode(lanePrevious[id]));
            if (t.launcher >= 0 && !graph.tasks[t.launcher].dropped)
                visit(startNode(t.launcher));
            if (int32_t cross = resolved(t.crossPred); cross >= 0)
                visit(endNode(cross));
        } else {
            visit(startNode(id));
            for (uint32_t a = t.awaitBegin; a < t.awaitEnd; ++a)
                if (int32_t awaited = resolved(graph.awaited[a]); awaited >= 0)
                    visit(endNode(awaited));
            if (t.collective >= 0)
                for (int32_t peer : graph.collectives[t.collective])
                    if (peer != id && !graph.tasks[peer].dropped && graph.tasks[peer].collective == t.collective)
                        visit(startNode(peer));
        }
    };
    const int32_t nodes = 2 * n;
    std::vector<int32_t> offset(static_cast<size_t>(nodes) + 1, 0), inDegree(nodes, 0);
    for (int32_t node = 0; node < nodes; ++node) {
        if (graph.tasks[node / 2].dropped)
            continue;
        forEachDependency(node, [&](int32_t from) {
            ++offset[from + 1];
            ++inDegree[node];
        });
    }
    for (int32_t node = 0; node < nodes; ++node)
        offset[node + 1] += offset[node];
    std::vector<int32_t> successors(offset.back());
    {
        std::vector<int32_t> fill(offset.begin(), offset.end() - 1);
        for (int32_t node = 0; node < nodes; ++node)
            if (!graph.tasks[node / 2].dropped)
                forEachDependency(node, [&](int32_t from) { successors[fill[from]++] = node; });
    }

    ResourceClocks<int64_t> lanes(static_cast<int>(graph.lanes.size()));
    std::vector<int32_t> ready;
    ready.reserve(nodes);
    int32_t live = 0;
    for (int32_t node = 0; node < nodes; ++node) {
        if (graph.tasks[node / 2].dropped)
            continue;
        ++live;
        if (inDegree[node] == 0)
            ready.push_back(node);
    }
    int32_t done = 0;
    for (size_t next = 0; next < ready.size(); ++next) {
        const int32_t node = ready[next];
        const int32_t id = node / 2;
        const ReplayTask& t = graph.tasks[id];
        if (node % 2 == 0) {
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
            if (t.anchor != ReplayTask::kNoAnchor)
                consider(t.anchor, -1, EventCause::Anchor);
            if (t.launcher >= 0)
                consider(s.start[t.launcher] + t.launchLag, t.launcher, EventCause::Launch);
            if (int32_t cross = resolved(t.crossPred); cross >= 0)
                consider(s.end[cross] + t.crossLag, cross, EventCause::CrossStream);
            const int32_t previous = lanePrevious[id];
            if (inputs == kNever && previous < 0) // its anchor was dropped with everything before it
                consider(t.measuredStart, -1, EventCause::Anchor);
            const StartDecision<int64_t> decision = lanes.decide(t.lane, inputs, blocker, t.laneGap);
            s.start[id] = decision.start;
            s.startBlocker[id] = decision.blocker;
            s.startCause[id] = previous >= 0 && decision.blocker == previous && decision.start != inputs
                ? EventCause::LaneOrder
                : cause;
        } else {
            int64_t end = s.start[id] + t.duration;
            int32_t blocker = -1;
            EventCause cause = EventCause::Duration;
            for (uint32_t a = t.awaitBegin; a < t.awaitEnd; ++a) {
                const int32_t awaited = resolved(graph.awaited[a]);
                if (awaited >= 0 && s.end[awaited] + t.wake > end) {
                    end = s.end[awaited] + t.wake;
                    blocker = awaited;
                    cause = EventCause::Wait;
                }
            }
            if (t.collective >= 0)
                for (int32_t peer : graph.collectives[t.collective])
                    if (peer != id && !graph.tasks[peer].dropped && graph.tasks[peer].collective == t.collective
                        && s.start[peer] + t.collectiveLag > end) {
                        end = s.start[peer] + t.collectiveLag;
                        blocker = peer;
                        cause = EventCause::Collective;
                    }
            s.end[id] = end;
            s.endBlocker[id] = blocker;
            s.endCause[id] = cause;
            lanes.occupy(t.lane, id, end);
        }
        ++done;
        for (int32_t i = offset[node]; i < offset[node + 1]; ++i)
            if (--inDegree[successors[i]] == 0)
                ready.push_back(successors[i]);
    }
    if (done != live)
        return Status::error("the trace's dependency graph has a cycle (" + std::to_string(live - done)
                             + " events never became ready); the replay cannot order it");
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
        return schedule.start[*after] - (graph.tasks[*after].measuredStart - timeNs);
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
    return schedule.end[p] + static_cast<int64_t>(fraction * static_cast<double>(replayedGap) + (replayedGap >= 0 ? 0.5 : -0.5));
}

} // namespace placescope
