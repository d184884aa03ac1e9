// SPDX-License-Identifier: MIT
// `op:NAME=gpu` for a host op that sits in a host round trip (analysis/trace/copy_round_trips.h: a DtoH copy, the op
// on the host, an HtoD copy of the same size): the copies existed only to feed the op and return its result, so with
// the op on the GPU they go. Per occurrence:
//   - the round trip is the one whose HtoD copy the op's own thread launched first after the op ended (the copy
//     that returned its result), paired with its DtoH as the finding pairs them; each trip serves one occurrence;
//   - both copies leave the GPU, the DtoH's call leaves the host (with any wait it held);
//   - the op's host time leaves its thread (the gap before its next call loses it);
//   - the call that launched the HtoD launches the op's kernel instead (at its measured cost, a wait in it
//     removed), on the process's busiest stream, queued after the work launched there before it; consumers that
//     waited for the copy wait for the kernel;
//   - the kernel takes the op's measured host time divided by kAssumedGpuSpeedup (1: no speedup is assumed; a host
//     op between copies works on small tensors, where a GPU kernel is launch-bound), and no less than the GPU's
//     launch overhead (placement's device table).
// The kernel is a task of the prediction only (no row of the predicted trace file).
#pragma once

#include "analysis/trace/copy_round_trips.h"
#include "whatif/replay_graph.h"

#include <cstdint>
#include <map>
#include <vector>

namespace placescope {

inline constexpr double kAssumedGpuSpeedup = 1.0;

class RoundTripMover
{
public:
    // `launchOverheadNs`: the GPU's fixed cost of one kernel.
    RoundTripMover(const TraceData& trace, ReplayGraph& graph, int64_t launchOverheadNs);

    // Moves one occurrence `op` (on host lane `hostLane`) when a round trip not yet used surrounds it; false
    // (nothing changed) otherwise.
    bool move(const HostRange& op, int32_t hostLane);

    int64_t copiesDropped() const { return m_copiesDropped; }
    int64_t bytesDropped() const { return m_bytesDropped; }
    int64_t lastKernelNs() const { return m_lastKernelNs; }

private:
    int32_t busiestStream(int64_t globalPid) const;
    void insertKernel(int32_t id, int32_t laneIndex);

    ReplayGraph& m_graph;
    int64_t m_launchOverheadNs;
    std::vector<CopyRoundTrip> m_trips;
    std::vector<bool> m_used;
    std::map<int64_t, int32_t> m_copyTask; // CUPTI_ACTIVITY_KIND_MEMCPY row -> task
    int64_t m_copiesDropped = 0;
    int64_t m_bytesDropped = 0;
    int64_t m_lastKernelNs = 0;
};

} // namespace placescope
