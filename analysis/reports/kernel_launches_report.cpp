// SPDX-License-Identifier: MIT
// kernel_launches (HTA's CUDA kernel launch stats, one row per launch): each kernel with a launch call in the trace,
// in start order: the call's duration, the launch delay (call start to kernel start), the kernel's duration, whether
// the kernel ran shorter than its call, and the kernel's rowid in CUPTI_ACTIVITY_KIND_KERNEL (so a GUI row can select
// its event). kernel_launch is the same figures summed by kernel name.
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"

namespace placescope {

ReportTable kernelLaunchesReport(const ReportContext& ctx)
{
    ReportTable table;
    table.title = "Kernel launches, one row per kernel (start order)";
    table.columns = { { "start_ns", "Start", ColumnKind::Timestamp }, { "device", "Device", ColumnKind::Count },
        { "stream", "Stream", ColumnKind::Count }, { "launch_call_ns", "Launch call", ColumnKind::Ns },
        { "launch_delay_ns", "Launch delay", ColumnKind::Ns }, { "kernel_ns", "Kernel", ColumnKind::Ns },
        { "shorter_than_launch", "Shorter", ColumnKind::Count }, { "correlation_id", "Correlation", ColumnKind::Count },
        { "kernel_rowid", "Row", ColumnKind::Count }, { "name", "Name", ColumnKind::Text } };
    int64_t unlinked = 0;
    for (const GpuOp& op : ctx.trace().gpuOps) {
        if (op.kind != GpuOp::Kind::Kernel || !ctx.inScope(op))
            continue;
        const ApiCall* call = ctx.launchOf(op);
        if (!call) {
            ++unlinked;
            continue;
        }
        const int64_t callNs = call->endNs - call->startNs;
        table.rows.push_back({ op.startNs, op.deviceId, op.streamId, callNs, op.startNs - call->startNs,
            op.durationNs(), int64_t { op.durationNs() < callNs ? 1 : 0 }, op.correlationId, nullIfNegative(op.rowId),
            ctx.kernelName(op.nameId) });
    }
    if (unlinked > 0)
        table.notes.push_back(
            std::to_string(unlinked) + " kernel(s) have no launch call in the trace and are left out");
    return table;
}

} // namespace placescope
