// SPDX-License-Identifier: MIT
#include "analysis/diff/event_groups.h"

#include "analysis/trace/kernel_class.h"

namespace placescope {

const char* groupingKey(DiffGrouping grouping)
{
    switch (grouping) {
    case DiffGrouping::Kernel:
        return "kernels";
    case DiffGrouping::Op:
        return "ops";
    case DiffGrouping::Annotation:
        return "annotations";
    case DiffGrouping::Stream:
        return "streams";
    case DiffGrouping::Class:
        return "classes";
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

// Where an event falls: a step position, or outside every step (and whether after the last one).
struct Placement
{
    int position = StepIndex::kOutside;
    bool afterLast = false;
};

Placement place(const StepIndex& steps, int64_t pid, int64_t atNs)
{
    Placement p;
    p.position = steps.find(pid, atNs);
    if (p.position == StepIndex::kOutside)
        p.afterLast = steps.afterLast(pid, atNs);
    return p;
}

void tally(EventGroups& groups, const Placement& where, const std::string& key, int64_t durationNs)
{
    groups.whole[key].add(durationNs);
    if (where.position != StepIndex::kOutside) {
        groups.perStep[static_cast<size_t>(where.position)][key].add(durationNs);
        return;
    }
    groups.outside.add(durationNs);
    if (where.afterLast)
        groups.afterLast.add(durationNs);
}

// The name a GPU op is grouped under; empty: the grouping leaves it out (kernels only: copies and memsets).
class GpuKey
{
public:
    GpuKey(const TraceData& trace, const GroupingOptions& options)
        : m_trace(trace)
        , m_options(options)
    { }

    const std::string& operator()(const GpuOp& op)
    {
        switch (m_options.grouping) {
        case DiffGrouping::Kernel:
            if (op.kind != GpuOp::Kind::Kernel) {
                m_key.clear();
            } else if (auto named = m_options.kernelNames.find(op.nameId); named != m_options.kernelNames.end()) {
                return named->second;
            } else {
                return m_trace.name(op.nameId);
            }
            break;
        case DiffGrouping::Class: {
            GpuWorkClass work = classifyGpuWork(op.kind, std::string());
            if (op.kind == GpuOp::Kind::Kernel) {
                auto [known, inserted] = m_classes.emplace(op.nameId, GpuWorkClass::OtherKernel);
                if (inserted)
                    known->second = classifyKernel(m_trace.name(op.nameId));
                work = known->second;
            }
            m_key = gpuWorkClassName(work);
            break;
        }
        default:
            m_key = "GPU " + std::to_string(op.deviceId) + " stream " + std::to_string(op.streamId);
        }
        return m_key;
    }

private:
    const TraceData& m_trace;
    const GroupingOptions& m_options;
    std::unordered_map<int64_t, GpuWorkClass> m_classes; // by name id: one classification per distinct name
    std::string m_key;
};

// Every GPU grouping in one pass: an op's step (through its launch call) is found once for all of them.
void groupGpuOps(const TraceData& trace, const StepIndex& steps, const std::vector<GroupingOptions>& options,
    std::vector<EventGroups>& groups)
{
    // Launch call start by (process, correlation id): with host-time steps a GPU op belongs to the step its
    // launch ran in.
    std::unordered_map<uint64_t, int64_t> launchStart;
    if (steps.hostTime())
        launchStart.reserve(trace.apiCalls.size());
    for (const ApiCall& call : trace.apiCalls)
        if (steps.hostTime() && call.correlationId >= 0)
            launchStart.emplace(TraceData::correlationKey(call.globalTid, call.correlationId), call.startNs);
    std::vector<GpuKey> keys;
    for (const GroupingOptions& o : options)
        keys.emplace_back(trace, o);
    for (const GpuOp& op : trace.gpuOps) {
        int64_t atNs = op.startNs;
        if (steps.hostTime() && op.correlationId >= 0)
            if (auto launch = launchStart.find(TraceData::correlationKey(op.globalPid, op.correlationId));
                launch != launchStart.end())
                atNs = launch->second;
        const Placement where = place(steps, op.globalPid, atNs);
        for (size_t g = 0; g < keys.size(); ++g)
            if (const std::string& key = keys[g](op); !key.empty())
                tally(groups[g], where, key, op.durationNs());
    }
}

bool isGpuGrouping(DiffGrouping grouping)
{
    return grouping == DiffGrouping::Kernel || grouping == DiffGrouping::Stream || grouping == DiffGrouping::Class;
}

} // namespace

std::vector<EventGroups> groupEvents(
    const TraceData& trace, const StepIndex& steps, const std::vector<GroupingOptions>& options)
{
    std::vector<EventGroups> out(options.size());
    std::vector<GroupingOptions> gpu;
    std::vector<size_t> gpuAt;
    for (size_t i = 0; i < options.size(); ++i) {
        out[i].perStep.resize(steps.count());
        if (isGpuGrouping(options[i].grouping)) {
            gpu.push_back(options[i]);
            gpuAt.push_back(i);
            continue;
        }
        const bool ops = options[i].grouping == DiffGrouping::Op;
        for (const HostRange& r : trace.hostRanges)
            if (ops ? isFrameworkOp(r) : isAnnotation(r))
                tally(out[i], place(steps, r.globalTid, r.startNs), trace.name(r.nameId), r.endNs - r.startNs);
    }
    if (!gpu.empty()) {
        std::vector<EventGroups> gpuGroups(gpu.size());
        for (EventGroups& g : gpuGroups)
            g.perStep.resize(steps.count());
        groupGpuOps(trace, steps, gpu, gpuGroups);
        for (size_t g = 0; g < gpu.size(); ++g)
            out[gpuAt[g]] = std::move(gpuGroups[g]);
    }
    return out;
}

EventGroups groupEvents(const TraceData& trace, const StepIndex& steps, const GroupingOptions& options)
{
    return std::move(groupEvents(trace, steps, std::vector<GroupingOptions> { options }).front());
}

} // namespace placescope
