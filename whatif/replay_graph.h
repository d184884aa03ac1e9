// SPDX-License-Identifier: MIT
// ReplayGraph: a measured run as a dependency graph that a replay can schedule again (Daydream, Lumos; the
// reference is shared/reference/whatif.md). Built from the store whatever the source (Kineto, nsys, capture).
//
// Lanes are the run's serial resources: one per host thread (its top-level CUDA runtime/driver calls in program
// order; a call nested in another rides on its parent) and one per GPU stream (kernels, copies, memsets in start
// order). Every task keeps its measured duration, and every constraint on its start keeps the measured slack:
//   - host: a call starts `laneGap` after the previous call on its thread ends (the CPU time between them:
//     framework ops, Python, data loading); after a gap of 1 ms or more that ends just after another thread of
//     the process went quiet, it starts `crossLag` after that thread's last call instead (a hand-off: autograd);
//   - GPU: an op starts no earlier than its launch call's start + `launchLag`, the previous op on its stream's
//     end + `laneGap`, and an inferred producer on another stream's end + `crossLag`. The constraint that decided
//     the measured start keeps the measured difference; the others keep only their natural minimum (0 after the
//     stream predecessor, the device's launch-latency floor after the launch), so work queued behind a long op
//     moves up when that op gets shorter (HTA's launch vs kernel-kernel delay);
//   - host waits end at the later of start + own cost and the end of what they wait for + `wake`, so a wait
//     shrinks or grows when that moves (host_waits.h): synchronize calls and blocking copies wait for the last op
//     launched to the stream (every stream of the device; an event synchronize: the op before its recorded event),
//     a run of cudaStreamQuery/cudaEventQuery calls is one wait (a polling loop), and a DataLoader `__next__` on a
//     thread that launches work waits for the loader thread's work when the trace shows it (a lane of its own);
//   - collectives across the ranks of one trace end no earlier than the last peer's start + `collectiveLag`.
// Because each constraint keeps its measured slack, an unedited replay gives back every measured time unless the
// trace contradicts itself; what it could not take as measured is counted in ReplayGraph::quality.
#pragma once

#include "analysis/trace/step_detector.h"
#include "analysis/trace/trace_data.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace placescope {

enum class TaskKind : uint8_t
{
    HostCall,
    Kernel,
    Memcpy,
    Memset
};
enum class HostRole : uint8_t
{
    Other,
    Launch,
    Wait
};

// One event of the run. Kept small (64 bytes): a 10M-event trace has millions of tasks, and the constraints only
// some tasks have (a producer on another lane, awaited work, a collective) live apart in ReplayLinks.
struct ReplayTask
{
    int64_t measuredStart = 0;
    int64_t measuredEnd = 0;
    int64_t duration = 0; // replayed duration; a host wait: its own cost, without the waiting
    int64_t laneGap = 0; // start >= end of the previous task on the lane + laneGap
    int64_t launchLag = 0; // GPU: start >= launcher's start + launchLag
    int32_t rowId = -1; // row in its table (CUPTI_ACTIVITY_KIND_*), for a predicted trace (row ids of a
                        // trace's tables are their row numbers: far below 2^31)
    int32_t nameId = -1; // StringIds; copies and memsets: -1 (named by kind), device-to-device copies -2
    int32_t lane = -1;
    int32_t launcher = -1; // GPU: the host task that launched it
    int32_t links = -1; // index into ReplayGraph::links; -1: none
    TaskKind kind = TaskKind::HostCall;
    HostRole role = HostRole::Other;
    bool anchored : 1 = false; // nothing before it on its lane or launch: starts no earlier than its measured start
    bool dropped : 1 = false; // removed by an edit
    bool pageable : 1 = false; // a copy between pageable host memory and the device
    bool hostToDevice : 1 = false; // copies: direction
    bool communication : 1 = false; // NCCL-style collective kernel
    bool loaderWork : 1 = false; // a data-loading range of a loader thread (no CUDA call; rowId -1)

    bool isGpu() const { return kind != TaskKind::HostCall; }
};
static_assert(sizeof(ReplayTask) <= 64, "ReplayTask is per event: keep rare fields in ReplayLinks");

// What most tasks do not have: constraints beyond their lane and launch, and a copy's or memset's size.
struct ReplayLinks
{
    int64_t bytes = 0; // copies and memsets
    int64_t crossLag = 0; // start >= crossPred's end + crossLag
    int64_t wake = 0; // host wait: end >= awaited end + wake
    int64_t collectiveLag = 0; // collective: end >= last peer's start + collectiveLag
    int32_t crossPred = -1; // GPU: producer on another stream (recorded or inferred); host: the thread it waited for
    int32_t collective = -1; // index into ReplayGraph::collectives
    uint32_t awaitBegin = 0; // host wait: [awaitBegin, awaitEnd) in ReplayGraph::awaited
    uint32_t awaitEnd = 0;

    bool waits() const { return awaitEnd > awaitBegin; }
};

struct ReplayLane
{
    enum class Kind : uint8_t
    {
        Host,
        Gpu
    };
    Kind kind = Kind::Host;
    int64_t globalPid = 0;
    int64_t globalTid = 0; // host lanes
    int64_t deviceId = -1; // GPU lanes
    int64_t streamId = -1;
    std::string label; // "thread 1234", "GPU 0 stream 7", prefixed with the rank where there are several
    std::vector<int32_t> tasks; // in lane order
};

// A runtime/driver call inside another call on its thread (e.g. cuLaunchKernel under cudaLaunchKernel): it moves
// with its parent, at the same offset from the parent's start.
struct NestedCall
{
    int64_t rowId = -1;
    int32_t parent = -1;
    int64_t offsetNs = 0;
    int64_t durationNs = 0;
};

// How far the graph could take the trace as measured; each count is a reason a replay may differ from it.
struct ReplayQuality
{
    int64_t gpuOpsWithoutLaunch = 0; // no launch call with their correlation id: anchored at their measured start
    int64_t startsBeforeLaunch = 0; // GPU op starts before its launch call (clock skew): kept as measured
    int64_t sameStreamOverlaps = 0; // an op starts before the previous op on its stream ended: kept as measured
    int64_t recordedCrossStream = 0; // GPU ops waiting on an event the trace records (stream wait event)
    int64_t inferredCrossStream = 0; // GPU ops whose start only another stream's op explains (within 5 us)
    int64_t eventWaitsUnresolved = 0; // recorded stream waits whose producer or consumer was not found: no edge
    int64_t inferredHandoffs = 0; // host calls resuming after another thread of the process went quiet
    int64_t hostWaits = 0; // host calls bound to the GPU work they wait for
    int64_t pollingLoops = 0; // runs of cudaStreamQuery/cudaEventQuery calls replayed as one wait
    int64_t eventSyncsPaired = 0; // cudaEventSynchronize calls bound to the op before their recorded event
    int64_t loaderWaits = 0; // DataLoader __next__ ranges bound to a loader thread's work
    int64_t loaderWaitsAsWork = 0; // DataLoader __next__ ranges kept as CPU work: no loader thread's work shown
    int64_t handoffsRejected = 0; // host gaps of 1 ms or more another thread was not busy through: kept as work
    int64_t waitsEndingEarly = 0; // sync calls that ended before the work they should await: left unbound
    int64_t collectives = 0; // cross-rank collective groups
    int64_t nestedCalls = 0;
    int64_t launchFloorNs = 0; // median launch latency of ops launched onto an idle stream (all devices)
};

// Steps as the graph knows them: each boundary is tied to a lane, so a replay can say where the boundary moved.
struct ReplayStep
{
    int64_t number = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;
    int32_t lane = -1; // the lane its boundaries are read on (the host thread of a ProfilerStep, else a GPU lane)
    int64_t globalPid = -1; // the process whose step it is (StepWindow::globalPid); -1: every process
};

struct ReplayGraph
{
    std::vector<ReplayTask> tasks;
    std::vector<ReplayLinks> links; // see ReplayTask::links
    std::vector<ReplayLane> lanes;
    std::vector<int32_t> awaited; // GPU tasks awaited by host waits (ranges per task)
    std::vector<std::vector<int32_t>> collectives; // member tasks of each cross-rank collective
    std::vector<NestedCall> nested;
    std::vector<ReplayStep> steps;
    std::string stepSource; // "3 ProfilerStep ranges", ... (StepSet::description)
    bool stepsAreHostRanges = false; // recorded or annotated steps: GPU work launched in them extends them
    ReplayQuality quality;

    // The span the issue defines: from the first step's start to the end of the last CPU or GPU work launched
    // inside the steps (host calls starting in a step, GPU ops whose launch call starts in one).
    std::vector<uint8_t> inSpan; // per task

    const ReplayLinks& linksOf(const ReplayTask& task) const
    {
        static const ReplayLinks kNone;
        return task.links < 0 ? kNone : links[static_cast<size_t>(task.links)];
    }
    // The task's links, made when it has none yet.
    ReplayLinks& linksFor(ReplayTask& task)
    {
        if (task.links < 0) {
            task.links = static_cast<int32_t>(links.size());
            links.emplace_back();
        }
        return links[static_cast<size_t>(task.links)];
    }
    bool waits(const ReplayTask& task) const { return linksOf(task).waits(); }
    // The task no longer waits for GPU work (an edit removed the wait).
    void clearWaits(ReplayTask& task)
    {
        if (task.links >= 0)
            links[static_cast<size_t>(task.links)].awaitEnd = links[static_cast<size_t>(task.links)].awaitBegin;
    }
};

// Builds a ReplayGraph from events given one at a time: every runtime/driver call first, in start order, then
// every kernel, copy and memset, in start order; from TraceData's vectors or straight from the store's rows. The
// trace gives the names, the ranks, the sync rows and the ranges of the steps.
class ReplayGraphBuilder
{
public:
    explicit ReplayGraphBuilder(const TraceData& trace);
    ~ReplayGraphBuilder();
    ReplayGraphBuilder(const ReplayGraphBuilder&) = delete;
    ReplayGraphBuilder& operator=(const ReplayGraphBuilder&) = delete;

    void reserve(size_t apiCalls, size_t gpuOps);
    void addApiCall(const ApiCall& call);
    void addGpuOp(const GpuOp& op);
    ReplayGraph finish(const StepSet& steps);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// Builds the graph of `trace` with `steps` (detectSteps). Pure; the trace is only read.
ReplayGraph buildReplayGraph(const TraceData& trace, const StepSet& steps);
// The same graph with the events read from the store in start order instead of from TraceData's vectors, so that
// `trace` can be loaded with TraceParts::ForReplay: a replay of a large trace then never holds its events twice.
Result<ReplayGraph> buildReplayGraph(SqliteDb& db, const TraceData& trace, const StepSet& steps);

// The name an edit's regex is matched against: a kernel's name, "Memcpy HtoD (pageable)", "Memset", an API name.
std::string taskName(const TraceData& trace, const ReplayTask& task);

} // namespace placescope
