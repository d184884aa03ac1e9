// SPDX-License-Identifier: MIT
#include "analysis/reports/reports.h"

namespace placescope {

const std::vector<ReportInfo>& allReports()
{
    static const std::vector<ReportInfo> kReports = {
        { "kernel_launch",
            "per kernel name: launch call time, launch delay, kernel time, kernels shorter than their launch",
            kernelLaunchReport },
        { "kernel_launches", "one row per kernel launch: launch call time, launch delay, kernel time, its rowid",
            kernelLaunchesReport },
        { "idle", "GPU idle time per device and stream and step: host wait, kernel wait, other", idleReport },
        { "queue", "per stream: GPU ops launched and not yet finished (mean, max), time at a full launch queue",
            queueReport },
        { "queue_timeline", "per stream over time (50 buckets): mean and max launch queue length",
            queueTimelineReport },
        { "steps", "per step and device: duration, GPU busy by category, idle by cause", stepsReport },
        { "bandwidth", "copy and memset bandwidth per kind and memory type over time", bandwidthReport },
        { "memory", "allocated and reserved memory per device: peak, when, and over time", memoryReport },
        { "annotations", "user annotations (record_function, NVTX): time, GPU kernels under each", annotationsReport },
        { "overlap", "communication/computation overlap per rank, device and step", overlapReport },
        { "sequences", "most frequent kernel sequences and the framework op that launches them", sequencesReport },
        { "collectives", "per collective kind and size: count, bytes, time, bus bandwidth", collectivesReport },
        { "counters", "CUPTI counter values per kernel and the op that launched it", countersReport },
    };
    return kReports;
}

const ReportInfo* findReport(std::string_view name)
{
    for (const auto& report : allReports())
        if (report.name == name)
            return &report;
    return nullptr;
}

std::string reportNames()
{
    std::string names;
    for (const auto& report : allReports())
        names += (names.empty() ? "" : ", ") + std::string(report.name);
    return names;
}

ReportTable runReport(const ReportContext& ctx, const ReportInfo& report)
{
    ReportTable table = report.run(ctx);
    table.originNs = ctx.originNs();
    table.notes.push_back(ctx.scopeNote());
    return table;
}

Result<ReportTable> runReport(SqliteDb& db, const ReportInfo& report, const ReportOptions& options)
{
    PLACESCOPE_ASSIGN_OR_RETURN(TraceData trace, TraceData::load(db));
    PLACESCOPE_ASSIGN_OR_RETURN(ReportContext ctx, ReportContext::create(trace, options));
    return runReport(ctx, report);
}

} // namespace placescope
