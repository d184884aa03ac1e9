// SPDX-License-Identifier: MIT
// Event groups of one run: count and summed duration per name (kernel, framework op, annotation range), per
// stream or per class of GPU work, for the whole trace, per step (by StepIndex position) and outside every step. With
// host-time steps (ProfilerStep, annotations) GPU work belongs to the step in which its launch call ran (HTA's rule),
// so a kernel that runs after the host moved on still counts for its step; with steps found in the GPU's kernel pattern
// it belongs where it ran. Work outside every step is counted, not dropped. Pure function of TraceData.
#pragma once

#include "analysis/trace/step_index.h"
#include "analysis/trace/trace_data.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace placescope {

// Class: every GPU op (kernels, copies, memsets) by the shared classification (analysis/trace/kernel_class.h).
enum class DiffGrouping
{
    Kernel,
    Op,
    Annotation,
    Stream,
    Class
};

// "kernels", "ops", "annotations", "streams", "classes": the JSON key and the noun the text uses.
const char* groupingKey(DiffGrouping grouping);

struct GroupTotal
{
    int64_t count = 0;
    int64_t ns = 0;
    void add(int64_t durationNs)
    {
        ++count;
        ns += durationNs;
    }
};

using GroupTable = std::unordered_map<std::string, GroupTotal>;

struct EventGroups
{
    GroupTable whole;
    std::vector<GroupTable> perStep; // by step position
    GroupTotal outside; // in no step
    GroupTotal afterLast; // part of `outside`: after the last step ended
};

struct GroupingOptions
{
    DiffGrouping grouping = DiffGrouping::Kernel;
    // Kernels only: demangledName id -> the name to group by (shortName's text with --short-names). Empty: the
    // demangled name.
    std::unordered_map<int64_t, std::string> kernelNames;
};

EventGroups groupEvents(const TraceData& trace, const StepIndex& steps, const GroupingOptions& options);
// Several groupings at once, in the order asked; the GPU ones (kernels, streams, classes) share one pass over the ops.
std::vector<EventGroups> groupEvents(
    const TraceData& trace, const StepIndex& steps, const std::vector<GroupingOptions>& options);

} // namespace placescope
