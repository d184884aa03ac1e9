// SPDX-License-Identifier: MIT
#include "whatif/host_waits.h"

#include "analysis/trace/device_timeline.h"
#include "profiler/model/global_ids.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace placescope {

namespace {

bool isQueryApi(const std::string& name)
{
    const std::string base = apiBaseName(name);
    return base.find("StreamQuery") != std::string::npos || base.find("EventQuery") != std::string::npos;
}

} // namespace

bool isBatchWait(const std::string& name)
{
    return name.find("__next__") != std::string::npos || name.find("_next_data") != std::string::npos;
}

std::vector<BatchWait> batchWaitsOfLaunchingThreads(const TraceData& trace, const ReplayGraph& graph)
{
    std::map<int64_t, int32_t> laneOfThread;
    for (int32_t l = 0; l < static_cast<int32_t>(graph.lanes.size()); ++l)
        if (graph.lanes[l].kind == ReplayLane::Kind::Host)
            laneOfThread[graph.lanes[l].globalTid] = l;
    std::vector<BatchWait> waits;
    std::unordered_map<int64_t, bool> batchName;
    for (const HostRange& r : trace.hostRanges) {
        auto [it, fresh] = batchName.try_emplace(r.nameId, false);
        if (fresh)
            it->second = isDataLoadingRange(trace.name(r.nameId)) && isBatchWait(trace.name(r.nameId));
        auto lane = laneOfThread.find(r.globalTid);
        if (!it->second || lane == laneOfThread.end())
            continue;
        if (!waits.empty() && waits.back().lane == lane->second && r.startNs < waits.back().endNs)
            continue; // nested in the previous wait (_next_data inside __next__)
        waits.push_back({ lane->second, r.startNs, r.endNs, static_cast<int32_t>(r.nameId) });
    }
    return waits;
}

CallAfterWait callAfterBatchWait(const ReplayGraph& graph, const BatchWait& wait)
{
    const ReplayLane& lane = graph.lanes[wait.lane];
    auto next = std::partition_point(
        lane.tasks.begin(), lane.tasks.end(), [&](int32_t id) { return graph.tasks[id].measuredStart < wait.endNs; });
    if (next == lane.tasks.end())
        return {}; // after the thread's last call: nothing to bind
    const int64_t previousEnd = next == lane.tasks.begin() ? INT64_MIN : graph.tasks[*(next - 1)].measuredEnd;
    return { *next, std::max(wait.startNs, previousEnd) };
}

void waitForProducer(ReplayGraph& graph, const CallAfterWait& after, int32_t producer, int64_t deliveredAt)
{
    // The thread's first call has no call before it: its anchor moves back by the wait (trace_replay.cpp reads a
    // first call's laneGap as a shift of its anchor), so the first step follows the producer like the others.
    ReplayTask& t = graph.tasks[after.call];
    ReplayLinks& links = graph.linksFor(t);
    links.crossPred = producer;
    links.crossLag = t.measuredStart - deliveredAt;
    t.laneGap -= deliveredAt - after.waitFromNs;
}

std::vector<int32_t> mergePollingLoops(const TraceData& trace, ReplayGraph& graph)
{
    std::vector<int32_t> loops;
    std::unordered_map<int32_t, bool> queryName;
    auto isQuery = [&](const ReplayTask& t) {
        auto [it, fresh] = queryName.try_emplace(t.nameId, false);
        if (fresh)
            it->second = isQueryApi(trace.name(t.nameId));
        return it->second;
    };
    for (ReplayLane& lane : graph.lanes) {
        if (lane.kind != ReplayLane::Kind::Host)
            continue;
        std::vector<int32_t> kept;
        kept.reserve(lane.tasks.size());
        for (size_t i = 0; i < lane.tasks.size();) {
            size_t j = i + 1;
            if (isQuery(graph.tasks[lane.tasks[i]]))
                while (j < lane.tasks.size() && isQuery(graph.tasks[lane.tasks[j]]))
                    ++j;
            kept.push_back(lane.tasks[i]);
            if (j - i >= 2) {
                ReplayTask& first = graph.tasks[lane.tasks[i]];
                for (size_t k = i + 1; k < j; ++k) {
                    ReplayTask& poll = graph.tasks[lane.tasks[k]];
                    graph.nested.push_back({ poll.rowId, lane.tasks[i], poll.measuredStart - first.measuredStart,
                        poll.measuredEnd - poll.measuredStart });
                    poll.rowId = -1;
                    poll.dropped = true;
                }
                first.measuredEnd = graph.tasks[lane.tasks[j - 1]].measuredEnd;
                first.duration = first.measuredEnd - first.measuredStart;
                loops.push_back(lane.tasks[i]);
                ++graph.quality.pollingLoops;
            }
            i = j;
        }
        lane.tasks = std::move(kept);
    }
    std::sort(loops.begin(), loops.end());
    return loops;
}

void bindLoaderWaits(const TraceData& trace, ReplayGraph& graph)
{
    std::map<int64_t, bool> launching;
    for (const ReplayLane& lane : graph.lanes)
        if (lane.kind == ReplayLane::Kind::Host)
            launching[lane.globalTid] = true;
    struct Range
    {
        int64_t startNs, endNs;
        int32_t nameId;
    };
    std::map<int64_t, std::vector<Range>> loaderWork; // per loader thread, merged, in start order
    std::unordered_map<int64_t, bool> loadingName;
    for (const HostRange& r : trace.hostRanges) {
        auto [it, fresh] = loadingName.try_emplace(r.nameId, false);
        if (fresh)
            it->second = isDataLoadingRange(trace.name(r.nameId));
        if (!it->second || launching.count(r.globalTid))
            continue;
        auto& list = loaderWork[r.globalTid];
        if (!list.empty() && r.startNs < list.back().endNs)
            list.back().endNs = std::max(list.back().endNs, r.endNs); // nested or overlapping: one item
        else
            list.push_back({ r.startNs, r.endNs, static_cast<int32_t>(r.nameId) });
    }
    const std::vector<BatchWait> batchWaits = batchWaitsOfLaunchingThreads(trace, graph);
    // Each loader thread's work is a lane: its ranges in order, the gaps between them kept as measured.
    std::map<int64_t, std::vector<std::pair<int64_t, int32_t>>> loaderEndsOfPid; // (end, task), by end
    for (const auto& [tid, ranges] : loaderWork) {
        ReplayLane lane;
        lane.kind = ReplayLane::Kind::Host;
        lane.globalTid = tid;
        lane.globalPid = globalPidOfGlobalTid(tid);
        lane.label = "thread " + std::to_string(tidOfGlobalTid(tid)) + " (data loading)";
        const int32_t laneIndex = static_cast<int32_t>(graph.lanes.size());
        for (size_t i = 0; i < ranges.size(); ++i) {
            ReplayTask t;
            t.kind = TaskKind::HostCall;
            t.loaderWork = true;
            t.measuredStart = ranges[i].startNs;
            t.measuredEnd = ranges[i].endNs;
            t.duration = ranges[i].endNs - ranges[i].startNs;
            t.nameId = ranges[i].nameId;
            t.lane = laneIndex;
            if (i == 0)
                t.anchored = true;
            else
                t.laneGap = ranges[i].startNs - ranges[i - 1].endNs;
            const int32_t id = static_cast<int32_t>(graph.tasks.size());
            graph.tasks.push_back(t);
            lane.tasks.push_back(id);
            loaderEndsOfPid[pidOfGlobalId(lane.globalPid)].push_back({ t.measuredEnd, id });
        }
        graph.lanes.push_back(std::move(lane));
    }
    for (auto& [pid, ends] : loaderEndsOfPid)
        std::sort(ends.begin(), ends.end());
    // A batch wait ends its thread's gap with the loader work that ended in it: the next call starts after that
    // work + the measured lag, and its gap keeps only the CPU time that was not spent waiting.
    for (const BatchWait& wait : batchWaits) {
        const ReplayLane& lane = graph.lanes[wait.lane];
        const auto ends = loaderEndsOfPid.find(pidOfGlobalId(lane.globalPid));
        if (ends == loaderEndsOfPid.end()) {
            ++graph.quality.loaderWaitsAsWork;
            continue;
        }
        const CallAfterWait after = callAfterBatchWait(graph, wait);
        if (after.call < 0)
            continue;
        const ReplayTask& t = graph.tasks[after.call];
        auto delivered = std::upper_bound(
            ends->second.begin(), ends->second.end(), std::make_pair(std::min(wait.endNs, t.measuredStart), INT32_MAX));
        if (delivered == ends->second.begin() || (delivered - 1)->first <= after.waitFromNs
            || graph.linksOf(t).crossPred >= 0)
            continue; // the batch was ready: the wait was a queue get, CPU work
        waitForProducer(graph, after, (delivered - 1)->second, (delivered - 1)->first);
        ++graph.quality.loaderWaits;
    }
}

} // namespace placescope
