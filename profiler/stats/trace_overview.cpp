// SPDX-License-Identifier: MIT
// Trace span, event counts and import problems, and computeTraceStats, which gathers every summary.
#include "profiler/stats/trace_stats.h"

#include <algorithm>

namespace placescope {

Result<TraceSpan> traceSpan(SqliteDb& db)
{
    // end is NULL for instants (NVTX marks) and absent for point events (memory); their start bounds the span.
    static constexpr const char* kTables[][2] = {
        { "CUPTI_ACTIVITY_KIND_KERNEL", "end" },
        { "CUPTI_ACTIVITY_KIND_MEMCPY", "end" },
        { "CUPTI_ACTIVITY_KIND_MEMSET", "end" },
        { "CUPTI_ACTIVITY_KIND_RUNTIME", "end" },
        { "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "end" },
        { "NVTX_EVENTS", "COALESCE(end, start)" },
        { "PS_FRAMEWORK_OPS", "end" },
        { "PS_MEMORY_EVENTS", "start" },
        { "CUDA_GPU_MEMORY_USAGE_EVENTS", "start" },
    };
    TraceSpan span;
    for (const auto& [table, end] : kTables) {
        if (!db.hasTable(table))
            continue;
        PLACESCOPE_ASSIGN_OR_RETURN(
            SqliteStatement bounds, db.prepare(std::string("SELECT MIN(start), MAX(") + end + ") FROM " + table));
        if (bounds.step() && !bounds.isNull(0)) {
            int64_t first = bounds.columnInt(0);
            int64_t last = bounds.columnInt(1);
            span.startNs = span.empty ? first : std::min(span.startNs, first);
            span.endNs = span.empty ? last : std::max(span.endNs, last);
            span.empty = false;
        }
        PLACESCOPE_RETURN_IF_ERROR(bounds.status());
    }
    return span;
}

Result<std::vector<ProblemRow>> importProblems(SqliteDb& db)
{
    std::vector<ProblemRow> rows;
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement problems,
        db.prepare("SELECT kind, severity, count, help, COALESCE(example, '') FROM PS_PROBLEMS"
                   " ORDER BY count DESC, kind"));
    while (problems.step())
        rows.push_back({ problems.columnText(0), problems.columnText(1), problems.columnInt(2), problems.columnText(3),
            problems.columnText(4) });
    PLACESCOPE_RETURN_IF_ERROR(problems.status());
    return rows;
}

Result<TraceCounts> traceCounts(SqliteDb& db)
{
    TraceCounts counts;
    auto format = db.prepare("SELECT value FROM PS_META WHERE key = 'source_format'");
    if (format.isOk() && format->step())
        counts.sourceFormat = format->columnText(0);
    std::pair<const char*, int64_t*> tables[] = {
        { "CUPTI_ACTIVITY_KIND_KERNEL", &counts.kernels },
        { "CUPTI_ACTIVITY_KIND_MEMCPY", &counts.memcpys },
        { "CUPTI_ACTIVITY_KIND_MEMSET", &counts.memsets },
        { "CUPTI_ACTIVITY_KIND_RUNTIME", &counts.apiCalls },
        { "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", &counts.syncs },
        { "NVTX_EVENTS", &counts.nvtx },
        { "PS_FRAMEWORK_OPS", &counts.frameworkOps },
        { "PS_MEMORY_EVENTS", &counts.memoryEvents },
    };
    for (auto& [table, field] : tables) {
        if (!db.hasTable(table))
            continue;
        PLACESCOPE_ASSIGN_OR_RETURN(*field, db.queryInt(std::string("SELECT COUNT(*) FROM ") + table));
    }
    return counts;
}

Result<TraceStats> computeTraceStats(SqliteDb& db, const StatsOptions& options)
{
    TraceStats stats;
    PLACESCOPE_ASSIGN_OR_RETURN(stats.counts, traceCounts(db));
    PLACESCOPE_ASSIGN_OR_RETURN(stats.span, traceSpan(db));
    PLACESCOPE_ASSIGN_OR_RETURN(stats.kernels, kernelSummary(db, options.topKernels, options.nameKind));
    PLACESCOPE_ASSIGN_OR_RETURN(stats.memoryOps, memoryOpSummary(db));
    PLACESCOPE_ASSIGN_OR_RETURN(stats.devices, deviceUtilization(db, stats.span));
    PLACESCOPE_ASSIGN_OR_RETURN(stats.problems, importProblems(db));
    return stats;
}

} // namespace placescope
