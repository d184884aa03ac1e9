// SPDX-License-Identifier: MIT
#include "analysis/trace/step_detector.h"

#include "profiler/base/name_pattern.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace placescope {

int64_t StepSet::totalNs() const
{
    int64_t total = 0;
    for (const auto& s : steps)
        total += s.endNs - s.startNs;
    return total;
}

double StepSet::perStepMs(int64_t totalNs) const
{
    return steps.empty() ? 0.0 : static_cast<double>(totalNs) / 1e6 / static_cast<double>(steps.size());
}

double StepSet::percentOfSteps(int64_t totalNsValue) const
{
    int64_t total = totalNs();
    return total <= 0 ? 0.0 : 100.0 * static_cast<double>(totalNsValue) / static_cast<double>(total);
}

std::string_view stepSourceName(StepSet::Source source)
{
    switch (source) {
    case StepSet::Source::Recorded:
        return "recorded steps (PS_STEPS)";
    case StepSet::Source::Annotation:
        return "annotation ranges";
    case StepSet::Source::KernelPattern:
        return "repeating kernel pattern";
    case StepSet::Source::WholeTrace:
        return "whole trace (no steps found)";
    }
    return "?";
}

bool stepsAreHostRanges(StepSet::Source source)
{
    return source == StepSet::Source::Recorded || source == StepSet::Source::Annotation;
}

namespace {

void finish(const TraceData& trace, StepSet& set)
{
    set.times = measureStepTimes(trace, set.steps, stepsAreHostRanges(set.source));
    std::vector<Interval> ivs;
    for (const auto& s : set.steps)
        ivs.push_back({ s.startNs, s.endNs });
    set.window = mergeIntervals(std::move(ivs));
}

bool fromAnnotations(const TraceData& trace, StepSet& set)
{
    // ProfilerStep#N from frameworks that did not fill PS_STEPS, NVTX "step"/"iteration" ranges.
    static const NamePattern kStepName
        = *NamePattern::compile(R"((?i)(^|[^a-z])(profilerstep|step|iteration|iter|train_step|batch)([^a-z]|$))");
    std::map<int64_t, bool> nameMatches;
    std::vector<const HostRange*> matches;
    for (const auto& r : trace.hostRanges) {
        if (r.category != "user_annotation" && !r.isNvtx)
            continue;
        auto [it, inserted] = nameMatches.emplace(r.nameId, false);
        if (inserted)
            it->second = kStepName.search(trace.name(r.nameId));
        if (it->second)
            matches.push_back(&r);
    }
    // Keep only outermost ranges (nested "step" marks inside a step are sub-phases).
    std::vector<const HostRange*> outer;
    for (const auto* r : matches) {
        if (!outer.empty() && r->startNs < outer.back()->endNs && r->globalTid == outer.back()->globalTid)
            continue;
        outer.push_back(r);
    }
    if (outer.size() < 2)
        return false;
    int64_t number = 0;
    for (const auto* r : outer)
        set.steps.push_back({ number++, r->startNs, r->endNs, -1 });
    set.source = StepSet::Source::Annotation;
    set.description = std::to_string(outer.size()) + " ranges named like '" + trace.name(outer.front()->nameId) + "'";
    return true;
}

bool fromJitCalls(const TraceData& trace, StepSet& set)
{
    // JAX writes no step marks unless the user adds StepTraceAnnotation, but a training loop calls one jitted
    // function per step, and jax.profiler records each call as "PjitFunction(NAME)" (dispatch is asynchronous:
    // the step rule adds the GPU work launched inside it). The function called most often, at least twice, marks
    // the steps; its calls nested in another of its calls (a fallback re-entering dispatch) are not steps.
    static constexpr std::string_view kPrefix = "PjitFunction(";
    std::map<int64_t, std::vector<const HostRange*>> callsOf; // outermost calls per function name
    for (const auto& r : trace.hostRanges) {
        const std::string& name = trace.name(r.nameId);
        if (r.isNvtx || name.rfind(kPrefix, 0) != 0)
            continue;
        std::vector<const HostRange*>& calls = callsOf[r.nameId];
        if (!calls.empty() && r.startNs < calls.back()->endNs && r.globalTid == calls.back()->globalTid)
            continue;
        calls.push_back(&r);
    }
    const std::vector<const HostRange*>* most = nullptr;
    for (const auto& [nameId, calls] : callsOf)
        if (!most || calls.size() > most->size())
            most = &calls;
    if (!most || most->size() < 2)
        return false;
    int64_t number = 0;
    for (const auto* r : *most)
        set.steps.push_back({ number++, r->startNs, r->endNs, -1 });
    set.source = StepSet::Source::Annotation;
    set.description = std::to_string(most->size()) + " calls of the jitted function '"
        + trace.name(most->front()->nameId) + "' (one per step)";
    return true;
}

bool fromKernelPattern(const TraceData& trace, StepSet& set)
{
    // Kernels of the busiest lane; a kernel name that occurs exactly once every p kernels, covering most of
    // the lane, marks iterations. The longest such period wins (one occurrence per step).
    std::map<std::pair<int64_t, int64_t>, int64_t> laneCount;
    for (const auto& op : trace.gpuOps)
        if (op.kind == GpuOp::Kind::Kernel)
            ++laneCount[{ op.globalPid, op.deviceId * 1000003 + op.streamId }];
    if (laneCount.empty())
        return false;
    auto lane = std::max_element(laneCount.begin(), laneCount.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
    })->first;
    std::vector<const GpuOp*> kernels;
    for (const auto& op : trace.gpuOps)
        if (op.kind == GpuOp::Kind::Kernel && op.globalPid == lane.first
            && op.deviceId * 1000003 + op.streamId == lane.second)
            kernels.push_back(&op);
    const int64_t n = static_cast<int64_t>(kernels.size());
    if (n < 6)
        return false;
    std::unordered_map<int64_t, std::vector<int64_t>> positions;
    for (int64_t i = 0; i < n; ++i)
        positions[kernels[i]->nameId].push_back(i);
    int64_t bestPeriod = 0;
    const std::vector<int64_t>* best = nullptr;
    for (const auto& [nameId, pos] : positions) {
        int64_t count = static_cast<int64_t>(pos.size());
        if (count < 3)
            continue;
        int64_t period = pos[1] - pos[0];
        if (period < 2 || period * count < n * 8 / 10 || period <= bestPeriod)
            continue;
        bool regular = true;
        for (size_t i = 2; i < pos.size() && regular; ++i)
            regular = pos[i] - pos[i - 1] == period;
        if (regular) {
            bestPeriod = period;
            best = &pos;
        }
    }
    if (!best)
        return false;
    for (size_t i = 0; i + 1 < best->size(); ++i)
        set.steps.push_back(
            { static_cast<int64_t>(i), kernels[(*best)[i]]->startNs, kernels[(*best)[i + 1]]->startNs, lane.first });
    int64_t lastStart = kernels[best->back()]->startNs;
    int64_t lastEnd = lastStart;
    for (int64_t i = best->back(); i < std::min(n, best->back() + bestPeriod); ++i)
        lastEnd = std::max(lastEnd, kernels[i]->endNs);
    set.steps.push_back({ static_cast<int64_t>(best->size() - 1), lastStart, lastEnd, lane.first });
    set.source = StepSet::Source::KernelPattern;
    set.description = "kernel '" + trace.name(kernels[best->front()]->nameId).substr(0, 60) + "' repeats every "
        + std::to_string(bestPeriod) + " kernels";
    return true;
}

} // namespace

StepSet detectSteps(const TraceData& trace)
{
    StepSet set;
    if (!trace.recordedSteps.empty()) {
        set.steps = trace.recordedSteps;
        set.source = StepSet::Source::Recorded;
        set.description = std::to_string(set.steps.size()) + " recorded steps";
    } else if (!fromAnnotations(trace, set) && !fromJitCalls(trace, set) && !fromKernelPattern(trace, set)) {
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (const auto& op : trace.gpuOps) {
            first = std::min(first, op.startNs);
            last = std::max(last, op.endNs);
        }
        if (first >= last) {
            for (const auto& r : trace.hostRanges) {
                first = std::min(first, r.startNs);
                last = std::max(last, r.endNs);
            }
        }
        if (first < last)
            set.steps.push_back({ 0, first, last, -1 });
        set.source = StepSet::Source::WholeTrace;
        set.description = "the whole trace counts as one step";
    }
    finish(trace, set);
    return set;
}

} // namespace placescope
