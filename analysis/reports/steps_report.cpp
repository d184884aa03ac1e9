// SPDX-License-Identifier: MIT
// steps: per step and device, the step's time by the one step rule (analysis/trace/step_times.h: its host range and
// the GPU work launched in it, from the previous step's end), the GPU's share of it (the device timeline's window: the
// step stretched to the end of the GPU work it launched), GPU busy time by category (compute, exposed communication,
// copies and memsets alone) and idle time by cause (host-bound, input-bound, sync wait, launch latency / dependency:
// the causes `analyze` reports, analysis/trace/device_timeline.h). Figures come from one DeviceTimeline over every
// step; a step's slice of it runs from the step's start to the next step's start, so GPU work of one step that runs
// after the next began counts for the next (the timeline is GPU time). An idle gap that crosses a step's start is split
// at it (addGapPart).
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"
#include "analysis/trace/device_timeline.h"

#include <algorithm>
#include <climits>

namespace placescope {
namespace {

int64_t overlap(int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
    return std::max<int64_t>(0, std::min(a1, b1) - std::max(a0, b0));
}

// Adds the part of `gap` inside [from, to) to `cause`. A gap is "host late" from its start until the next op's launch
// call returned, then "other" (device_timeline.cpp); the host-late part's split into host-bound, input-bound and sync
// wait is not positional, so a slice gets its share of it in proportion.
void addGapPart(const IdleGap& gap, int64_t from, int64_t to, int64_t cause[kIdleCauseCount])
{
    const int64_t otherNs = gap.causeNs[static_cast<int>(IdleCause::Other)];
    const int64_t lateEnd = gap.endNs - otherNs;
    const int64_t lateNs = lateEnd - gap.startNs;
    const int64_t lateIn = overlap(gap.startNs, lateEnd, from, to);
    cause[static_cast<int>(IdleCause::Other)] += overlap(lateEnd, gap.endNs, from, to);
    if (lateIn == 0)
        return;
    if (lateIn == lateNs) {
        for (IdleCause c : { IdleCause::HostBound, IdleCause::InputBound, IdleCause::SyncWait })
            cause[static_cast<int>(c)] += gap.causeNs[static_cast<int>(c)];
        return;
    }
    int64_t given = 0;
    for (IdleCause c : { IdleCause::InputBound, IdleCause::SyncWait }) {
        const int64_t share = static_cast<int64_t>(static_cast<double>(gap.causeNs[static_cast<int>(c)])
            * static_cast<double>(lateIn) / static_cast<double>(lateNs));
        cause[static_cast<int>(c)] += share;
        given += share;
    }
    cause[static_cast<int>(IdleCause::HostBound)] += lateIn - given;
}

} // namespace

ReportTable stepsReport(const ReportContext& ctx)
{
    const DeviceTimeline timeline = DeviceTimeline::build(ctx.trace(), ctx.steps());
    ReportTable table;
    table.title = "Steps: GPU busy by category and idle by cause, per device";
    table.columns = { { "step", "Step", ColumnKind::Count }, { "rank", "Rank", ColumnKind::Count },
        { "device", "Device", ColumnKind::Count }, { "step_ns", "Step time", ColumnKind::Ns },
        { "gpu_window_ns", "GPU window", ColumnKind::Ns }, { "busy_ns", "Busy", ColumnKind::Ns },
        { "compute_ns", "Compute", ColumnKind::Ns }, { "comm_ns", "Comm (exposed)", ColumnKind::Ns },
        { "copy_only_ns", "Copy only", ColumnKind::Ns }, { "idle_ns", "Idle", ColumnKind::Ns },
        { "host_bound_ns", "Host-bound", ColumnKind::Ns }, { "input_bound_ns", "Input-bound", ColumnKind::Ns },
        { "sync_wait_ns", "Sync wait", ColumnKind::Ns }, { "other_ns", "Latency/dep.", ColumnKind::Ns } };
    for (const DeviceLane& lane : timeline.lanes) {
        std::vector<const StepWindow*> windows;
        for (const StepWindow& w : ctx.steps().steps)
            if (w.globalPid == lane.globalPid)
                windows.push_back(&w);
        if (windows.empty())
            for (const StepWindow& w : ctx.steps().steps)
                if (w.globalPid < 0 || w.globalPid == lane.globalPid)
                    windows.push_back(&w);
        std::sort(windows.begin(), windows.end(),
            [](const StepWindow* a, const StepWindow* b) { return a->startNs < b->startNs; });
        const IntervalList exposedComm = subtractIntervals(lane.commBusy, lane.computeBusy);
        std::vector<Interval> kernelParts(lane.computeBusy.begin(), lane.computeBusy.end());
        kernelParts.insert(kernelParts.end(), lane.commBusy.begin(), lane.commBusy.end());
        const IntervalList kernels = mergeIntervals(std::move(kernelParts));
        for (size_t i = 0; i < windows.size(); ++i) {
            const StepWindow& w = *windows[i];
            const size_t index = static_cast<size_t>(&w - ctx.steps().steps.data());
            const int64_t stepNs = index < ctx.steps().times.steps.size() ? ctx.steps().times.steps[index].durationNs
                                                                          : w.endNs - w.startNs;
            if (!ctx.stepInScope(ctx.positionOfStep(w.stepNumber)))
                continue;
            const int64_t from = w.startNs;
            const int64_t to = i + 1 < windows.size() ? windows[i + 1]->startNs : INT64_MAX;
            const int64_t window = overlapLength(lane.window, from, to);
            const int64_t busy = overlapLength(lane.busy, from, to);
            int64_t cause[kIdleCauseCount] = { 0, 0, 0, 0 };
            auto gap = std::upper_bound(
                lane.gaps.begin(), lane.gaps.end(), from, [](int64_t t, const IdleGap& g) { return t < g.endNs; });
            for (; gap != lane.gaps.end() && gap->startNs < to; ++gap)
                addGapPart(*gap, from, to, cause);
            table.rows.push_back({ w.stepNumber, nullIfNegative(lane.rank), lane.deviceId, stepNs, window, busy,
                overlapLength(lane.computeBusy, from, to), overlapLength(exposedComm, from, to),
                busy - overlapLength(kernels, from, to), window - busy, cause[static_cast<int>(IdleCause::HostBound)],
                cause[static_cast<int>(IdleCause::InputBound)], cause[static_cast<int>(IdleCause::SyncWait)],
                cause[static_cast<int>(IdleCause::Other)] });
        }
    }
    std::stable_sort(table.rows.begin(), table.rows.end(),
        [](const auto& a, const auto& b) { return std::get<int64_t>(a[0]) < std::get<int64_t>(b[0]); });
    table.notes.push_back("idle = GPU window - busy; the causes add up to it less the gaps of 30 ns or less (kernel "
                          "waits), which no cause claims; a gap across a step boundary is split at it");
    return table;
}

} // namespace placescope
