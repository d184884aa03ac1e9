// SPDX-License-Identifier: MIT
// overlap (HTA's comm/comp overlap): per step, rank and device, the time communication kernels ran (NCCL and other
// collectives, the findings' isCommunicationKernel), the part of it during which a compute kernel ran on the same
// device, and their ratio (HTA: time computing while communicating / time communicating). Printed whatever the
// figure, unlike the comm-overlap finding, which fires only above its threshold. Kernels belong to steps by the
// report's step rule.
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"
#include "analysis/trace/device_timeline.h"

#include <map>
#include <tuple>
#include <unordered_map>

namespace placescope {

ReportTable overlapReport(const ReportContext& ctx)
{
    struct Lists
    {
        std::vector<Interval> comm, compute;
    };
    std::map<std::tuple<int, int64_t, int64_t>, Lists> groups; // (step, process, device)
    std::unordered_map<int64_t, bool> isComm;
    for (const GpuOp& op : ctx.trace().gpuOps) {
        if (op.kind != GpuOp::Kind::Kernel || !ctx.inScope(op))
            continue;
        auto [it, inserted] = isComm.emplace(op.nameId, false);
        if (inserted)
            it->second = isCommunicationKernel(ctx.trace().name(op.nameId));
        Lists& lists = groups[{ ctx.stepOf(op), op.globalPid, op.deviceId }];
        (it->second ? lists.comm : lists.compute).push_back({ op.startNs, op.endNs });
    }
    ReportTable table;
    table.title = "Communication/computation overlap per step, rank and device";
    table.columns = { { "step", "Step", ColumnKind::Count }, { "rank", "Rank", ColumnKind::Count },
        { "device", "Device", ColumnKind::Count }, { "comm_ns", "Communication", ColumnKind::Ns },
        { "compute_ns", "Compute", ColumnKind::Ns }, { "overlapped_ns", "Comm during compute", ColumnKind::Ns },
        { "exposed_comm_ns", "Exposed comm", ColumnKind::Ns }, { "overlap_ratio", "Overlap", ColumnKind::Real } };
    bool anyComm = false;
    // One row per step, then per rank and device a row over every kernel in scope (step "all"): HTA's single
    // whole-trace figure, which a user compares with.
    std::map<std::pair<int64_t, int64_t>, Lists> wholeTrace; // (process, device)
    auto addRow = [&](ReportCell step, int64_t pid, int64_t device, Lists& lists) {
        const IntervalList comm = mergeIntervals(std::move(lists.comm));
        const IntervalList compute = mergeIntervals(std::move(lists.compute));
        const int64_t commNs = totalLength(comm);
        const int64_t overlapped = totalLength(intersectIntervals(comm, compute));
        anyComm = anyComm || commNs > 0;
        table.rows.push_back({ std::move(step), nullIfNegative(ctx.rankOf(pid)), device, commNs, totalLength(compute),
            overlapped, commNs - overlapped,
            commNs > 0 ? ReportCell(static_cast<double>(overlapped) / static_cast<double>(commNs)) : ReportCell() });
    };
    for (auto& [key, lists] : groups) {
        const auto& [step, pid, device] = key;
        Lists& total = wholeTrace[{ pid, device }];
        total.comm.insert(total.comm.end(), lists.comm.begin(), lists.comm.end());
        total.compute.insert(total.compute.end(), lists.compute.begin(), lists.compute.end());
        addRow(ctx.stepCell(step), pid, device, lists);
    }
    if (ctx.hasStepFilter()) // one step in scope: its rows are the totals
        wholeTrace.clear();
    for (auto& [key, lists] : wholeTrace)
        addRow(std::string(kAllStepsCell), key.first, key.second, lists);
    if (!wholeTrace.empty())
        table.notes.push_back("step 'all': every kernel in scope, in and between steps (HTA's whole-trace overlap)");
    if (!anyComm)
        table.notes.push_back("no communication kernels (NCCL, collectives) in scope: the overlap is undefined");
    return table;
}

} // namespace placescope
