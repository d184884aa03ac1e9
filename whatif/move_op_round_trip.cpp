// SPDX-License-Identifier: MIT
#include "whatif/move_op_round_trip.h"

#include "profiler/model/global_ids.h"

#include <algorithm>

namespace placescope {

RoundTripMover::RoundTripMover(const TraceData& trace, ReplayGraph& graph, int64_t launchOverheadNs)
    : m_graph(graph)
    , m_launchOverheadNs(launchOverheadNs)
    , m_trips(pairCopyRoundTrips(trace))
    , m_used(m_trips.size(), false)
{
    if (m_trips.empty())
        return;
    for (size_t id = 0; id < graph.tasks.size(); ++id)
        if (graph.tasks[id].kind == TaskKind::Memcpy && graph.tasks[id].rowId >= 0)
            m_copyTask[graph.tasks[id].rowId] = static_cast<int32_t>(id);
}

int32_t RoundTripMover::busiestStream(int64_t globalPid) const
{
    int32_t busiest = -1;
    for (int32_t l = 0; l < static_cast<int32_t>(m_graph.lanes.size()); ++l)
        if (m_graph.lanes[l].kind == ReplayLane::Kind::Gpu
            && globalPidOfGlobalTid(m_graph.lanes[l].globalPid) == globalPidOfGlobalTid(globalPid)
            && (busiest < 0 || m_graph.lanes[l].tasks.size() > m_graph.lanes[busiest].tasks.size()))
            busiest = l;
    return busiest;
}

// Queues task `id` on GPU lane `laneIndex` after the tasks launched there before its launch call; its measured
// times sit between its neighbours' so the lane stays in measured order (what replayedInstant searches).
void RoundTripMover::insertKernel(int32_t id, int32_t laneIndex)
{
    std::vector<int32_t>& lane = m_graph.lanes[laneIndex].tasks;
    auto launchedAt = [&](int32_t t) {
        const ReplayTask& task = m_graph.tasks[t];
        return task.launcher >= 0 ? m_graph.tasks[task.launcher].measuredStart : task.measuredStart;
    };
    const int64_t launch = launchedAt(id);
    size_t pos = lane.size();
    while (pos > 0 && launchedAt(lane[pos - 1]) > launch)
        --pos;
    int64_t at = pos > 0 ? m_graph.tasks[lane[pos - 1]].measuredEnd : launch;
    if (pos < lane.size())
        at = std::min(at, m_graph.tasks[lane[pos]].measuredStart);
    if (pos > 0)
        at = std::max(at, m_graph.tasks[lane[pos - 1]].measuredStart);
    m_graph.tasks[id].measuredStart = m_graph.tasks[id].measuredEnd = at;
    m_graph.tasks[id].lane = laneIndex;
    lane.insert(lane.begin() + static_cast<std::ptrdiff_t>(pos), id);
}

bool RoundTripMover::move(const HostRange& op, int32_t hostLane)
{
    // The trip around the op whose HtoD copy the op's thread launched first after the op.
    int64_t bestLaunch = INT64_MAX;
    size_t best = m_trips.size();
    for (size_t i = 0; i < m_trips.size(); ++i) {
        const CopyRoundTrip& trip = m_trips[i];
        if (m_used[i] || trip.toHost->endNs > op.startNs || trip.toDevice->startNs < op.endNs
            || globalPidOfGlobalTid(trip.toDevice->globalPid) != globalPidOfGlobalTid(op.globalTid))
            continue;
        auto back = m_copyTask.find(trip.toDevice->rowId);
        if (back == m_copyTask.end() || !m_copyTask.count(trip.toHost->rowId))
            continue;
        const int32_t launcher = m_graph.tasks[back->second].launcher;
        if (launcher < 0 || m_graph.tasks[launcher].lane != hostLane || m_graph.tasks[launcher].dropped)
            continue;
        const int64_t launch = m_graph.tasks[launcher].measuredStart;
        if (launch >= op.endNs && launch < bestLaunch) {
            bestLaunch = launch;
            best = i;
        }
    }
    if (best == m_trips.size())
        return false;
    m_used[best] = true;
    const CopyRoundTrip& trip = m_trips[best];
    const int32_t downId = m_copyTask.at(trip.toHost->rowId);
    const int32_t backId = m_copyTask.at(trip.toDevice->rowId);
    const int32_t launcher = m_graph.tasks[backId].launcher;

    // The copies go, with the DtoH's call (a copy call launches nothing else).
    m_graph.tasks[downId].dropped = true;
    if (const int32_t downCall = m_graph.tasks[downId].launcher; downCall >= 0)
        m_graph.tasks[downCall].dropped = true;
    m_graph.tasks[backId].dropped = true;
    m_copiesDropped += 2;
    m_bytesDropped += trip.toHost->bytes + trip.toDevice->bytes;

    // The op's host time leaves the gap before the first call after it on its thread.
    for (int32_t id : m_graph.lanes[hostLane].tasks) {
        ReplayTask& t = m_graph.tasks[id];
        if (t.measuredStart >= op.endNs && !t.dropped) {
            t.laneGap = std::max<int64_t>(0, t.laneGap - (op.endNs - op.startNs));
            break;
        }
    }

    // The HtoD's call launches the op's kernel instead, without waiting for it.
    ReplayTask& call = m_graph.tasks[launcher];
    m_graph.clearWaits(call);
    call.role = HostRole::Launch;
    const int32_t busiest = busiestStream(op.globalTid);
    if (busiest < 0)
        return true;
    ReplayTask kernel;
    kernel.kind = TaskKind::Kernel;
    kernel.nameId = static_cast<int32_t>(op.nameId);
    kernel.launcher = launcher;
    kernel.launchLag = m_graph.quality.launchFloorNs;
    kernel.duration = std::max(
        m_launchOverheadNs, static_cast<int64_t>(static_cast<double>(op.endNs - op.startNs) / kAssumedGpuSpeedup));
    m_lastKernelNs = kernel.duration;
    const int32_t kernelId = static_cast<int32_t>(m_graph.tasks.size());
    m_graph.tasks.push_back(kernel);
    m_graph.inSpan.push_back(m_graph.inSpan[static_cast<size_t>(backId)]);
    insertKernel(kernelId, busiest);
    // Work that waited for the copy back (a stream waiting on it, a host wait) waits for the kernel.
    for (ReplayLinks& links : m_graph.links)
        if (links.crossPred == backId)
            links.crossPred = kernelId;
    for (int32_t& awaited : m_graph.awaited)
        if (awaited == backId)
            awaited = kernelId;
    return true;
}

} // namespace placescope
