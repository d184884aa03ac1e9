// SPDX-License-Identifier: MIT
// The HTML report: one self-contained file (inline CSS and SVG, no scripts, no external resources) with the
// plots first (time breakdown per device, utilization over time, memory against capacity, top kernels,
// layout-conversion share) and the ranked findings as cards.
#include "analysis/render/report_writer.h"

#include "analysis/findings/saving_text.h"
#include "analysis/render/svg_charts.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cstdio>

namespace placescope {

namespace {

const char* kStyle = R"(<style>
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px auto;max-width:920px;color:#1d232a;background:#fff}
h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:30px;border-bottom:1px solid #dde2e6;padding-bottom:4px}
.meta{color:#5b6670;font-size:13px}.note{background:#fff7e0;border-left:3px solid #e0a800;padding:6px 10px;font-size:13px}
svg text{font-size:11px;fill:#33404c}svg .lb{font-size:12px}svg .in{fill:#fff;font-size:11px}svg .lg{font-size:11px}
svg .grid{stroke:#e7ebee}svg .limit{stroke:#c0392b;stroke-dasharray:5 4}svg .ax{font-size:10px;fill:#5b6670}
.card{border:1px solid #dde2e6;border-radius:6px;padding:12px 16px;margin:14px 0}
.card h3{margin:0 0 6px 0;font-size:16px}.sev{display:inline-block;font-size:11px;padding:1px 7px;border-radius:9px;color:#fff;margin-right:6px}
.high{background:#c0392b}.warning{background:#d68910}.info{background:#5d6d7e}.save{font-weight:600}
table{border-collapse:collapse;font-size:12px;margin:6px 0}td,th{border:1px solid #e1e5e8;padding:3px 7px;text-align:left;vertical-align:top}
.method{color:#5b6670;font-size:12px}code{font-size:11px}
</style>)";

std::string breakdownChart(const AnalysisReport& r)
{
    std::vector<StackedRow> rows;
    for (const auto& d : r.devices) {
        StackedRow row { d.label, {} };
        row.segments.push_back({ "compute", "#2e86c1", static_cast<double>(d.computeNs) });
        row.segments.push_back({ "communication", "#8e44ad", static_cast<double>(d.commNs) });
        row.segments.push_back({ "copies", "#17a589", static_cast<double>(d.copyOnlyNs) });
        const char* colors[kIdleCauseCount] = { "#e67e22", "#f4d03f", "#e74c3c", "#bdc3c7" };
        for (int c = 0; c < kIdleCauseCount; ++c)
            row.segments.push_back({ "idle: " + std::string(idleCauseName(static_cast<IdleCause>(c))), colors[c],
                static_cast<double>(d.idleCauseNs[c]) });
        int64_t classified = 0;
        for (int c = 0; c < kIdleCauseCount; ++c)
            classified += d.idleCauseNs[c];
        row.segments.push_back(
            { "idle: short gaps", "#ecf0f1", static_cast<double>(std::max<int64_t>(0, d.idleNs - classified)) });
        rows.push_back(std::move(row));
    }
    return svgStackedBars(rows);
}

std::string utilizationChart(const AnalysisReport& r)
{
    const char* colors[] = { "#2e86c1", "#8e44ad", "#17a589", "#e67e22", "#c0392b", "#34495e" };
    std::vector<LineSeries> series;
    int64_t origin = INT64_MAX;
    for (const auto& d : r.devices)
        origin = std::min(origin, d.bucketStartNs);
    for (size_t i = 0; i < r.devices.size() && i < 6; ++i) {
        const auto& d = r.devices[i];
        LineSeries s { d.label, colors[i], {}, {}, {} };
        for (size_t b = 0; b < d.utilization.size(); ++b) {
            s.x.push_back(static_cast<double>(d.bucketStartNs - origin + static_cast<int64_t>(b) * d.bucketNs));
            s.y.push_back(d.utilization[b]);
        }
        series.push_back(std::move(s));
    }
    LineChartOptions o;
    o.xLabel = "time since the first analysed GPU op";
    o.xNanoseconds = true;
    o.yLabel = "GPU busy";
    o.yMax = 1.0;
    o.percentAxis = true;
    o.limit = 0.5;
    o.limitLabel = "50 % (Nsight gpu_time_util threshold)";
    return svgLineChart(series, o);
}

std::string memoryChart(const MemoryCurve& m)
{
    LineSeries reserved { "reserved", "#8e44ad", {}, {}, {} }, allocated { "allocated", "#2e86c1", {}, {}, {} };
    int64_t origin = m.points.empty() ? 0 : m.points.front().timeNs;
    for (const auto& p : m.points) {
        double x = static_cast<double>(p.timeNs - origin);
        reserved.x.push_back(x);
        reserved.y.push_back(static_cast<double>(p.reserved));
        allocated.x.push_back(x);
        allocated.y.push_back(static_cast<double>(p.allocated));
    }
    LineChartOptions o;
    o.xLabel = "time";
    o.xNanoseconds = true;
    o.yLabel = "GPU " + std::to_string(m.deviceId) + " memory";
    o.bytesAxis = true;
    if (m.capacityBytes > 0) {
        o.limit = static_cast<double>(m.capacityBytes);
        o.limitLabel = "capacity " + formatBytes(m.capacityBytes);
    }
    return svgLineChart({ reserved, allocated }, o);
}

std::string topKernelsChart(const AnalysisReport& r)
{
    std::vector<BarItem> items;
    for (const auto& k : r.topKernels) {
        double pct = r.kernelNs > 0 ? 100.0 * static_cast<double>(k.totalNs) / static_cast<double>(r.kernelNs) : 0.0;
        items.push_back({ k.name, static_cast<double>(k.totalNs),
            formatNanoseconds(static_cast<double>(k.totalNs)) + " (" + formatPercent(pct) + ", "
                + std::to_string(k.count) + "x)",
            "#2e86c1" });
    }
    return svgBarChart(items);
}

std::string layoutChart(const AnalysisReport& r)
{
    StackedRow row { "kernel time", {} };
    row.segments.push_back({ "layout conversions (cuDNN nchwToNhwc / nhwcToNchw, reformat, transpose)", "#e74c3c",
        static_cast<double>(r.layoutKernelNs) });
    row.segments.push_back({ "other kernels", "#2e86c1", static_cast<double>(r.kernelNs - r.layoutKernelNs) });
    return svgStackedBars({ row });
}

std::string findingCard(const Finding& f, int rank, int64_t originNs)
{
    std::string sev(severityName(f.severity));
    std::string s = "<div class='card'><h3><span class='sev " + sev + "'>" + sev + "</span>" + std::to_string(rank)
        + ". " + htmlEscape(f.title) + "</h3><div class='save'>Saving: " + htmlEscape(savingText(f.saving))
        + "</div><p>" + htmlEscape(f.summary)
        + "</p><table><tr><th>evidence</th><th>count</th><th>total</th><th>examples</th></tr>";
    for (const auto& e : f.evidence) {
        s += "<tr><td>" + htmlEscape(e.what) + "</td><td>" + (e.count ? std::to_string(e.count) : "") + "</td><td>"
            + (e.totalNs ? formatNanoseconds(static_cast<double>(e.totalNs)) : "")
            + (e.totalBytes ? " " + formatBytes(e.totalBytes) : "") + "</td><td>";
        for (const auto& x : e.examples) {
            if (x.startNs < 0) {
                s += htmlEscape(x.label) + "<br>";
                continue;
            }
            s += "<code>at " + formatNanoseconds(static_cast<double>(x.startNs - originNs))
                + (x.endNs > x.startNs ? " +" + formatNanoseconds(static_cast<double>(x.endNs - x.startNs)) : "")
                + "</code> " + htmlEscape(x.label) + "<br>";
        }
        s += "</td></tr>";
    }
    s += "</table><p class='method'>How estimated: " + htmlEscape(f.saving.method) + "</p><table>";
    for (const FrameworkFix& fix : frameworkFixes(f.fix))
        s += "<tr><th>" + htmlEscape(std::string(fix.label)) + "</th><td>" + htmlEscape(*fix.text) + "</td></tr>";
    s += "</table></div>";
    return s;
}

// Where GPU time goes, utilization, the time series (or memory), top kernels and the layout share: the sections a
// trace without GPU work leaves out.
std::string gpuSections(const AnalysisReport& r, const TimeSeriesTables* series)
{
    std::string h;
    h += "<h2>Where GPU time goes (analysed steps)</h2>" + breakdownChart(r);
    h += "<h2>GPU utilization over time</h2>" + utilizationChart(r);
    if (series) {
        h += timeSeriesPlotsHtml(*series);
    } else {
        for (const auto& m : r.memory)
            h += "<h2>Device memory, GPU " + std::to_string(m.deviceId) + "</h2>" + memoryChart(m);
        if (r.memory.empty())
            h += "<h2>Device memory</h2><p class='meta'>The trace has no allocator events (record with "
                 "profile_memory=True to see the memory curve).</p>";
    }
    h += "<h2>Top kernels by total time</h2>" + topKernelsChart(r);
    char share[128];
    std::snprintf(share, sizeof share, "%s of kernel time, %lld kernels",
        formatPercent(
            r.kernelNs > 0 ? 100.0 * static_cast<double>(r.layoutKernelNs) / static_cast<double>(r.kernelNs) : 0.0)
            .c_str(),
        static_cast<long long>(r.layoutKernelCount));
    h += "<h2>Layout-conversion share: " + std::string(share) + "</h2>" + layoutChart(r);
    return h;
}

} // namespace

std::string renderHtmlReport(const AnalysisReport& r, const TimeSeriesTables* series)
{
    std::string h = "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>Placescope: "
        + htmlEscape(r.traceName) + "</title>" + kStyle + "</head><body>\n";
    h += "<h1>Placescope analysis: " + htmlEscape(r.traceName) + "</h1><div class='meta'>";
    h += (r.gpuName.empty() ? std::string("GPU unknown") : htmlEscape(r.gpuName)) + " &middot; "
        + std::to_string(r.stepCount) + " step(s) from " + htmlEscape(r.stepSource) + " ("
        + htmlEscape(r.stepDescription) + "), mean " + formatNanoseconds(r.meanStepMs * 1e6)
        + (r.stepTimeHow.empty() ? "" : ", " + htmlEscape(r.stepTimeHow)) + " &middot; " + std::to_string(r.kernelCount)
        + " kernels, " + std::to_string(r.memcpyCount) + " copies &middot; " + std::to_string(r.findings.size())
        + " finding(s)</div>\n";
    for (const auto& note : r.notes)
        h += "<p class='note'>" + htmlEscape(note) + "</p>";
    h += "<h2>Findings, largest saving first</h2>";
    if (r.findings.empty())
        h += std::string("<p>") + kNoFindingsText + "</p>";
    else {
        h += "<table><tr><th>#</th><th>severity</th><th>finding</th><th>estimated saving</th></tr>";
        int rank = 0;
        for (const auto& f : r.findings)
            h += "<tr><td>" + std::to_string(++rank) + "</td><td>" + std::string(severityName(f.severity)) + "</td><td>"
                + htmlEscape(f.title) + "</td><td>" + htmlEscape(savingText(f.saving)) + "</td></tr>";
        h += "</table>";
    }
    if (const std::string all = allFixesText(r); !all.empty())
        h += "<p>" + htmlEscape(all) + "</p>";
    if (r.hasGpuWork())
        h += gpuSections(r, series);
    else
        h += std::string("<h2>GPU work</h2><p>") + kNoGpuWorkText + "</p>";
    if (r.tfOpPlacement)
        h += "<h2>TensorFlow op placement</h2><p>" + htmlEscape(opPlacementText(*r.tfOpPlacement))
            + "</p><p class='meta'>" + htmlEscape(opPlacementMeaning()) + "</p>";
    h += "<h2>Findings in detail</h2>";
    int rank = 0;
    for (const auto& f : r.findings)
        h += findingCard(f, ++rank, r.originNs);
    h += "\n</body></html>\n";
    return h;
}

// The report's stylesheet, shared with the other one-file HTML outputs (placescope diff) so they look alike.
std::string_view htmlReportStyle() { return kStyle; }

} // namespace placescope
