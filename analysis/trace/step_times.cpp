// SPDX-License-Identifier: MIT
#include "analysis/trace/step_times.h"

#include "profiler/model/global_ids.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace placescope {

int64_t StepTimes::totalNs() const
{
    int64_t total = 0;
    for (const StepTime& s : steps)
        total += s.durationNs;
    return total;
}

int64_t StepTimes::meanNs() const { return steps.empty() ? 0 : totalNs() / static_cast<int64_t>(steps.size()); }

int64_t StepTimes::setByGpuCount() const
{
    return std::count_if(steps.begin(), steps.end(), [](const StepTime& s) { return s.setByGpu(); });
}

std::string StepTimes::how() const
{
    if (!hostRanges)
        return "GPU time (no host step ranges)";
    const int64_t byGpu = setByGpuCount();
    const int64_t all = static_cast<int64_t>(steps.size());
    if (byGpu == 0)
        return "set by the host";
    if (byGpu == all)
        return "set by the GPU";
    return "set by the GPU in " + std::to_string(byGpu) + " of " + std::to_string(all) + " steps, by the host in "
        + std::to_string(all - byGpu);
}

StepTimes timeSteps(std::vector<StepTime> steps, bool hostRanges)
{
    StepTimes times;
    times.hostRanges = hostRanges;
    std::map<int64_t, std::vector<size_t>> byPid;
    for (size_t i = 0; i < steps.size(); ++i) {
        StepTime& s = steps[i];
        s.endNs = std::max(s.hostEndNs, s.gpuEndNs);
        byPid[s.globalPid < 0 ? -1 : s.globalPid / 0x1000000 % 0x1000000].push_back(i);
    }
    for (auto& [pid, order] : byPid) {
        std::stable_sort(
            order.begin(), order.end(), [&](size_t a, size_t b) { return steps[a].startNs < steps[b].startNs; });
        int64_t previousEnd = INT64_MIN;
        for (size_t i : order) {
            StepTime& s = steps[i];
            // A step that ends before the previous one (its GPU work overlapped the previous step's) takes no time.
            s.durationNs = previousEnd == INT64_MIN ? s.endNs - s.startNs : std::max<int64_t>(0, s.endNs - previousEnd);
            previousEnd = std::max(previousEnd, s.endNs);
        }
    }
    times.steps = std::move(steps);
    return times;
}

StepRangeLookup::StepRangeLookup(const std::vector<StepTime>& steps)
{
    for (size_t i = 0; i < steps.size(); ++i)
        m_ranges[pidKey(steps[i].globalPid)].push_back({ steps[i].startNs, steps[i].hostEndNs, static_cast<int>(i) });
    for (auto& [pid, ranges] : m_ranges)
        std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.startNs < b.startNs; });
}

int StepRangeLookup::find(int64_t globalPid, int64_t timeNs) const
{
    auto it = m_ranges.find(pidKey(globalPid));
    if (it == m_ranges.end())
        it = m_ranges.find(-1);
    if (it == m_ranges.end())
        return -1;
    const std::vector<Range>& ranges = it->second;
    auto after = std::upper_bound(
        ranges.begin(), ranges.end(), timeNs, [](int64_t t, const Range& r) { return t < r.startNs; });
    if (after == ranges.begin())
        return -1;
    const Range& r = *std::prev(after);
    return timeNs < r.endNs ? r.index : -1;
}

StepTimes measureStepTimes(const TraceData& trace, const std::vector<StepWindow>& windows, bool hostRanges)
{
    std::vector<StepTime> steps;
    steps.reserve(windows.size());
    for (const StepWindow& w : windows)
        steps.push_back({ w.stepNumber, w.globalPid, w.startNs, w.endNs });
    if (hostRanges && !trace.gpuOps.empty()) {
        // The start of each call that can have launched GPU work, by (process, correlation id).
        std::unordered_map<uint64_t, int64_t> launchStart;
        launchStart.reserve(trace.apiCalls.size());
        for (const ApiCall& call : trace.apiCalls)
            if (call.correlationId >= 0)
                launchStart.emplace(
                    TraceData::correlationKey(globalPidOfGlobalTid(call.globalTid), call.correlationId), call.startNs);
        const StepRangeLookup lookup(steps);
        for (const GpuOp& op : trace.gpuOps) {
            if (op.correlationId < 0)
                continue;
            auto launch = launchStart.find(TraceData::correlationKey(op.globalPid, op.correlationId));
            if (launch == launchStart.end())
                continue;
            const int step = lookup.find(op.globalPid, launch->second);
            if (step >= 0)
                steps[static_cast<size_t>(step)].gpuEndNs
                    = std::max(steps[static_cast<size_t>(step)].gpuEndNs, op.endNs);
        }
    }
    return timeSteps(std::move(steps), hostRanges);
}

} // namespace placescope
