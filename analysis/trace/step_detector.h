// SPDX-License-Identifier: MIT
// Finds the iterations (steps) of a run so that findings can be given per step: recorded steps (PS_STEPS,
// from PyTorch's ProfilerStep#N), else NVTX / annotation ranges named like steps, else the calls of the jitted
// function JAX called most (PjitFunction(NAME), one call per step), else a repeating kernel pattern on the busiest GPU
// lane, else the whole trace as one step. Pure function of TraceData.
#pragma once

#include "analysis/trace/intervals.h"
#include "analysis/trace/step_times.h"
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
    // Each step's time by the one step rule (step_times.h), steps[i]'s at times.steps[i]: what every command shows
    // as "the step".
    StepTimes times;

    int64_t count() const { return static_cast<int64_t>(steps.size()); }
    int64_t totalNs() const; // summed window lengths (what lies inside the steps; a step's time is in `times`)
    bool contains(int64_t timeNs) const { return containsPoint(window, timeNs); }
    double perStepMs(int64_t totalNs) const;
    double percentOfSteps(int64_t totalNs) const;
};

std::string_view stepSourceName(StepSet::Source source);
// Recorded and annotated steps are host ranges: GPU work launched in them belongs to them (step_times.h).
bool stepsAreHostRanges(StepSet::Source source);
StepSet detectSteps(const TraceData& trace);

} // namespace placescope
