// SPDX-License-Identifier: MIT
#include "analysis/job/job_html.h"

#include "analysis/job/job_tables.h"
#include "profiler/base/html_text.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cstdio>

namespace placescope {
namespace {

std::string htmlTable(const ReportTable& table)
{
    std::string out = "<h2>" + htmlEscape(table.title) + "</h2>\n<table>\n<tr>";
    for (const ReportColumn& column : table.columns)
        out += "<th>" + htmlEscape(column.header) + "</th>";
    out += "</tr>\n";
    for (size_t r = 0; r < table.rows.size(); ++r) {
        out += "<tr>";
        for (size_t c = 0; c < table.columns.size(); ++c)
            out += std::string(table.columns[c].kind == ColumnKind::Text ? "<td>" : "<td class=n>")
                + htmlEscape(formatCell(table, r, c)) + "</td>";
        out += "</tr>\n";
    }
    out += "</table>\n";
    for (const std::string& note : table.notes)
        out += "<p class=note>" + htmlEscape(note) + "</p>\n";
    return out;
}

// Step time as a colour from pale (the step's fastest rank) to red (its slowest).
std::string heatmap(const JobReduction& job)
{
    std::string out = "<h2>Step time, rank x step (the culprit of each step is marked &#9679;)</h2>\n"
                      "<table class=heat>\n<tr><th>Rank</th>";
    for (int64_t step : job.steps)
        out += "<th>" + std::to_string(step) + "</th>";
    out += "</tr>\n";
    std::vector<std::pair<int64_t, int64_t>> range(job.steps.size(), { INT64_MAX, 0 });
    for (const auto& row : job.cells)
        for (size_t s = 0; s < row.size(); ++s)
            if (row[s].present)
                range[s]
                    = { std::min(range[s].first, row[s].durationNs), std::max(range[s].second, row[s].durationNs) };
    for (size_t i = 0; i < job.ranks.size(); ++i) {
        out += "<tr><th>" + std::to_string(job.ranks[i].rank) + "</th>";
        for (size_t s = 0; s < job.steps.size(); ++s) {
            const JobCell& cell = job.cells[i][s];
            if (!cell.present) {
                out += "<td></td>";
                continue;
            }
            const int64_t span = range[s].second - range[s].first;
            const int heat = span > 0 ? static_cast<int>(200 * (cell.durationNs - range[s].first) / span) : 0;
            char colour[32];
            std::snprintf(colour, sizeof colour, "#%02x%02x%02x", 255, 240 - heat, 240 - heat);
            const bool culprit = job.stepSummaries[s].culpritRank == job.ranks[i].rank;
            out += std::string("<td style=\"background:") + colour + "\" title=\"rank "
                + std::to_string(job.ranks[i].rank) + ", step " + std::to_string(job.steps[s]) + ": "
                + formatNanoseconds(static_cast<double>(cell.durationNs)) + ", wait "
                + formatNanoseconds(static_cast<double>(cell.waitNs)) + "\">" + (culprit ? "&#9679;" : "") + "</td>";
        }
        out += "</tr>\n";
    }
    return out + "</table>\n";
}

} // namespace

std::string jobHtml(const JobReduction& job, const std::vector<std::string>& failedInputs, const std::string& title)
{
    std::string out = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + htmlEscape(title)
        + "</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1em}"
          "td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}td.n{text-align:right}"
          ".heat td{width:14px;height:14px;padding:0;text-align:center;border:1px solid #fff}"
          ".note{color:#555;font-size:12px}.verdict{font-size:16px;font-weight:bold}</style></head><body>\n";
    out += "<h1>" + htmlEscape(title) + "</h1>\n<p class=verdict>" + htmlEscape(jobVerdict(job)) + "</p>\n";
    out += heatmap(job);
    for (const JobReportInfo& report : jobReports())
        if (auto table = jobReportTable(job, report.name, failedInputs))
            out += htmlTable(*table);
    return out + "</body></html>\n";
}

std::string jobText(const JobReduction& job, const std::vector<std::string>& failedInputs)
{
    std::string out = jobVerdict(job) + "\n\n";
    for (const char* name : { "steps", "stragglers", "clocks" })
        if (auto table = jobReportTable(job, name, failedInputs))
            out += renderTable(*table, TableFormat::Text) + "\n";
    return out;
}

} // namespace placescope
