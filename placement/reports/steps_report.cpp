// SPDX-License-Identifier: MIT
// steps: per step and device, the step's host duration, the GPU's share of it (the device timeline's window: the step
// stretched to the end of the GPU work it launched), GPU busy time by category (compute, exposed communication, copies
// and memsets alone) and idle time by cause (host-bound, input-bound, sync wait, launch latency / dependency: the
// causes `analyze` reports, placement/findings/device_timeline.h). Figures come from one DeviceTimeline over every
// step; a step's slice of it runs from the step's start to the next step's start, so GPU work of one step that runs
// after the next began counts for the next (the timeline is GPU time). An idle gap counts for the step it starts in.
#include "placement/findings/device_timeline.h"
#include "placement/reports/report_math.h"
#include "placement/reports/reports.h"

#include <algorithm>
#include <climits>

namespace placescope {

ReportTable stepsReport(const ReportContext& ctx)
{
    const DeviceTimeline timeline = DeviceTimeline::build(ctx.trace(), ctx.steps());
    ReportTable table;
    table.title = "Steps: GPU busy by category and idle by cause, per device";
    table.columns = { { "step", "Step", ColumnKind::Count },
                      { "rank", "Rank", ColumnKind::Count },
                      { "device", "Device", ColumnKind::Count },
                      { "step_ns", "Step time", ColumnKind::Ns },
                      { "gpu_window_ns", "GPU window", ColumnKind::Ns },
                      { "busy_ns", "Busy", ColumnKind::Ns },
                      { "compute_ns", "Compute", ColumnKind::Ns },
                      { "comm_ns", "Comm (exposed)", ColumnKind::Ns },
                      { "copy_only_ns", "Copy only", ColumnKind::Ns },
                      { "idle_ns", "Idle", ColumnKind::Ns },
                      { "host_bound_ns", "Host-bound", ColumnKind::Ns },
                      { "input_bound_ns", "Input-bound", ColumnKind::Ns },
                      { "sync_wait_ns", "Sync wait", ColumnKind::Ns },
                      { "other_ns", "Latency/dep.", ColumnKind::Ns } };
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
            if (!ctx.stepInScope(ctx.positionOfStep(w.stepNumber)))
                continue;
            const int64_t from = w.startNs;
            const int64_t to = i + 1 < windows.size() ? windows[i + 1]->startNs : INT64_MAX;
            const int64_t window = overlapLength(lane.window, from, to);
            const int64_t busy = overlapLength(lane.busy, from, to);
            int64_t cause[kIdleCauseCount] = { 0, 0, 0, 0 };
            auto gap = std::lower_bound(lane.gaps.begin(), lane.gaps.end(), from,
                                        [](const IdleGap& g, int64_t t) { return g.startNs < t; });
            for (; gap != lane.gaps.end() && gap->startNs < to; ++gap)
                for (int c = 0; c < kIdleCauseCount; ++c)
                    cause[c] += gap->causeNs[c];
            table.rows.push_back({ w.stepNumber, nullIfNegative(lane.rank), lane.deviceId, w.endNs - w.startNs, window,
                                   busy, overlapLength(lane.computeBusy, from, to), overlapLength(exposedComm, from, to),
                                   busy - overlapLength(kernels, from, to), window - busy,
                                   cause[static_cast<int>(IdleCause::HostBound)],
                                   cause[static_cast<int>(IdleCause::InputBound)],
                                   cause[static_cast<int>(IdleCause::SyncWait)],
                                   cause[static_cast<int>(IdleCause::Other)] });
        }
    }
    std::stable_sort(table.rows.begin(), table.rows.end(), [](const auto& a, const auto& b) {
        return std::get<int64_t>(a[0]) < std::get<int64_t>(b[0]);
    });
    table.notes.push_back("idle = GPU window - busy; the causes add up to it less the gaps of 30 ns or less (kernel "
                          "waits), which no cause claims");
    return table;
}

} // namespace placescope
