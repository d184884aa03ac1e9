// SPDX-License-Identifier: MIT
#include "analysis/render/time_series_plots.h"

#include "analysis/render/svg_charts.h"
#include "analysis/reports/reports.h"
#include "profiler/base/units.h"

#include <cinttypes>
#include <cstdio>
#include <map>
#include <tuple>
#include <variant>

namespace placescope {
namespace {

const char* const kColors[]
    = { "#2e86c1", "#8e44ad", "#17a589", "#e67e22", "#c0392b", "#34495e", "#d4ac0d", "#7f8c8d" };
constexpr size_t kMaxSeries = sizeof kColors / sizeof kColors[0];

int64_t integerAt(const ReportTable& t, const std::vector<ReportCell>& row, const char* key)
{
    const ReportCell& cell = row[t.column(key)];
    return std::holds_alternative<int64_t>(cell) ? std::get<int64_t>(cell) : -1;
}

// A numeric cell as a double; -1 for an empty cell (svgLineChart leaves such points out).
double valueAt(const ReportTable& t, const std::vector<ReportCell>& row, const std::string& key)
{
    const ReportCell& cell = row[t.column(key)];
    if (std::holds_alternative<int64_t>(cell))
        return static_cast<double>(std::get<int64_t>(cell));
    if (std::holds_alternative<double>(cell))
        return std::get<double>(cell);
    return -1.0;
}

std::string textAt(const ReportTable& t, const std::vector<ReportCell>& row, const char* key)
{
    const ReportCell& cell = row[t.column(key)];
    return std::holds_alternative<std::string>(cell) ? std::get<std::string>(cell) : std::string();
}

// One plotted series: its rows' bucket starts and values, drawn against ms since the table's origin.
struct Series
{
    std::string name;
    std::vector<int64_t> bucketStartNs;
    std::vector<double> values;
    int64_t bucketNs = 0;
};

LineSeries toLine(
    const ReportTable& t, const char* report, const Series& s, const std::string& column, size_t index, bool gapsAsZero)
{
    LineSeries line { s.name, kColors[index % kMaxSeries], {}, {}, {} };
    std::string xs, ys;
    char buffer[64];
    for (size_t i = 0; i < s.bucketStartNs.size(); ++i) {
        // A bucket the report left out (no copy ran in it) is drawn at 0 instead of bridged by the line.
        if (gapsAsZero && i > 0 && s.bucketStartNs[i] - s.bucketStartNs[i - 1] > s.bucketNs) {
            line.x.push_back(static_cast<double>(s.bucketStartNs[i - 1] + s.bucketNs - t.originNs) / 1e6);
            line.y.push_back(0.0);
            line.x.push_back(static_cast<double>(s.bucketStartNs[i] - s.bucketNs - t.originNs) / 1e6);
            line.y.push_back(0.0);
        }
        line.x.push_back(static_cast<double>(s.bucketStartNs[i] - t.originNs) / 1e6);
        line.y.push_back(s.values[i]);
        std::snprintf(buffer, sizeof buffer, "%s%" PRId64, i ? " " : "", s.bucketStartNs[i]);
        xs += buffer;
        if (s.values[i] < 0)
            std::snprintf(buffer, sizeof buffer, "%snull", i ? " " : "");
        else
            std::snprintf(buffer, sizeof buffer, "%s%.17g", i ? " " : "", s.values[i]);
        ys += buffer;
    }
    line.attributes = "data-report='" + std::string(report) + "' data-series='" + htmlEscape(s.name) + "' data-column='"
        + column + "' data-x-ns='" + xs + "' data-y='" + ys + "'";
    return line;
}

std::string omittedNote(size_t total)
{
    return total > kMaxSeries ? "<p class='meta'>" + std::to_string(total - kMaxSeries)
            + " more series not drawn (placescope report lists them all).</p>"
                              : std::string();
}

std::string queuePlot(const ReportTable& t)
{
    if (t.rows.empty())
        return "<p class='meta'>No GPU op with a launch call: no queue to plot.</p>";
    std::map<std::tuple<int64_t, int64_t, int64_t>, Series> byStream;
    for (const auto& row : t.rows) {
        const int64_t rank = integerAt(t, row, "rank");
        Series& s = byStream[{ rank, integerAt(t, row, "device"), integerAt(t, row, "stream") }];
        if (s.name.empty())
            s.name = (rank >= 0 ? "rank " + std::to_string(rank) + " " : std::string()) + "device "
                + std::to_string(integerAt(t, row, "device")) + " stream "
                + std::to_string(integerAt(t, row, "stream"));
        s.bucketStartNs.push_back(integerAt(t, row, "bucket_start_ns"));
        s.values.push_back(valueAt(t, row, "mean"));
        s.bucketNs = integerAt(t, row, "bucket_ns");
    }
    std::vector<LineSeries> lines;
    for (const auto& [key, s] : byStream)
        if (lines.size() < kMaxSeries)
            lines.push_back(toLine(t, "queue_timeline", s, "mean", lines.size(), false));
    LineChartOptions o;
    o.xLabel = "time since the first event (ms)";
    o.yLabel = "ops queued (mean per bucket)";
    return svgLineChart(lines, o) + omittedNote(byStream.size());
}

std::string memoryPlots(const TimeSeriesTables& tables)
{
    const ReportTable& t = tables.memory;
    if (t.rows.empty())
        return "<p class='meta'>The trace has no memory events (PyTorch records them with profile_memory=True).</p>";
    std::map<int64_t, std::pair<Series, Series>> byDevice; // allocated, reserved
    for (const auto& row : t.rows) {
        auto& [allocated, reserved] = byDevice[integerAt(t, row, "device")];
        allocated.name = "allocated";
        reserved.name = "reserved";
        for (auto [series, key] :
            { std::pair { &allocated, "allocated_max" }, std::pair { &reserved, "reserved_max" } }) {
            series->bucketStartNs.push_back(integerAt(t, row, "bucket_start_ns"));
            series->values.push_back(valueAt(t, row, key));
            series->bucketNs = integerAt(t, row, "bucket_ns");
        }
    }
    std::string html;
    for (const auto& [device, pair] : byDevice) {
        Series allocated = pair.first, reserved = pair.second;
        allocated.name = "device " + std::to_string(device) + " allocated";
        reserved.name = "device " + std::to_string(device) + " reserved";
        LineChartOptions o;
        o.xLabel = "time since the first event (ms)";
        o.yLabel = "GPU " + std::to_string(device) + " memory (max per bucket)";
        o.bytesAxis = true;
        if (auto capacity = tables.capacityBytes.find(device); capacity != tables.capacityBytes.end()) {
            o.limit = static_cast<double>(capacity->second);
            o.limitLabel = "capacity " + formatBytes(capacity->second);
        }
        html += svgLineChart({ toLine(t, "memory", reserved, "reserved_max", 1, false),
                                 toLine(t, "memory", allocated, "allocated_max", 0, false) },
            o);
    }
    return html;
}

std::string bandwidthPlot(const ReportTable& t)
{
    if (t.rows.empty())
        return "<p class='meta'>No copies or memsets in the trace.</p>";
    std::map<std::string, Series> byKind;
    for (const auto& row : t.rows) {
        const std::string name = textAt(t, row, "operation") + " (" + textAt(t, row, "memory") + ")";
        Series& s = byKind[name];
        s.name = name;
        s.bucketStartNs.push_back(integerAt(t, row, "bucket_start_ns"));
        s.values.push_back(valueAt(t, row, "gbps"));
        s.bucketNs = integerAt(t, row, "bucket_ns");
    }
    std::vector<LineSeries> lines;
    for (const auto& [name, s] : byKind)
        if (lines.size() < kMaxSeries)
            lines.push_back(toLine(t, "bandwidth", s, "gbps", lines.size(), true));
    LineChartOptions o;
    o.xLabel = "time since the first event (ms)";
    o.yLabel = "GB/s (bytes moved in the bucket / bucket width)";
    return svgLineChart(lines, o) + omittedNote(byKind.size());
}

} // namespace

Result<TimeSeriesTables> timeSeriesTables(const TraceData& trace)
{
    PLACESCOPE_ASSIGN_OR_RETURN(ReportContext ctx, ReportContext::create(trace, ReportOptions {}));
    TimeSeriesTables tables;
    tables.queue = runReport(ctx, *findReport("queue_timeline"));
    tables.memory = runReport(ctx, *findReport("memory"));
    tables.bandwidth = runReport(ctx, *findReport("bandwidth"));
    for (const GpuDevice& device : trace.devices)
        if (device.totalMemoryBytes > 0)
            tables.capacityBytes[device.id] = device.totalMemoryBytes;
    return tables;
}

std::string timeSeriesPlotsHtml(const TimeSeriesTables& tables)
{
    std::string html;
    html += "<h2>Launch queue length per stream over time</h2>" + queuePlot(tables.queue)
        + "<p class='method'>GPU ops launched and not yet finished, mean over each of 50 buckets (HTA's queue length; "
          "placescope report queue_timeline).</p>";
    html += "<h2>Device memory over time</h2>" + memoryPlots(tables)
        + "<p class='method'>The allocator's largest allocated and reserved bytes in each bucket (placescope report "
          "memory).</p>";
    html += "<h2>Copy bandwidth over time</h2>" + bandwidthPlot(tables.bandwidth)
        + "<p class='method'>Bytes moved per bucket over the bucket's width, per copy kind and memory type (HTA's "
          "memory bandwidth time series; placescope report bandwidth).</p>";
    return html;
}

} // namespace placescope
