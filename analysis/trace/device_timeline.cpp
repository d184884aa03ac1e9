// SPDX-License-Identifier: MIT
#include "analysis/trace/device_timeline.h"

#include "profiler/base/name_pattern.h"
#include "profiler/model/global_ids.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace placescope {

std::string_view idleCauseName(IdleCause cause)
{
    switch (cause) {
    case IdleCause::HostBound:
        return "host-bound";
    case IdleCause::InputBound:
        return "input-bound";
    case IdleCause::SyncWait:
        return "sync wait";
    case IdleCause::Other:
        return "launch latency / dependency";
    }
    return "?";
}

bool isDataLoadingRange(const std::string& name)
{
    // PyTorch DataLoader ranges, tf.data, DALI and common preprocessing names. "decode" alone would match LLM
    // decode phases, so only media decoding counts.
    static const NamePattern kLoad = *NamePattern::compile(
        R"((?i)dataloader|data_load|dataset|_next_data|collate|iteratorgetnext|tf\.data|input_pipeline|load_batch|get_batch|torchvision\.transforms|augment|preprocess|imread|read_image|nvjpeg|(image|jpeg|jpg|png|video|audio)_?decode|decode_?(image|jpeg|jpg|png|video|audio))");
    return kLoad.search(name);
}

bool isSyncApi(const std::string& fullName)
{
    const std::string name = apiBaseName(fullName);
    if (name.find("Synchronize") != std::string::npos)
        return true;
    // Synchronous copies and frees block the host until the device is done.
    static const char* kBlocking[]
        = { "cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cuMemcpyDtoH",
              "cuMemcpyDtoH_v2", "cuMemcpyHtoD", "cuMemcpyHtoD_v2", "cudaFree", "cuMemFree", "cuMemFree_v2" };
    for (const char* b : kBlocking)
        if (name == b)
            return true;
    return false;
}

namespace {

IntervalList stepsOfPid(const StepSet& steps, int64_t globalPid)
{
    std::vector<Interval> own;
    for (const auto& s : steps.steps)
        if (s.globalPid == globalPid)
            own.push_back({ s.startNs, s.endNs });
    return own.empty() ? steps.window : mergeIntervals(std::move(own));
}

} // namespace

DeviceTimeline DeviceTimeline::build(const TraceData& trace, const StepSet& steps, const TimelineOptions& options)
{
    DeviceTimeline tl;
    std::map<std::pair<int64_t, int64_t>, std::vector<const GpuOp*>> opsByLane;
    for (const auto& op : trace.gpuOps)
        opsByLane[{ op.globalPid, op.deviceId }].push_back(&op);

    // (pid, correlation) -> end of the API call that submitted the op: from then on the GPU could run it.
    std::unordered_map<uint64_t, int64_t> launchStart;
    launchStart.reserve(trace.apiCalls.size());
    std::unordered_map<int64_t, bool> syncName;
    std::map<int64_t, std::vector<Interval>> syncsByPid;
    for (const auto& call : trace.apiCalls) {
        int64_t globalPid = globalPidOfGlobalTid(call.globalTid);
        if (call.correlationId >= 0)
            launchStart.emplace(TraceData::correlationKey(globalPid, call.correlationId), call.endNs);
        auto [it, inserted] = syncName.emplace(call.nameId, false);
        if (inserted)
            it->second = isSyncApi(trace.name(call.nameId));
        if (it->second)
            syncsByPid[globalPid].push_back({ call.startNs, call.endNs });
    }
    for (const auto& w : trace.syncWaits)
        syncsByPid[w.globalPid].push_back({ w.startNs, w.endNs });
    std::vector<Interval> allSyncs;
    std::map<int64_t, IntervalList> mergedSyncs;
    for (auto& [pid, list] : syncsByPid) {
        allSyncs.insert(allSyncs.end(), list.begin(), list.end());
        mergedSyncs[pid] = mergeIntervals(std::move(list));
    }
    tl.hostSyncs = mergeIntervals(std::move(allSyncs));

    std::unordered_map<int64_t, bool> loadName;
    std::vector<Interval> loading;
    for (const auto& r : trace.hostRanges) {
        auto [it, inserted] = loadName.emplace(r.nameId, false);
        if (inserted)
            it->second = isDataLoadingRange(trace.name(r.nameId));
        if (it->second)
            loading.push_back({ r.startNs, r.endNs });
    }
    tl.dataLoading = mergeIntervals(std::move(loading));

    std::unordered_map<int64_t, bool> commName;
    for (auto& [key, ops] : opsByLane) {
        DeviceLane lane;
        lane.globalPid = key.first;
        lane.deviceId = key.second;
        for (const auto& r : trace.ranks)
            if (r.globalPid == lane.globalPid)
                lane.rank = r.rank;
        lane.label = (lane.rank >= 0 ? "rank " + std::to_string(lane.rank) + " " : std::string()) + "GPU "
            + std::to_string(lane.deviceId);
        std::vector<Interval> all, compute, comm, copies;
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (const GpuOp* op : ops) {
            all.push_back({ op->startNs, op->endNs });
            first = std::min(first, op->startNs);
            last = std::max(last, op->endNs);
            if (op->kind != GpuOp::Kind::Kernel) {
                copies.push_back({ op->startNs, op->endNs });
                continue;
            }
            auto [it, inserted] = commName.emplace(op->nameId, false);
            if (inserted)
                it->second = isCommunicationKernel(trace.name(op->nameId));
            (it->second ? comm : compute).push_back({ op->startNs, op->endNs });
        }
        // GPU work runs behind the host: a step's window on the GPU lasts until the work launched during the
        // step has finished, even when the host's step range ended earlier.
        IntervalList stepWindows = stepsOfPid(steps, lane.globalPid);
        std::vector<Interval> extended(stepWindows.begin(), stepWindows.end());
        for (const GpuOp* op : ops) {
            if (op->correlationId < 0)
                continue;
            auto it = launchStart.find(TraceData::correlationKey(lane.globalPid, op->correlationId));
            if (it == launchStart.end())
                continue;
            auto w = std::upper_bound(stepWindows.begin(), stepWindows.end(), it->second,
                [](int64_t t, const Interval& iv) { return t < iv.endNs; });
            if (w != stepWindows.end() && w->startNs <= it->second) {
                Interval& e = extended[static_cast<size_t>(w - stepWindows.begin())];
                e.endNs = std::max(e.endNs, op->endNs);
            }
        }
        lane.window = intersectIntervals(mergeIntervals(std::move(extended)), IntervalList { { first, last } });
        lane.busy = intersectIntervals(mergeIntervals(std::move(all)), lane.window);
        lane.computeBusy = intersectIntervals(mergeIntervals(std::move(compute)), lane.window);
        lane.commBusy = intersectIntervals(mergeIntervals(std::move(comm)), lane.window);
        lane.copyBusy = intersectIntervals(mergeIntervals(std::move(copies)), lane.window);

        const IntervalList& syncs = mergedSyncs[lane.globalPid];
        for (const auto& gap : subtractIntervals(lane.window, lane.busy)) {
            if (gap.length() <= options.kernelWaitNs)
                continue;
            IdleGap g { gap.startNs, gap.endNs };
            // The op that ended the gap and when the host asked for it.
            auto next = std::lower_bound(
                ops.begin(), ops.end(), gap.endNs, [](const GpuOp* op, int64_t t) { return op->startNs < t; });
            int64_t launch = INT64_MIN;
            if (next != ops.end() && (*next)->correlationId >= 0) {
                auto it = launchStart.find(TraceData::correlationKey(lane.globalPid, (*next)->correlationId));
                if (it != launchStart.end())
                    launch = it->second;
            }
            int64_t hostLateEnd = launch == INT64_MIN ? gap.endNs : std::clamp(launch, gap.startNs, gap.endNs);
            int64_t late = hostLateEnd - gap.startNs;
            int64_t input = std::min(late, overlapLength(tl.dataLoading, gap.startNs, hostLateEnd));
            // A sync running when the GPU went idle drained the queue: the host only then went on to launch.
            bool drained = false;
            auto s = std::upper_bound(syncs.begin(), syncs.end(), gap.startNs - 2000,
                [](int64_t t, const Interval& iv) { return t < iv.endNs; });
            if (s != syncs.end() && s->startNs <= gap.startNs)
                drained = true;
            int64_t sync
                = drained ? late - input : std::min(late - input, overlapLength(syncs, gap.startNs, hostLateEnd));
            g.causeNs[static_cast<int>(IdleCause::InputBound)] = input;
            g.causeNs[static_cast<int>(IdleCause::SyncWait)] = sync;
            g.causeNs[static_cast<int>(IdleCause::HostBound)] = late - input - sync;
            g.causeNs[static_cast<int>(IdleCause::Other)] = gap.endNs - hostLateEnd;
            for (int c = 0; c < kIdleCauseCount; ++c)
                lane.causeNs[c] += g.causeNs[c];
            lane.idleNs += gap.length();
            lane.gaps.push_back(g);
        }

        if (!lane.window.empty() && options.utilizationBuckets > 0) {
            lane.bucketStartNs = lane.window.front().startNs;
            int64_t span = lane.window.back().endNs - lane.bucketStartNs;
            lane.bucketNs = std::max<int64_t>(1, (span + options.utilizationBuckets - 1) / options.utilizationBuckets);
            for (int b = 0; b < options.utilizationBuckets; ++b) {
                int64_t s0 = lane.bucketStartNs + b * lane.bucketNs;
                int64_t inWindow = overlapLength(lane.window, s0, s0 + lane.bucketNs);
                double busy = static_cast<double>(overlapLength(lane.busy, s0, s0 + lane.bucketNs));
                lane.utilization.push_back(inWindow > 0 ? busy / static_cast<double>(inWindow) : -1.0);
            }
        }
        tl.lanes.push_back(std::move(lane));
    }
    return tl;
}

} // namespace placescope
