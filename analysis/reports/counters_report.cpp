// SPDX-License-Identifier: MIT
// counters (HTA's CUPTI counter analysis): hardware counter values per kernel and the framework op that launched it,
// from PS_COUNTERS (Kineto's cuda_profiler_range events: CUPTI's range profiler, one range per kernel, metrics such as
// smsp__sass_thread_inst_executed_op_ffma_pred_on.sum). A range reaches its op through its launch's correlation id ->
// PS_EXTERNAL_CORRELATION -> the op with that external id; unlinked ranges have no op. Per (kernel, op, metric): how
// many ranges, the sum, mean, min and max of the value. A trace without counters gets a one-line note and no rows.
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace placescope {

ReportTable countersReport(const ReportContext& ctx)
{
    const TraceData& trace = ctx.trace();
    ReportTable table;
    table.title = "CUPTI counters per kernel and op";
    table.columns = { { "kernel", "Kernel", ColumnKind::Text }, { "op", "Op", ColumnKind::Text },
        { "metric", "Metric", ColumnKind::Text }, { "ranges", "Ranges", ColumnKind::Count },
        { "sum", "Sum", ColumnKind::Real }, { "mean", "Mean", ColumnKind::Real }, { "min", "Min", ColumnKind::Real },
        { "max", "Max", ColumnKind::Real } };
    if (trace.counters.empty()) {
        table.notes.push_back("no counter data: the trace has no CUPTI range profiler events (PS_COUNTERS; PyTorch "
                              "records them with experimental_config's profiler_metrics)");
        return table;
    }
    std::unordered_map<int64_t, int64_t> opByExternalId; // external id -> op name id
    for (const HostRange& r : trace.hostRanges)
        if (!r.isNvtx && r.externalId >= 0)
            opByExternalId.emplace(r.externalId, r.nameId);
    struct Totals
    {
        int64_t ranges = 0;
        double sum = 0, min = 0, max = 0;
    };
    std::map<std::tuple<std::string, std::string, std::string>, Totals> groups;
    int64_t unlinked = 0;
    for (const RangeCounter& c : trace.counters) {
        if (!ctx.hostInScope(c.globalPid, c.startNs))
            continue;
        std::string op;
        auto external = c.correlationId < 0
            ? trace.externalIdOfCorrelation.end()
            : trace.externalIdOfCorrelation.find(TraceData::correlationKey(c.globalPid, c.correlationId));
        if (external != trace.externalIdOfCorrelation.end())
            if (auto it = opByExternalId.find(external->second); it != opByExternalId.end())
                op = trace.name(it->second);
        if (op.empty())
            ++unlinked;
        Totals& t = groups[{ ctx.kernelName(c.nameId), op, c.metric }];
        t.min = t.ranges == 0 ? c.value : std::min(t.min, c.value);
        t.max = t.ranges == 0 ? c.value : std::max(t.max, c.value);
        ++t.ranges;
        t.sum += c.value;
    }
    for (const auto& [key, t] : groups) {
        const auto& [kernel, op, metric] = key;
        table.rows.push_back({ kernel, op.empty() ? ReportCell() : ReportCell(op), metric, t.ranges, t.sum,
            t.sum / static_cast<double>(t.ranges), t.min, t.max });
    }
    if (unlinked > 0)
        table.notes.push_back(std::to_string(unlinked)
            + " counter value(s) reach no op (their range was not paired "
              "with a launch, or the launch with an op)");
    return table;
}

} // namespace placescope
