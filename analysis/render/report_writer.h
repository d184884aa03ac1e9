// SPDX-License-Identifier: MIT
// Report writers: turn an AnalysisReport into text (terminal), Markdown, JSON (scripts) or one self-contained
// HTML file with inline SVG plots. Pure functions returning the whole document; writing the file atomically
// is the caller's job (writeReportFile).
#pragma once

#include "analysis/findings/analyzer.h"
#include "analysis/render/time_series_plots.h"

#include <string>
#include <string_view>
#include <vector>

namespace placescope {

enum class ReportFormat
{
    Text,
    Markdown,
    Html,
    Json
};

Result<ReportFormat> parseReportFormat(const std::string& name);
// `series`: the time-series reports of the same trace, plotted by the HTML report (the other formats ignore it).
std::string renderReport(const AnalysisReport& report, ReportFormat format, const TimeSeriesTables* series = nullptr);

std::string renderTextReport(const AnalysisReport& report);
std::string renderMarkdownReport(const AnalysisReport& report);
std::string renderJsonReport(const AnalysisReport& report);
// With `series`, the memory plot is drawn from the `memory` report's rows and the queue and bandwidth plots follow it.
std::string renderHtmlReport(const AnalysisReport& report, const TimeSeriesTables* series = nullptr);
// The HTML report's <style> element, for other one-file HTML outputs that should look the same.
std::string_view htmlReportStyle();

// Writes `content` to `path` through the shared OutputFile (temporary file + rename: no half-written report on
// failure); refuses a path that is one of `inputs` (the trace, the model) or not a regular file.
Status writeReportFile(
    const std::string& path, const std::string& content, const std::vector<std::string>& inputs = {});

// The line for every simulated fix together, empty without one. Every report format prints it, as it prints each
// finding's saving through savingText (analysis/findings/saving_text.h), so the figures read the same in all of them.
std::string allFixesText(const AnalysisReport& report);

} // namespace placescope
