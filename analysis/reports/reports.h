// SPDX-License-Identifier: MIT
// The analyses people run in HTA and `nsys stats -r`, as named reports over a trace: each is a pure function of a
// ReportContext that returns one ReportTable (analysis/reports/<name>_report.cpp, one file each). The CLI's
// `placescope report`, and later the GUI's Reports panel and the HTML report, list and run them through this table.
#pragma once

#include "analysis/reports/report_context.h"
#include "analysis/reports/report_table.h"

#include <string>
#include <string_view>
#include <vector>

namespace placescope {

using ReportFunction = ReportTable (*)(const ReportContext& ctx);

struct ReportInfo
{
    std::string_view name;
    std::string_view description;
    ReportFunction run;
};

// Every report, in the order `report --list` prints them.
const std::vector<ReportInfo>& allReports();
// The report named `name`, null when there is none.
const ReportInfo* findReport(std::string_view name);
// "kernel_launch, idle, ...": for error messages.
std::string reportNames();

// Runs the report in a context: the table with the context's origin and its scope note added.
ReportTable runReport(const ReportContext& ctx, const ReportInfo& report);
// Loads the trace, builds the context and runs the report (tests, bench). A --step the trace lacks is an error.
Result<ReportTable> runReport(SqliteDb& db, const ReportInfo& report, const ReportOptions& options);

ReportTable kernelLaunchReport(const ReportContext& ctx);
ReportTable kernelLaunchesReport(const ReportContext& ctx);
ReportTable idleReport(const ReportContext& ctx);
ReportTable queueReport(const ReportContext& ctx);
ReportTable queueTimelineReport(const ReportContext& ctx);
ReportTable stepsReport(const ReportContext& ctx);
ReportTable bandwidthReport(const ReportContext& ctx);
ReportTable memoryReport(const ReportContext& ctx);
ReportTable annotationsReport(const ReportContext& ctx);
ReportTable overlapReport(const ReportContext& ctx);
ReportTable sequencesReport(const ReportContext& ctx);
ReportTable collectivesReport(const ReportContext& ctx);
ReportTable countersReport(const ReportContext& ctx);

} // namespace placescope
