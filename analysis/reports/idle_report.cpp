// SPDX-License-Identifier: MIT
// idle (HTA's idle time breakdown): per step, device and stream, the time between one GPU op's end and the next one's
// start, split three ways:
//   - kernel wait: gaps of at most 30 ns (HTA's consecutive_kernel_delay), the cost of starting back-to-back work;
//   - host wait: the part of a longer gap before the next op's launch call returned, when the GPU had nothing queued
//     because the host had not yet asked (the device timeline's rule, analysis/trace/device_timeline.h);
//   - other: the rest, when the op was queued but waited (on another stream, an event, launch latency).
// A device row (stream empty) does the same over the union of its streams. Kernels, copies and memsets all count as
// GPU work. Ops belong to steps by the report's step rule, and gaps are taken between ops of the same step only.
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>

namespace placescope {
namespace {

constexpr int64_t kKernelWaitNs = 30;
constexpr int64_t kAllStreams = INT64_MIN;

struct IdleTotals
{
    int64_t ops = 0, firstNs = INT64_MAX, lastNs = INT64_MIN, busyNs = 0, hostNs = 0, kernelWaitNs = 0, otherNs = 0;
    int64_t covered = INT64_MIN; // end of the busy time seen so far
    int64_t idleNs() const { return hostNs + kernelWaitNs + otherNs; }
};

void addOp(IdleTotals& t, const GpuOp& op, const ApiCall* launch)
{
    ++t.ops;
    t.firstNs = std::min(t.firstNs, op.startNs);
    t.lastNs = std::max(t.lastNs, op.endNs);
    if (t.covered == INT64_MIN) {
        t.busyNs += op.durationNs();
        t.covered = op.endNs;
        return;
    }
    const int64_t gapStart = t.covered;
    if (op.startNs > gapStart) {
        const int64_t gap = op.startNs - gapStart;
        if (gap <= kKernelWaitNs) {
            t.kernelWaitNs += gap;
        } else {
            const int64_t submitted = launch ? std::clamp(launch->endNs, gapStart, op.startNs) : gapStart;
            t.hostNs += submitted - gapStart;
            t.otherNs += op.startNs - submitted;
        }
    }
    if (op.endNs > t.covered) {
        t.busyNs += op.endNs - std::max(op.startNs, t.covered);
        t.covered = op.endNs;
    }
}

} // namespace

ReportTable idleReport(const ReportContext& ctx)
{
    // (step position, process, device, stream or kAllStreams)
    std::map<std::tuple<int, int64_t, int64_t, int64_t>, IdleTotals> groups;
    for (const GpuOp& op : ctx.trace().gpuOps) {
        if (!ctx.inScope(op))
            continue;
        const int step = ctx.stepOf(op);
        const ApiCall* launch = ctx.launchOf(op);
        addOp(groups[{ step, op.globalPid, op.deviceId, op.streamId }], op, launch);
        addOp(groups[{ step, op.globalPid, op.deviceId, kAllStreams }], op, launch);
    }
    ReportTable table;
    table.title = "GPU idle time per step, device and stream (stream '-': the device, all streams together)";
    table.columns = { { "step", "Step", ColumnKind::Count }, { "rank", "Rank", ColumnKind::Count },
        { "device", "Device", ColumnKind::Count }, { "stream", "Stream", ColumnKind::Count },
        { "ops", "GPU ops", ColumnKind::Count }, { "span_ns", "Span", ColumnKind::Ns },
        { "busy_ns", "Busy", ColumnKind::Ns }, { "idle_ns", "Idle", ColumnKind::Ns },
        { "host_wait_ns", "Host wait", ColumnKind::Ns }, { "kernel_wait_ns", "Kernel wait", ColumnKind::Ns },
        { "other_ns", "Other", ColumnKind::Ns }, { "idle_ratio", "Idle/span", ColumnKind::Real },
        { "step_ns", "Step", ColumnKind::Ns }, { "idle_step_ratio", "Idle/step", ColumnKind::Real } };
    // Steps in order, work outside every step (position -1) last.
    std::vector<std::pair<const std::tuple<int, int64_t, int64_t, int64_t>*, const IdleTotals*>> ordered;
    for (const auto& [key, totals] : groups)
        ordered.push_back({ &key, &totals });
    std::stable_partition(ordered.begin(), ordered.end(), [](const auto& e) { return std::get<0>(*e.first) >= 0; });
    // Per process, device and stream, the sums over the steps (step "all"): the figure a user compares with HTA's
    // whole-trace breakdown, its idle share over the steps' time rather than over the GPU's span.
    std::map<std::tuple<int64_t, int64_t, int64_t>, std::pair<IdleTotals, int64_t>> overSteps; // totals, span sum
    std::map<std::tuple<int64_t, int64_t, int64_t>, int64_t> stepTimeOf;
    auto addRow = [&](ReportCell step, int64_t pid, int64_t device, int64_t stream, const IdleTotals& t, int64_t span,
                      int64_t stepNs) {
        table.rows.push_back({ std::move(step), nullIfNegative(ctx.rankOf(pid)), device,
            stream == kAllStreams ? ReportCell() : ReportCell(stream), t.ops, span, t.busyNs, t.idleNs(), t.hostNs,
            t.kernelWaitNs, t.otherNs, span > 0 ? static_cast<double>(t.idleNs()) / static_cast<double>(span) : 0.0,
            stepNs > 0 ? ReportCell(stepNs) : ReportCell(),
            stepNs > 0 ? ReportCell(static_cast<double>(t.idleNs()) / static_cast<double>(stepNs)) : ReportCell() });
    };
    for (const auto& [key, t] : ordered) {
        const auto& [step, pid, device, stream] = *key;
        const int64_t span = t->lastNs - t->firstNs;
        const int64_t stepNs = step >= 0 ? ctx.stepIndex().durationNs(static_cast<size_t>(step)) : 0;
        addRow(ctx.stepCell(step), pid, device, stream, *t, span, stepNs);
        if (step < 0 || ctx.hasStepFilter()) // one step in scope: its rows are the totals
            continue;
        auto& [sum, spanSum] = overSteps[{ pid, device, stream }];
        sum.ops += t->ops;
        sum.busyNs += t->busyNs;
        sum.hostNs += t->hostNs;
        sum.kernelWaitNs += t->kernelWaitNs;
        sum.otherNs += t->otherNs;
        spanSum += span;
        stepTimeOf[{ pid, device, stream }] += stepNs;
    }
    for (const auto& [key, totals] : overSteps) {
        const auto& [pid, device, stream] = key;
        addRow(std::string(kAllStepsCell), pid, device, stream, totals.first, totals.second, stepTimeOf[key]);
    }
    if (!overSteps.empty())
        table.notes.push_back("step 'all': the sums over the steps (work outside every step left out); Idle/step: "
                              "idle time over the steps' time, HTA's idle share");
    table.notes.push_back(
        "host wait: before the next op's launch call returned; kernel wait: gaps <= 30 ns; per-device "
        "idle causes (host-bound, input-bound, sync wait) are in the steps report");
    return table;
}

} // namespace placescope
