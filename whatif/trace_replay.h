// SPDX-License-Identifier: MIT
// TraceReplay: schedules a ReplayGraph again, event by event (Daydream's and Lumos' algorithm). Each task has a
// start event and an end event; an event happens once every event it depends on has happened, at the latest of
// their times plus the edge's lag. Lanes are walked in their order, each as far as its dependencies allow. Lanes are
// ResourceClocks, the rule the op-graph scheduler of `place` uses too. Every event remembers which dependency decided
// it, so the critical path is read back from the schedule.
#pragma once

#include "profiler/base/status.h"
#include "whatif/replay_graph.h"

#include <cstdint>
#include <vector>

namespace placescope {

// What decided an event's time.
enum class EventCause : uint8_t
{
    Anchor, // a start with nothing before it: its measured start
    LaneOrder, // start: the previous task on its lane ended (+ gap)
    Launch, // start: its launch call started (+ launch latency)
    CrossStream, // start: a producer on another stream (GPU) or the thread handing off to it (host) ended
    Duration, // end: its own start + duration
    Wait, // end: a host wait's awaited GPU work ended (+ wake-up)
    Collective, // end: the last rank reached the collective
    Dropped, // no event: the task was removed
};

struct ReplaySchedule
{
    std::vector<int64_t> start, end; // per task; dropped tasks: both -1
    std::vector<int32_t> startBlocker, endBlocker; // the task whose event decided (-1: none)
    std::vector<EventCause> startCause, endCause;
};

// Fails (one line) only when the graph has a cycle, which a graph built from a consistent trace cannot have.
Result<ReplaySchedule> replayGraph(const ReplayGraph& graph);

// Replayed time of measured instant `timeNs` on `lane`: shifted with the lane's work around it, the gap it falls
// in stretched or shrunk as the replay stretched or shrank it. lane -1: the instant as measured.
int64_t replayedInstant(const ReplayGraph& graph, const ReplaySchedule& schedule, int32_t lane, int64_t timeNs);

} // namespace placescope
