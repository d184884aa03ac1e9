// SPDX-License-Identifier: MIT
// kernel_launch (HTA's CUDA kernel launch stats, grouped by kernel name): for each kernel, the launch call's duration,
// the launch delay (launch call start to kernel start) and the kernel's duration; per name their means, the longest
// delay, and how many kernels ran shorter than the call that launched them (launch-bound: fusion or CUDA graphs help).
// Kernels with no launch call in the trace count in `kernels` and not in the launch columns.
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"

#include <algorithm>
#include <map>

namespace placescope {

ReportTable kernelLaunchReport(const ReportContext& ctx)
{
    struct Totals
    {
        int64_t kernels = 0, kernelNs = 0, launched = 0, callNs = 0, delayNs = 0, maxDelayNs = 0, shorter = 0;
    };
    std::map<std::string, Totals> byName;
    int64_t unlinked = 0;
    for (const GpuOp& op : ctx.trace().gpuOps) {
        if (op.kind != GpuOp::Kind::Kernel || !ctx.inScope(op))
            continue;
        Totals& t = byName[ctx.kernelName(op.nameId)];
        ++t.kernels;
        t.kernelNs += op.durationNs();
        const ApiCall* call = ctx.launchOf(op);
        if (!call) {
            ++unlinked;
            continue;
        }
        const int64_t callNs = call->endNs - call->startNs;
        const int64_t delayNs = op.startNs - call->startNs;
        ++t.launched;
        t.callNs += callNs;
        t.delayNs += delayNs;
        t.maxDelayNs = t.launched == 1 ? delayNs : std::max(t.maxDelayNs, delayNs);
        if (op.durationNs() < callNs)
            ++t.shorter;
    }
    std::vector<std::pair<std::string, Totals>> rows(byName.begin(), byName.end());
    std::stable_sort(
        rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.kernelNs > b.second.kernelNs; });

    ReportTable table;
    table.title = "Kernel launches by kernel name (longest total kernel time first)";
    table.columns = { { "kernels", "Kernels", ColumnKind::Count },
        { "kernel_total_ns", "Kernel total", ColumnKind::Ns }, { "kernel_mean_ns", "Kernel mean", ColumnKind::Ns },
        { "launched", "With launch", ColumnKind::Count }, { "launch_call_mean_ns", "Launch call mean", ColumnKind::Ns },
        { "launch_delay_mean_ns", "Launch delay mean", ColumnKind::Ns },
        { "launch_delay_max_ns", "Launch delay max", ColumnKind::Ns },
        { "shorter_than_launch", "Shorter than launch", ColumnKind::Count }, { "name", "Name", ColumnKind::Text } };
    for (const auto& [name, t] : rows) {
        const bool launched = t.launched > 0;
        table.rows.push_back({ t.kernels, t.kernelNs, roundedMean(t.kernelNs, t.kernels), t.launched,
            launched ? ReportCell(roundedMean(t.callNs, t.launched)) : ReportCell(),
            launched ? ReportCell(roundedMean(t.delayNs, t.launched)) : ReportCell(),
            launched ? ReportCell(t.maxDelayNs) : ReportCell(), t.shorter, name });
    }
    if (unlinked > 0)
        table.notes.push_back(std::to_string(unlinked)
            + " kernel(s) have no launch call in the trace (no matching correlation id): counted in "
              "kernels, not in the launch columns");
    return table;
}

} // namespace placescope
