// SPDX-License-Identifier: MIT
#include "placement/diff/event_groups.h"

namespace placescope {

const char* groupingKey(DiffGrouping grouping)
{
    switch (grouping) {
    case DiffGrouping::Kernel: return "kernels";
    case DiffGrouping::Op: return "ops";
    case DiffGrouping::Annotation: return "annotations";
    case DiffGrouping::Stream: return "streams";
    }
    return "kernels";
}

namespace {

// The step detector's notion of an annotation: NVTX ranges and PyTorch's record_function ranges.
bool isAnnotation(const HostRange& r) { return r.isNvtx || r.category == "user_annotation"; }

// Framework ops: what the profiler records as operators, not Python frames or annotations.
bool isFrameworkOp(const HostRange& r)
{
    return !isAnnotation(r) && r.category != "python_function" && r.category != "Python";
}

void tally(EventGroups& groups, const StepIndex& steps, const std::string& key, int64_t pid, int64_t atNs,
           int64_t durationNs)
{
    groups.whole[key].add(durationNs);
    const int position = steps.find(pid, atNs);
    if (position != StepIndex::kOutside) {
        groups.perStep[static_cast<size_t>(position)][key].add(durationNs);
        return;
    }
    groups.outside.add(durationNs);
    if (steps.afterLast(pid, atNs))
        groups.afterLast.add(durationNs);
}

void groupGpuOps(const TraceData& trace, const StepIndex& steps, const GroupingOptions& options, EventGroups& groups)
{
    // Launch call start by (process, correlation id): with host-time steps a GPU op belongs to the step its
    // launch ran in.
    std::unordered_map<uint64_t, int64_t> launchStart;
    if (steps.hostTime())
        launchStart.reserve(trace.apiCalls.size());
    for (const ApiCall& call : trace.apiCalls)
        if (steps.hostTime() && call.correlationId >= 0)
            launchStart.emplace(TraceData::correlationKey(call.globalTid, call.correlationId), call.startNs);
    const bool kernels = options.grouping == DiffGrouping::Kernel;
    std::string key;
    for (const GpuOp& op : trace.gpuOps) {
        if (kernels && op.kind != GpuOp::Kind::Kernel)
            continue;
        if (kernels) {
            auto named = options.kernelNames.find(op.nameId);
            key = named != options.kernelNames.end() ? named->second : trace.name(op.nameId);
        } else {
            key = "GPU " + std::to_string(op.deviceId) + " stream " + std::to_string(op.streamId);
        }
        int64_t atNs = op.startNs;
        if (steps.hostTime() && op.correlationId >= 0)
            if (auto launch = launchStart.find(TraceData::correlationKey(op.globalPid, op.correlationId));
                launch != launchStart.end())
                atNs = launch->second;
        tally(groups, steps, key, op.globalPid, atNs, op.durationNs());
    }
}

} // namespace

EventGroups groupEvents(const TraceData& trace, const StepIndex& steps, const GroupingOptions& options)
{
    EventGroups groups;
    groups.perStep.resize(steps.count());
    if (options.grouping == DiffGrouping::Kernel || options.grouping == DiffGrouping::Stream) {
        groupGpuOps(trace, steps, options, groups);
        return groups;
    }
    const bool ops = options.grouping == DiffGrouping::Op;
    for (const HostRange& r : trace.hostRanges)
        if (ops ? isFrameworkOp(r) : isAnnotation(r))
            tally(groups, steps, trace.name(r.nameId), r.globalTid, r.startNs, r.endNs - r.startNs);
    return groups;
}

} // namespace placescope
