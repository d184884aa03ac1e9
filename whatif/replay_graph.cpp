// SPDX-License-Identifier: MIT
#include "whatif/replay_graph.h"

#include "whatif/host_waits.h"

#include "analysis/trace/device_timeline.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/model/global_ids.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace placescope {

namespace {

constexpr int64_t kWaitToleranceNs = 2000; // a sync ends this close after the work it waited for, or later
constexpr int64_t kCrossStreamWindowNs = 5000; // a stream-wait dependent starts this soon after its producer
constexpr int64_t kCrossStreamMinDelayNs = 2000; // ... and only when its own constraints leave this much unexplained
constexpr int kCrossStreamScan = 64; // how many earlier-ending ops on other streams are looked at
constexpr int64_t kDefaultWaitCostNs = 2000; // own cost of a sync call when no call of its name returned at once
constexpr int64_t kHandoffGapNs = 1000000; // a host gap this long may be a wait for another thread (Chakra: 1 ms)

int64_t median(std::vector<int64_t> values, int64_t fallback)
{
    if (values.empty())
        return fallback;
    auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

bool isLaunchApi(const std::string& name)
{
    return name.find("Launch") != std::string::npos || name.find("MemcpyAsync") != std::string::npos
        || name.find("MemsetAsync") != std::string::npos || name.find("Memcpy2DAsync") != std::string::npos
        || name.find("Memcpy3DAsync") != std::string::npos || name.find("Async_v2") != std::string::npos;
}

bool isDeviceWideSync(const std::string& name)
{
    return name.find("DeviceSynchronize") != std::string::npos || name.find("CtxSynchronize") != std::string::npos;
}

bool isPageable(int64_t kind) { return kind == static_cast<int64_t>(MemKind::Pageable); }

// Lanes are keyed by thread or by (process, device, stream); labels carry the rank when there are several.
struct LaneIndex
{
    std::map<int64_t, int32_t> host;
    std::map<std::tuple<int64_t, int64_t, int64_t>, int32_t> gpu;
};

// Ties each step to the lane its boundaries are read on, and marks the work of the span.
void assignSteps(
    const TraceData& trace, const StepSet& stepSet, const std::map<int64_t, int32_t>& hostLanes, ReplayGraph& graph)
{
    graph.stepSource = stepSet.description;
    graph.stepsAreHostRanges = stepsAreHostRanges(stepSet.source);
    auto busiestLane = [&](int64_t globalPid, ReplayLane::Kind kind) {
        int32_t best = -1;
        for (int32_t l = 0; l < static_cast<int32_t>(graph.lanes.size()); ++l) {
            const ReplayLane& lane = graph.lanes[l];
            if (lane.kind != kind || (globalPid >= 0 && pidOfGlobalId(lane.globalPid) != pidOfGlobalId(globalPid)))
                continue;
            if (best < 0 || lane.tasks.size() > graph.lanes[best].tasks.size())
                best = l;
        }
        return best;
    };
    for (const StepWindow& w : stepSet.steps) {
        ReplayStep step { w.stepNumber, w.startNs, w.endNs, -1, w.globalPid };
        if (stepSet.source == StepSet::Source::Recorded || stepSet.source == StepSet::Source::Annotation) {
            // The thread that holds the step's range (PyTorch's ProfilerStep#N, an NVTX step range).
            auto pos = std::lower_bound(trace.hostRanges.begin(), trace.hostRanges.end(), w.startNs - 1000,
                [](const HostRange& r, int64_t t) { return r.startNs < t; });
            for (; pos != trace.hostRanges.end() && pos->startNs <= w.startNs + 1000; ++pos) {
                auto lane = hostLanes.find(pos->globalTid);
                if (lane != hostLanes.end() && std::llabs(pos->endNs - w.endNs) <= 1000) {
                    step.lane = lane->second;
                    break;
                }
            }
            if (step.lane < 0)
                step.lane = busiestLane(w.globalPid, ReplayLane::Kind::Host);
        } else if (stepSet.source == StepSet::Source::KernelPattern) {
            step.lane = busiestLane(w.globalPid, ReplayLane::Kind::Gpu);
        }
        graph.steps.push_back(step);
    }
    graph.inSpan.assign(graph.tasks.size(), 0);
    for (size_t id = 0; id < graph.tasks.size(); ++id) {
        const ReplayTask& t = graph.tasks[id];
        const int64_t launched = t.launcher >= 0 ? graph.tasks[t.launcher].measuredStart : t.measuredStart;
        // Launched inside a step, or running inside one (steps found from a kernel pattern are GPU time).
        // Polls absorbed into their loop and a loader thread's work (it prepares the next batches) are not.
        graph.inSpan[id]
            = !t.dropped && !t.loaderWork && (stepSet.contains(launched) || stepSet.contains(t.measuredStart)) ? 1 : 0;
    }
}

// A host thread that sat idle for a long gap and resumed right after another thread of its process went quiet was
// waiting for it (PyTorch's autograd thread starts when the main thread enters backward(), the main thread
// resumes when backward is done; Lumos and Chakra find these edges from gaps too). The resumed call then starts
// after the other thread's last call + the measured lag, and no longer after a fixed gap on its own thread. The
// other thread must have been at work through at least half of the gap (its calls in the gap span that much): a
// side thread that happened to call CUDA once in a CPU gap is no hand-off, and the gap stays CPU work.
void inferHandoffs(ReplayGraph& graph)
{
    std::map<int64_t, std::vector<std::pair<int64_t, int32_t>>> endsOfPid; // host calls by end, per process
    std::vector<int64_t> nextStartOnLane(graph.tasks.size(), INT64_MAX);
    for (const ReplayLane& lane : graph.lanes) {
        for (size_t i = 0; i < lane.tasks.size(); ++i) {
            endsOfPid[pidOfGlobalId(lane.globalPid)].push_back(
                { graph.tasks[lane.tasks[i]].measuredEnd, lane.tasks[i] });
            if (i + 1 < lane.tasks.size())
                nextStartOnLane[lane.tasks[i]] = graph.tasks[lane.tasks[i + 1]].measuredStart;
        }
    }
    for (auto& [pid, ends] : endsOfPid)
        std::sort(ends.begin(), ends.end());
    for (const ReplayLane& lane : graph.lanes) {
        const auto& ends = endsOfPid[pidOfGlobalId(lane.globalPid)];
        for (size_t i = 1; i < lane.tasks.size(); ++i) {
            ReplayTask& t = graph.tasks[lane.tasks[i]];
            const int64_t previousEnd = graph.tasks[lane.tasks[i - 1]].measuredEnd;
            if (t.laneGap < kHandoffGapNs)
                continue;
            auto pos = std::upper_bound(ends.begin(), ends.end(), std::make_pair(t.measuredStart, INT32_MAX));
            for (int scanned = 0; pos != ends.begin() && scanned < kCrossStreamScan; ++scanned) {
                --pos;
                if (pos->first <= previousEnd)
                    break;
                const ReplayTask& other = graph.tasks[pos->second];
                if (other.lane == t.lane || nextStartOnLane[pos->second] < t.measuredStart)
                    continue;
                const auto& otherCalls = graph.lanes[other.lane].tasks;
                const auto firstInGap = std::partition_point(otherCalls.begin(), otherCalls.end(),
                    [&](int32_t id) { return graph.tasks[id].measuredStart < previousEnd; });
                if (firstInGap == otherCalls.end()
                    || 2 * (other.measuredEnd - graph.tasks[*firstInGap].measuredStart) < t.laneGap) {
                    ++graph.quality.handoffsRejected;
                    break;
                }
                ReplayLinks& links = graph.linksFor(t);
                links.crossPred = pos->second;
                links.crossLag = t.measuredStart - pos->first;
                t.laneGap = 0;
                ++graph.quality.inferredHandoffs;
                break;
            }
        }
    }
}

} // namespace

std::string taskName(const TraceData& trace, const ReplayTask& task)
{
    switch (task.kind) {
    case TaskKind::Memcpy: {
        std::string name = task.hostToDevice ? "Memcpy HtoD" : "Memcpy DtoH";
        if (task.nameId == -2)
            name = "Memcpy DtoD";
        return name + (task.pageable ? " (pageable)" : "");
    }
    case TaskKind::Memset:
        return "Memset";
    default:
        return trace.name(task.nameId);
    }
}

// The builder's state between events; the GPU ops need every host task in place (their launch calls).
struct ReplayGraphBuilder::State
{
    explicit State(const TraceData& t)
        : trace(t)
    {
        for (const auto& r : trace.ranks)
            rankOf[r.globalPid] = r.rank;
        severalRanks = rankOf.size() > 1;
    }

    std::string prefix(int64_t globalPid) const
    {
        auto it = rankOf.find(globalPid);
        return severalRanks && it != rankOf.end() && it->second >= 0 ? "rank " + std::to_string(it->second) + " " : "";
    }

    // (pid, correlation id) -> the host task that launched it: a top-level call, or the call a nested one rides on.
    struct Correlation
    {
        uint64_t key = 0;
        int32_t task = -1;
        bool nested = false;
    };
    // Sorts the calls' correlation ids once the calls are in (a sorted vector: a hash map of millions of ids costs
    // several times the memory). Where ids repeat, the last top-level call wins, else the first nested one.
    void closeHostSide()
    {
        if (hostClosed)
            return;
        hostClosed = true;
        std::stable_sort(correlations.begin(), correlations.end(),
            [](const Correlation& a, const Correlation& b) { return a.key < b.key; });
        size_t out = 0;
        for (size_t i = 0; i < correlations.size();) {
            size_t j = i;
            Correlation chosen = correlations[i];
            for (; j < correlations.size() && correlations[j].key == correlations[i].key; ++j)
                if (!correlations[j].nested)
                    chosen = correlations[j];
            correlations[out++] = chosen;
            i = j;
        }
        correlations.resize(out);
        correlations.shrink_to_fit();
        pollingLoops = mergePollingLoops(trace, graph);
        inferHandoffs(graph);
    }
    int32_t launcherOf(uint64_t key) const
    {
        auto it = std::lower_bound(
            correlations.begin(), correlations.end(), key, [](const Correlation& c, uint64_t k) { return c.key < k; });
        return it != correlations.end() && it->key == key ? it->task : -1;
    }

    void addApiCall(const ApiCall& call);
    void addGpuOp(const GpuOp& op);
    ReplayGraph finish(const StepSet& stepSet);
    int64_t launchedAt(int32_t id) const;
    int32_t lastLaunchedBefore(int32_t laneIndex, int64_t time) const;
    std::unordered_map<int32_t, int32_t> recordedEventEdges();

    const TraceData& trace;
    ReplayGraph graph;
    LaneIndex index;
    std::map<int64_t, int64_t> rankOf;
    bool severalRanks = false;
    bool hostClosed = false;
    std::unordered_map<int64_t, bool> launchName, commName; // per name id: a launch API, a communication kernel
    std::vector<Correlation> correlations;
    std::vector<int32_t> openTopOfLane; // per lane: the top-level call that may still have calls nested in it
    std::vector<int64_t> correlationOfTask; // host tasks' correlation ids (host tasks come first: ids match)
    std::vector<std::pair<int32_t, int32_t>> launches; // (launcher, GPU task), sorted; made by finish
    std::unordered_map<uint64_t, int32_t> recordCalls; // cudaEventRecord rows' correlation key -> their call
    std::vector<int32_t> pollingLoops; // host tasks that stand for a polling loop (mergePollingLoops), sorted
    const EventRecord* recordBefore(int64_t globalPid, int64_t eventId, int64_t correlationId) const;
};

// The latest record of the event before the call with `correlationId` (by correlation id, as Kineto pairs them).
const EventRecord* ReplayGraphBuilder::State::recordBefore(
    int64_t globalPid, int64_t eventId, int64_t correlationId) const
{
    if (eventId < 0)
        return nullptr;
    auto pos = std::lower_bound(trace.eventRecords.begin(), trace.eventRecords.end(),
        std::make_tuple(globalPid, eventId, correlationId), [](const EventRecord& r, const auto& key) {
            return std::make_tuple(r.globalPid, r.eventId, r.correlationId) < key;
        });
    if (pos != trace.eventRecords.begin() && (pos - 1)->globalPid == globalPid && (pos - 1)->eventId == eventId)
        return &*(pos - 1);
    return nullptr;
}

// Host tasks: top-level calls per thread. A call starting before the previous top-level call ends is nested.
void ReplayGraphBuilder::State::addApiCall(const ApiCall& call)
{
    auto [it, fresh] = index.host.emplace(call.globalTid, static_cast<int32_t>(graph.lanes.size()));
    if (fresh) {
        ReplayLane lane;
        lane.kind = ReplayLane::Kind::Host;
        lane.globalTid = call.globalTid;
        lane.globalPid = globalPidOfGlobalTid(call.globalTid);
        lane.label = prefix(lane.globalPid) + "thread " + std::to_string(tidOfGlobalTid(call.globalTid));
        graph.lanes.push_back(std::move(lane));
        openTopOfLane.push_back(-1);
    }
    const int32_t laneIndex = it->second;
    ReplayLane& lane = graph.lanes[laneIndex];
    const int32_t top = openTopOfLane[laneIndex];
    if (top >= 0 && call.startNs < graph.tasks[top].measuredEnd) {
        graph.nested.push_back(
            { call.rowId, top, call.startNs - graph.tasks[top].measuredStart, call.endNs - call.startNs });
        if (call.correlationId >= 0)
            correlations.push_back({ TraceData::correlationKey(call.globalTid, call.correlationId), top, true });
        ++graph.quality.nestedCalls;
        return;
    }
    ReplayTask task;
    task.kind = TaskKind::HostCall;
    task.measuredStart = call.startNs;
    task.measuredEnd = call.endNs;
    task.duration = call.endNs - call.startNs;
    task.nameId = static_cast<int32_t>(call.nameId);
    task.rowId = static_cast<int32_t>(call.rowId);
    task.lane = laneIndex;
    if (top < 0)
        task.anchored = true;
    else
        task.laneGap = call.startNs - graph.tasks[top].measuredEnd;
    auto launch = launchName.try_emplace(call.nameId, false);
    if (launch.second)
        launch.first->second = isLaunchApi(apiBaseName(trace.name(call.nameId)));
    task.role = launch.first->second ? HostRole::Launch : HostRole::Other;
    const int32_t id = static_cast<int32_t>(graph.tasks.size());
    if (call.correlationId >= 0)
        correlations.push_back({ TraceData::correlationKey(call.globalTid, call.correlationId), id, false });
    graph.tasks.push_back(task);
    correlationOfTask.push_back(call.correlationId);
    lane.tasks.push_back(id);
    openTopOfLane[laneIndex] = id;
}

// GPU tasks, lane by lane in start order, each tied to its launch call.
void ReplayGraphBuilder::State::addGpuOp(const GpuOp& op)
{
    closeHostSide();
    const auto key = std::make_tuple(op.globalPid, op.deviceId, op.streamId);
    auto [it, fresh] = index.gpu.emplace(key, static_cast<int32_t>(graph.lanes.size()));
    if (fresh) {
        ReplayLane lane;
        lane.kind = ReplayLane::Kind::Gpu;
        lane.globalPid = op.globalPid;
        lane.deviceId = op.deviceId;
        lane.streamId = op.streamId;
        lane.label
            = prefix(op.globalPid) + "GPU " + std::to_string(op.deviceId) + " stream " + std::to_string(op.streamId);
        graph.lanes.push_back(std::move(lane));
    }
    ReplayTask task;
    task.kind = op.kind == GpuOp::Kind::Kernel ? TaskKind::Kernel
        : op.kind == GpuOp::Kind::Memcpy       ? TaskKind::Memcpy
                                               : TaskKind::Memset;
    task.measuredStart = op.startNs;
    task.measuredEnd = op.endNs;
    task.duration = op.endNs - op.startNs;
    task.nameId = op.kind == GpuOp::Kind::Kernel ? static_cast<int32_t>(op.nameId) : -1;
    task.rowId = static_cast<int32_t>(op.rowId);
    task.lane = it->second;
    if (op.kind != GpuOp::Kind::Kernel)
        graph.linksFor(task).bytes = op.bytes;
    if (op.kind == GpuOp::Kind::Memcpy) {
        task.hostToDevice = op.copyKind == static_cast<int64_t>(CopyKind::HtoD);
        if (op.copyKind == static_cast<int64_t>(CopyKind::DtoD))
            task.nameId = -2;
        task.pageable = isPageable(op.srcKind) || isPageable(op.dstKind);
    }
    if (op.kind == GpuOp::Kind::Kernel) {
        auto [comm, firstOfName] = commName.try_emplace(op.nameId, false); // a regex: once per name
        if (firstOfName)
            comm->second = isCommunicationKernel(trace.name(op.nameId));
        task.communication = comm->second;
    }
    if (op.correlationId >= 0)
        task.launcher = launcherOf(TraceData::correlationKey(op.globalPid, op.correlationId));
    if (task.launcher < 0)
        ++graph.quality.gpuOpsWithoutLaunch;
    const int32_t id = static_cast<int32_t>(graph.tasks.size());
    graph.tasks.push_back(task);
    graph.lanes[task.lane].tasks.push_back(id);
}

// The launch order of a lane's ops, for "the last op launched to this stream before the call".
int64_t ReplayGraphBuilder::State::launchedAt(int32_t id) const
{
    const ReplayTask& t = graph.tasks[id];
    return t.launcher >= 0 ? graph.tasks[t.launcher].measuredStart : t.measuredStart;
}

int32_t ReplayGraphBuilder::State::lastLaunchedBefore(int32_t laneIndex, int64_t time) const
{
    const auto& ids = graph.lanes[laneIndex].tasks;
    auto pos = std::partition_point(ids.begin(), ids.end(), [&](int32_t id) { return launchedAt(id) < time; });
    return pos == ids.begin() ? -1 : *(pos - 1);
}

// The edges the trace records between streams: a stream that waits on an event (cudaStreamWaitEvent; a CUPTI or
// Kineto "Stream Wait Event" sync row) waits for the last op launched to the stream the event was recorded on
// before the record call, and its first op launched after the wait call starts after that op ends (HTA's rule).
// The record is the latest of the event's records before the wait (by correlation id, as Kineto pairs them), and
// names its stream (CUPTI_ACTIVITY_KIND_CUDA_EVENT, Kineto's wait_on_stream). Where the trace has no record row,
// the record call is the last cudaEventRecord on the waiting thread before the wait, and the producer the last op
// that thread launched before it to another stream. Returns consumer -> producer.
std::unordered_map<int32_t, int32_t> ReplayGraphBuilder::State::recordedEventEdges()
{
    std::unordered_map<int32_t, int32_t> producerOf;
    for (const SyncWait& w : trace.syncWaits) {
        if (w.syncType != 2 || w.streamId < 0 || w.correlationId < 0)
            continue;
        const int32_t waitCall = launcherOf(TraceData::correlationKey(w.globalPid, w.correlationId));
        auto waitingLane = index.gpu.find({ w.globalPid, w.deviceId, w.streamId });
        if (waitCall < 0 || waitingLane == index.gpu.end()) {
            ++graph.quality.eventWaitsUnresolved;
            continue;
        }
        int32_t producer = -1;
        const EventRecord* record = recordBefore(w.globalPid, w.eventId, w.correlationId);
        const int32_t waitThread = graph.tasks[waitCall].lane;
        if (record) {
            const int64_t device = record->deviceId >= 0 ? record->deviceId : w.deviceId;
            auto lane = index.gpu.find({ record->globalPid, device, record->streamId });
            const int32_t recordCall = launcherOf(TraceData::correlationKey(record->globalPid, record->correlationId));
            const int64_t recordedAt
                = recordCall >= 0 ? graph.tasks[recordCall].measuredStart : graph.tasks[waitCall].measuredStart;
            if (lane != index.gpu.end())
                producer = lastLaunchedBefore(lane->second, recordedAt);
        } else {
            const auto& calls = graph.lanes[waitThread].tasks;
            auto at = std::lower_bound(calls.begin(), calls.end(), waitCall);
            bool recordSeen = false;
            for (int scanned = 0; at != calls.begin() && scanned < kCrossStreamScan && producer < 0; ++scanned) {
                --at;
                const ReplayTask& call = graph.tasks[*at];
                if (!recordSeen) {
                    recordSeen = trace.name(call.nameId).find("EventRecord") != std::string::npos;
                    continue;
                }
                if (call.role != HostRole::Launch)
                    continue;
                auto op = std::lower_bound(launches.begin(), launches.end(), std::make_pair(*at, INT32_MIN));
                for (; op != launches.end() && op->first == *at; ++op)
                    if (graph.tasks[op->second].lane != waitingLane->second)
                        producer = op->second;
            }
        }
        const auto& waiting = graph.lanes[waitingLane->second].tasks;
        const int64_t waitedAt = graph.tasks[waitCall].measuredStart;
        auto next = std::partition_point(
            waiting.begin(), waiting.end(), [&](int32_t id) { return launchedAt(id) < waitedAt; });
        const int32_t consumer = next == waiting.end() ? -1 : *next;
        if (producer < 0 || consumer < 0 || graph.tasks[producer].lane == graph.tasks[consumer].lane
            || graph.tasks[consumer].measuredStart < graph.tasks[producer].measuredEnd) {
            ++graph.quality.eventWaitsUnresolved;
            continue;
        }
        auto [it, fresh] = producerOf.emplace(consumer, producer);
        if (!fresh && graph.tasks[producer].measuredEnd > graph.tasks[it->second].measuredEnd)
            it->second = producer; // waits on two events: the later producer decides
    }
    return producerOf;
}

ReplayGraph ReplayGraphBuilder::State::finish(const StepSet& stepSet)
{
    closeHostSide();
    for (ReplayLane& lane : graph.lanes)
        lane.tasks.shrink_to_fit(); // grown one task at a time: up to twice their size
    // GPU ops each host task launched, for copies that waited for their own op and for event records.
    for (int32_t id = 0; id < static_cast<int32_t>(graph.tasks.size()); ++id)
        if (graph.tasks[id].launcher >= 0)
            launches.push_back({ graph.tasks[id].launcher, id });
    std::sort(launches.begin(), launches.end());
    const std::unordered_map<int32_t, int32_t> recordedProducer = recordedEventEdges();
    for (const EventRecord& r : trace.eventRecords) // for event synchronizes, once the ids below are gone
        recordCalls[TraceData::correlationKey(r.globalPid, r.correlationId)]
            = launcherOf(TraceData::correlationKey(r.globalPid, r.correlationId));
    correlations = std::vector<Correlation>(); // (not `= {}`: that keeps the capacity)
    // Launch-latency floor per device: the median delay of ops launched while their stream was idle.
    std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> idleLaunchDelays;
    for (const ReplayLane& lane : graph.lanes) {
        if (lane.kind != ReplayLane::Kind::Gpu)
            continue;
        int64_t previousEnd = INT64_MIN;
        for (int32_t id : lane.tasks) {
            const ReplayTask& t = graph.tasks[id];
            if (t.launcher >= 0 && !recordedProducer.count(id)) { // (an event wait is no launch latency)
                const int64_t launchStart = graph.tasks[t.launcher].measuredStart;
                if (previousEnd <= launchStart && t.measuredStart >= launchStart)
                    idleLaunchDelays[{ lane.globalPid, lane.deviceId }].push_back(t.measuredStart - launchStart);
            }
            previousEnd = std::max(previousEnd, t.measuredEnd);
        }
    }
    std::map<std::pair<int64_t, int64_t>, int64_t> launchFloor;
    std::vector<int64_t> allDelays;
    for (auto& [device, delays] : idleLaunchDelays) {
        allDelays.insert(allDelays.end(), delays.begin(), delays.end());
        launchFloor[device] = median(std::move(delays), 0);
    }
    graph.quality.launchFloorNs = median(std::move(allDelays), 0);

    // GPU ops of each (process, device) by end, to find a producer on another stream.
    std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int32_t>>> byEnd;
    for (int32_t id = 0; id < static_cast<int32_t>(graph.tasks.size()); ++id) {
        const ReplayTask& t = graph.tasks[id];
        if (t.isGpu())
            byEnd[{ graph.lanes[t.lane].globalPid, graph.lanes[t.lane].deviceId }].push_back({ t.measuredEnd, id });
    }
    for (auto& [device, list] : byEnd)
        std::sort(list.begin(), list.end());

    // Fit each GPU op's constraints: the one that decided its measured start keeps the measured slack.
    for (const ReplayLane& lane : graph.lanes) {
        if (lane.kind != ReplayLane::Kind::Gpu)
            continue;
        const auto floorIt = launchFloor.find({ lane.globalPid, lane.deviceId });
        const int64_t floor = floorIt == launchFloor.end() ? graph.quality.launchFloorNs : floorIt->second;
        const auto& ends = byEnd[{ lane.globalPid, lane.deviceId }];
        int32_t previous = -1;
        for (int32_t id : lane.tasks) {
            ReplayTask& t = graph.tasks[id];
            const int64_t start = t.measuredStart;
            int64_t laneReady = INT64_MIN, launchReady = INT64_MIN;
            int64_t floorLag = 0;
            if (previous >= 0) {
                laneReady = graph.tasks[previous].measuredEnd;
                if (start < laneReady)
                    ++graph.quality.sameStreamOverlaps;
            }
            if (t.launcher >= 0) {
                const int64_t launchStart = graph.tasks[t.launcher].measuredStart;
                if (start < launchStart)
                    ++graph.quality.startsBeforeLaunch;
                floorLag = std::min(floor, start - launchStart);
                launchReady = launchStart + floorLag;
            }
            // The trace records what it waited for on another stream; else, when nothing of its own explains a late
            // start, look for an op on another stream that just ended (inferred, within kCrossStreamWindowNs).
            int32_t cross = -1;
            const int64_t explained = std::max(laneReady, launchReady);
            const auto recorded = recordedProducer.find(id);
            if (recorded != recordedProducer.end()) {
                cross = recorded->second;
            } else if (explained != INT64_MIN && start - explained > kCrossStreamMinDelayNs) {
                auto pos = std::upper_bound(ends.begin(), ends.end(), std::make_pair(start, INT32_MAX));
                for (int scanned = 0; pos != ends.begin() && scanned < kCrossStreamScan; ++scanned) {
                    --pos;
                    if (pos->first < start - kCrossStreamWindowNs || pos->first <= explained)
                        break;
                    if (graph.tasks[pos->second].lane != t.lane) {
                        cross = pos->second;
                        break;
                    }
                }
            }
            // A recorded edge decides the start when its producer ended after the op's own constraints were met;
            // else it keeps no lag (the op waited for its launch or its stream, not for the event).
            const bool crossDecides
                = cross >= 0 && (recorded == recordedProducer.end() || graph.tasks[cross].measuredEnd >= explained);
            if (cross >= 0) {
                ReplayLinks& links = graph.linksFor(t);
                links.crossPred = cross;
                links.crossLag = crossDecides ? start - graph.tasks[cross].measuredEnd : 0;
                ++(recorded != recordedProducer.end() ? graph.quality.recordedCrossStream
                                                      : graph.quality.inferredCrossStream);
            }
            if (previous >= 0)
                t.laneGap = std::min<int64_t>(0, start - laneReady);
            if (t.launcher >= 0)
                t.launchLag = floorLag;
            if (!crossDecides && laneReady >= launchReady && previous >= 0)
                t.laneGap = start - laneReady;
            else if (!crossDecides && t.launcher >= 0)
                t.launchLag = start - graph.tasks[t.launcher].measuredStart;
            else if (!crossDecides)
                t.anchored = true;
            previous = id;
        }
    }

    // Host waits: bind each blocking call to the GPU work it waited for.
    std::unordered_map<uint64_t, const SyncWait*> syncOfCorrelation;
    for (const SyncWait& w : trace.syncWaits)
        if (w.correlationId >= 0)
            syncOfCorrelation[TraceData::correlationKey(w.globalPid, w.correlationId)] = &w;
    std::map<int64_t, std::vector<int32_t>> gpuLanesOfPid;
    for (int32_t l = 0; l < static_cast<int32_t>(graph.lanes.size()); ++l)
        if (graph.lanes[l].kind == ReplayLane::Kind::Gpu)
            gpuLanesOfPid[pidOfGlobalId(graph.lanes[l].globalPid)].push_back(l);
    // GPU ops of each process by end, for waits whose stream the trace does not name.
    std::map<int64_t, std::vector<std::pair<int64_t, int32_t>>> endsOfPid;
    for (const auto& [device, list] : byEnd)
        for (const auto& entry : list)
            endsOfPid[pidOfGlobalId(device.first)].push_back(entry);
    for (auto& [pid, list] : endsOfPid)
        std::sort(list.begin(), list.end());

    std::unordered_map<int64_t, std::vector<int64_t>> freeDurations; // per API name: calls that had nothing to wait for
    std::vector<int64_t> wakes;
    std::vector<std::pair<int32_t, int64_t>> waitingCalls; // task, measured end of what it awaited
    std::vector<int32_t> awaitedNow;
    for (int32_t id = 0; id < static_cast<int32_t>(graph.tasks.size()); ++id) {
        ReplayTask& t = graph.tasks[id];
        if (t.kind != TaskKind::HostCall || t.dropped)
            continue;
        const std::string name = apiBaseName(trace.name(t.nameId));
        const bool polling = std::binary_search(pollingLoops.begin(), pollingLoops.end(), id);
        const int64_t pid = pidOfGlobalId(graph.lanes[t.lane].globalTid);
        awaitedNow.clear();
        const bool copyCall = name.find("Memcpy") != std::string::npos || name.find("Memset") != std::string::npos;
        if (copyCall) {
            // A synchronous copy call, or an asynchronous one touching pageable memory, returns once its op ended.
            const bool synchronousName = isSyncApi(name);
            auto pos = std::lower_bound(launches.begin(), launches.end(), std::make_pair(id, INT32_MIN));
            for (; pos != launches.end() && pos->first == id; ++pos) {
                const ReplayTask& op = graph.tasks[pos->second];
                if ((synchronousName || op.pageable) && op.measuredEnd >= t.measuredStart
                    && op.measuredEnd <= t.measuredEnd + kWaitToleranceNs)
                    awaitedNow.push_back(pos->second);
            }
        } else if (isSyncApi(name) || polling) {
            const int64_t correlation = correlationOfTask[id];
            const SyncWait* row = nullptr;
            if (correlation >= 0) {
                auto it = syncOfCorrelation.find(TraceData::correlationKey(makeGlobalPid(pid), correlation));
                if (it != syncOfCorrelation.end())
                    row = it->second;
            }
            if (row && row->syncType == 3 && row->streamId >= 0) { // stream synchronize: its stream
                auto lane = index.gpu.find({ row->globalPid, row->deviceId, row->streamId });
                if (lane != index.gpu.end()) {
                    int32_t last = lastLaunchedBefore(lane->second, t.measuredStart);
                    if (last >= 0)
                        awaitedNow.push_back(last);
                }
            } else if (const EventRecord* record = row && row->syncType == 1
                    ? recordBefore(row->globalPid, row->eventId, row->correlationId)
                    : nullptr) {
                // Event synchronize: the last op launched to the record's stream before the record call.
                auto lane = index.gpu.find(
                    { record->globalPid, record->deviceId >= 0 ? record->deviceId : row->deviceId, record->streamId });
                const int32_t recordCall
                    = recordCalls[TraceData::correlationKey(record->globalPid, record->correlationId)];
                const int64_t recordedAt = recordCall >= 0 ? graph.tasks[recordCall].measuredStart : t.measuredStart;
                const int32_t last = lane == index.gpu.end() ? -1 : lastLaunchedBefore(lane->second, recordedAt);
                if (last >= 0) {
                    awaitedNow.push_back(last);
                    ++graph.quality.eventSyncsPaired;
                }
            } else if ((row && row->syncType == 4) || isDeviceWideSync(name)) { // device: every stream
                for (int32_t laneIndex : gpuLanesOfPid[pid]) {
                    if (row && row->deviceId >= 0 && graph.lanes[laneIndex].deviceId != row->deviceId)
                        continue;
                    int32_t last = lastLaunchedBefore(laneIndex, t.measuredStart);
                    if (last >= 0)
                        awaitedNow.push_back(last);
                }
            } else {
                // The trace does not say what it waited for: the op launched before it that ended last before it
                // returned, if that op was still running when the call began.
                const auto& ends = endsOfPid[pid];
                auto pos = std::upper_bound(
                    ends.begin(), ends.end(), std::make_pair(t.measuredEnd + kWaitToleranceNs, INT32_MAX));
                for (int scanned = 0; pos != ends.begin() && scanned < kCrossStreamScan; ++scanned) {
                    --pos;
                    if (pos->first <= t.measuredStart)
                        break;
                    if (launchedAt(pos->second) < t.measuredStart) {
                        awaitedNow.push_back(pos->second);
                        break;
                    }
                }
            }
        }
        if (awaitedNow.empty()) {
            if (isSyncApi(name) && !polling)
                freeDurations[t.nameId].push_back(t.duration);
            continue;
        }
        int64_t awaitedEnd = INT64_MIN;
        for (int32_t a : awaitedNow)
            awaitedEnd = std::max(awaitedEnd, graph.tasks[a].measuredEnd);
        if (awaitedEnd > t.measuredEnd + kWaitToleranceNs) {
            ++graph.quality.waitsEndingEarly;
            continue;
        }
        t.role = HostRole::Wait;
        ReplayLinks& links = graph.linksFor(t);
        links.awaitBegin = static_cast<uint32_t>(graph.awaited.size());
        graph.awaited.insert(graph.awaited.end(), awaitedNow.begin(), awaitedNow.end());
        links.awaitEnd = static_cast<uint32_t>(graph.awaited.size());
        ++graph.quality.hostWaits;
        if (awaitedEnd <= t.measuredStart && !polling)
            freeDurations[t.nameId].push_back(t.duration);
        else
            wakes.push_back(t.measuredEnd - awaitedEnd);
        waitingCalls.push_back({ id, awaitedEnd });
    }
    // A wait's own cost is what calls of its name took when there was nothing to wait for; its wake-up is what
    // this call took after the awaited work ended. Both keep the measured end: max(start + cost, awaited + wake).
    std::unordered_map<int64_t, int64_t> costOfName;
    for (auto& [nameId, durations] : freeDurations)
        costOfName[nameId] = median(std::move(durations), kDefaultWaitCostNs);
    const int64_t typicalWake = std::max<int64_t>(0, median(std::move(wakes), 0));
    for (const auto& [id, awaitedEnd] : waitingCalls) {
        ReplayTask& t = graph.tasks[id];
        auto cost = costOfName.find(t.nameId);
        const int64_t ownCost = cost == costOfName.end() ? kDefaultWaitCostNs : cost->second;
        if (awaitedEnd > t.measuredStart) {
            t.duration = std::min(t.duration, ownCost);
            graph.linksFor(t).wake = t.measuredEnd - awaitedEnd;
        } else {
            graph.linksFor(t).wake = std::min(typicalWake, t.measuredEnd - awaitedEnd);
        }
    }

    // Collectives across the ranks of one trace: the k-th kernel of a name on each process is one collective.
    std::map<std::pair<int64_t, int64_t>, std::vector<int32_t>> commByPidName;
    for (int32_t id = 0; id < static_cast<int32_t>(graph.tasks.size()); ++id)
        if (graph.tasks[id].communication)
            commByPidName[{ graph.tasks[id].nameId, graph.lanes[graph.tasks[id].lane].globalPid }].push_back(id);
    std::map<int64_t, std::vector<const std::vector<int32_t>*>> ranksOfName;
    for (const auto& [key, ids] : commByPidName)
        ranksOfName[key.first].push_back(&ids);
    for (const auto& [nameId, perRank] : ranksOfName) {
        if (perRank.size() < 2)
            continue;
        size_t count = SIZE_MAX;
        for (const auto* ids : perRank)
            count = std::min(count, ids->size());
        for (size_t k = 0; k < count; ++k) {
            std::vector<int32_t> members;
            int64_t lastArrival = INT64_MIN;
            for (const auto* ids : perRank) {
                members.push_back((*ids)[k]);
                lastArrival = std::max(lastArrival, graph.tasks[(*ids)[k]].measuredStart);
            }
            const int32_t group = static_cast<int32_t>(graph.collectives.size());
            for (int32_t m : members) {
                ReplayTask& t = graph.tasks[m];
                if (lastArrival > t.measuredEnd)
                    continue; // clocks of the ranks disagree: this member keeps its measured duration
                ReplayLinks& links = graph.linksFor(t);
                links.collective = group;
                links.collectiveLag = t.measuredEnd - lastArrival;
                t.duration = std::min(t.duration, links.collectiveLag);
            }
            graph.collectives.push_back(std::move(members));
        }
    }
    graph.quality.collectives = static_cast<int64_t>(graph.collectives.size());

    bindLoaderWaits(trace, graph);
    assignSteps(trace, stepSet, index.host, graph);
    return std::move(graph);
}

ReplayGraphBuilder::ReplayGraphBuilder(const TraceData& trace)
    : m_state(std::make_unique<State>(trace))
{ }

ReplayGraphBuilder::~ReplayGraphBuilder() = default;

void ReplayGraphBuilder::reserve(size_t apiCalls, size_t gpuOps)
{
    m_state->graph.tasks.reserve(apiCalls + gpuOps);
    m_state->correlations.reserve(apiCalls);
    m_state->correlationOfTask.reserve(apiCalls);
}

void ReplayGraphBuilder::addApiCall(const ApiCall& call) { m_state->addApiCall(call); }
void ReplayGraphBuilder::addGpuOp(const GpuOp& op) { m_state->addGpuOp(op); }
ReplayGraph ReplayGraphBuilder::finish(const StepSet& steps) { return m_state->finish(steps); }

ReplayGraph buildReplayGraph(const TraceData& trace, const StepSet& steps)
{
    ReplayGraphBuilder builder(trace);
    builder.reserve(trace.apiCalls.size(), trace.gpuOps.size());
    for (const ApiCall& call : trace.apiCalls)
        builder.addApiCall(call);
    for (const GpuOp& op : trace.gpuOps)
        builder.addGpuOp(op);
    return builder.finish(steps);
}

Result<ReplayGraph> buildReplayGraph(SqliteDb& db, const TraceData& trace, const StepSet& steps)
{
    auto count = [&](const char* table) -> int64_t {
        if (!db.hasTable(table))
            return 0;
        auto n = db.queryInt(std::string("SELECT COUNT(*) FROM ") + table);
        return n.isOk() ? *n : 0;
    };
    ReplayGraphBuilder builder(trace);
    builder.reserve(static_cast<size_t>(count("CUPTI_ACTIVITY_KIND_RUNTIME")),
        static_cast<size_t>(count("CUPTI_ACTIVITY_KIND_KERNEL") + count("CUPTI_ACTIVITY_KIND_MEMCPY")
            + count("CUPTI_ACTIVITY_KIND_MEMSET")));
    PLACESCOPE_RETURN_IF_ERROR(forEachApiCall(db, true, [&](const ApiCall& call) { builder.addApiCall(call); }));
    PLACESCOPE_RETURN_IF_ERROR(forEachGpuOp(db, true, [&](const GpuOp& op) { builder.addGpuOp(op); }));
    return builder.finish(steps);
}

} // namespace placescope
