// SPDX-License-Identifier: MIT
// Finds the iterations (steps) of a run so that findings can be given per step: recorded steps (PS_STEPS,
// from PyTorch's ProfilerStep#N), else NVTX / annotation ranges named like steps, else a repeating kernel
// pattern on the busiest GPU lane, else the whole trace as one step. Pure function of TraceData.
#pragma once

#include "analysis/trace/intervals.h"
#include "analysis/trace/trace_data.h"

#include <string>
#include <vector>

namespace placescope {

struct StepSet
{
    enum class Source
    {
        Recorded,
        Annotation,
        KernelPattern,
        WholeTrace
    };
    Source source = Source::WholeTrace;
    std::string description; // "3 ProfilerStep ranges", "kernel 'x' repeats every 41 kernels"...
    std::vector<StepWindow> steps;
    IntervalList window; // union of the steps

    int64_t count() const { return static_cast<int64_t>(steps.size()); }
    int64_t totalNs() const; // summed step durations
    bool contains(int64_t timeNs) const { return containsPoint(window, timeNs); }
    double perStepMs(int64_t totalNs) const;
    double percentOfSteps(int64_t totalNs) const;
};

std::string_view stepSourceName(StepSet::Source source);
StepSet detectSteps(const TraceData& trace);

} // namespace placescope
