// SPDX-License-Identifier: MIT
// The one step rule every command uses (analyze, whatif, critical-path, `report steps`, diff, the GUI; issue 25).
// A step recorded or annotated on the host is its host range together with the GPU work launched in it (the launch
// call starts inside the range, matched by correlation id): it ends at the later of the range's end and the end of
// the last GPU work launched in it, so a GPU-bound run, whose host runs ahead of the GPU, has the GPU's step time.
// A step's time is the gap from the previous step's end (same process) to its own end: in steady state, consecutive
// steps hand over where the slower side finishes; the first step has nothing before it and counts from its own start.
// The mean is over every step, the first included (the steps' total / their count), as the step counts and the per
// step figures of findings always were. Steps found on the GPU (a repeating kernel pattern, the whole trace) are GPU
// time already: their window is the step.
#pragma once

#include "analysis/trace/trace_data.h"

#include <climits>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace placescope {

struct StepTime
{
    int64_t number = 0;
    int64_t globalPid = -1; // the process whose step it is; -1: every process
    int64_t startNs = 0; // the host range's start (a GPU-time step: its window's)
    int64_t hostEndNs = 0; // the host range's end
    int64_t gpuEndNs = INT64_MIN; // end of the last GPU work launched in the step; INT64_MIN: none known
    int64_t endNs = 0; // max(hostEndNs, gpuEndNs)
    int64_t durationNs = 0; // endNs - the previous step's endNs in the same process; the first: endNs - startNs

    bool setByGpu() const { return gpuEndNs > hostEndNs; }
};

struct StepTimes
{
    std::vector<StepTime> steps; // in the order they were given (StepSet::steps' order)
    bool hostRanges = false; // the steps are host ranges, extended by the GPU work launched in them

    int64_t totalNs() const;
    int64_t meanNs() const; // totalNs() / count, every step counted
    int64_t setByGpuCount() const;
    // What set the step time: "set by the host" (every range outlasts its GPU work), "set by the GPU" (every step
    // ends with GPU work launched in it), "set by the GPU in 2 of 5 steps, by the host in 3", "GPU time (no host
    // step ranges)".
    std::string how() const;
};

// Fills each step's endNs and durationNs from its startNs, hostEndNs and gpuEndNs. Steps of one process are taken in
// start order; `steps` keeps its order.
StepTimes timeSteps(std::vector<StepTime> steps, bool hostRanges);

// Which step's host range a launch call started in: per process, the ranges by start ([startNs, hostEndNs)).
class StepRangeLookup
{
public:
    explicit StepRangeLookup(const std::vector<StepTime>& steps);
    // Index into `steps` of the step of process `globalPid` (or of every process) holding `timeNs`; -1: none.
    int find(int64_t globalPid, int64_t timeNs) const;

private:
    struct Range
    {
        int64_t startNs, endNs;
        int index;
    };
    static int64_t pidKey(int64_t globalPid) { return globalPid < 0 ? -1 : globalPid / 0x1000000 % 0x1000000; }
    std::unordered_map<int64_t, std::vector<Range>> m_ranges; // by pid key (-1: ranges for every process)
};

// The rule on a measured trace: `windows` are detectSteps' steps; `hostRanges` says they are host ranges (recorded or
// annotated). GPU work is tied to its launch call through the trace's API calls; a trace loaded without its GPU ops
// and calls (TraceParts::ForReplay) gives the host ranges alone.
StepTimes measureStepTimes(const TraceData& trace, const std::vector<StepWindow>& windows, bool hostRanges);

} // namespace placescope
