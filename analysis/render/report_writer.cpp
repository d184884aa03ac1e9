// SPDX-License-Identifier: MIT
#include "analysis/render/report_writer.h"

#include "profiler/base/output_file.h"
#include "profiler/base/units.h"

namespace placescope {

Result<ReportFormat> parseReportFormat(const std::string& name)
{
    if (name == "text" || name == "txt")
        return ReportFormat::Text;
    if (name == "md" || name == "markdown")
        return ReportFormat::Markdown;
    if (name == "html")
        return ReportFormat::Html;
    if (name == "json")
        return ReportFormat::Json;
    return Status::error("unknown report format '" + name + "' (expected text, md, html or json)");
}

std::string renderReport(const AnalysisReport& report, ReportFormat format, const TimeSeriesTables* series)
{
    switch (format) {
    case ReportFormat::Text:
        return renderTextReport(report);
    case ReportFormat::Markdown:
        return renderMarkdownReport(report);
    case ReportFormat::Html:
        return renderHtmlReport(report, series);
    case ReportFormat::Json:
        return renderJsonReport(report);
    }
    return {};
}

Status writeReportFile(const std::string& path, const std::string& content, const std::vector<std::string>& inputs)
{
    return writeFileAtomically(path, content, inputs);
}

std::string allFixesText(const AnalysisReport& r)
{
    if (!r.allFixes)
        return {};
    const AllFixesPrediction& a = *r.allFixes;
    std::string edits;
    for (const std::string& e : a.edits)
        edits += " --edit '" + e + "'";
    const double replayMs = static_cast<double>(a.replayStepNs) / 1e6;
    const double predictedMs = static_cast<double>(a.predictedStepNs) / 1e6;
    return "All simulated fixes together: step " + formatNanoseconds(replayMs * 1e6) + " -> "
        + formatNanoseconds(predictedMs * 1e6) + " ("
        + formatPercent(replayMs > 0 ? 100.0 * (replayMs - predictedMs) / replayMs : 0.0)
        + " less; the unedited replay reproduces the measured "
        + formatNanoseconds(static_cast<double>(a.measuredStepNs)) + "). Reproduce with: placescope whatif TRACE"
        + edits;
}

} // namespace placescope
