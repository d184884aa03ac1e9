// SPDX-License-Identifier: MIT
#include "analysis/render/svg_charts.h"

#include "profiler/base/units.h"

#include <algorithm>
#include <cstdio>

namespace placescope {

namespace {

std::string fmt(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string axisValue(double v, bool percent, bool bytes = false)
{
    if (bytes)
        return formatBytes(static_cast<int64_t>(v));
    char buf[32];
    if (percent)
        return formatPercentFixed(100.0 * v, 0);
    if (v >= 1e9)
        std::snprintf(buf, sizeof buf, "%.1f G", v / 1e9);
    else if (v >= 1e6)
        std::snprintf(buf, sizeof buf, "%.1f M", v / 1e6);
    else if (v >= 1e3)
        std::snprintf(buf, sizeof buf, "%.1f k", v / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

} // namespace

std::string svgStackedBars(const std::vector<StackedRow>& rows, int width)
{
    const int labelW = 150, barH = 26, gap = 10;
    // Legend first, wrapped to the chart width (about 6.5 px per character at 11 px).
    std::string legend;
    double x = labelW;
    int legendRows = rows.empty() ? 0 : 1;
    for (size_t i = 0; !rows.empty() && i < rows.front().segments.size(); ++i) {
        const auto& seg = rows.front().segments[i];
        double w = 26 + 6.5 * static_cast<double>(seg.name.size());
        if (x + w > width && x > labelW) {
            x = labelW;
            ++legendRows;
        }
        double y = 6 + 18.0 * (legendRows - 1);
        legend += "<rect x='" + fmt(x) + "' y='" + fmt(y) + "' width='12' height='12' fill='" + seg.color
            + "'/><text x='" + fmt(x + 16) + "' y='" + fmt(y + 11) + "' class='lg'>" + htmlEscape(seg.name) + "</text>";
        x += w;
    }
    const int legendH = 10 + 18 * legendRows;
    int height = legendH + static_cast<int>(rows.size()) * (barH + gap) + 4;
    std::string s = "<svg xmlns='http://www.w3.org/2000/svg' width='" + std::to_string(width) + "' height='"
        + std::to_string(height) + "' role='img'>" + legend;
    const double barW = width - labelW - 10;
    for (size_t i = 0; i < rows.size(); ++i) {
        int y = legendH + static_cast<int>(i) * (barH + gap);
        s += "<text x='0' y='" + std::to_string(y + 17) + "' class='lb'>" + htmlEscape(rows[i].label) + "</text>";
        double total = 0;
        for (const auto& seg : rows[i].segments)
            total += std::max(0.0, seg.value);
        x = labelW;
        for (const auto& seg : rows[i].segments) {
            if (total <= 0 || seg.value <= 0)
                continue;
            double w = barW * seg.value / total;
            const std::string pct = formatPercentFixed(100.0 * seg.value / total, 1);
            s += "<rect x='" + fmt(x) + "' y='" + std::to_string(y) + "' width='" + fmt(w) + "' height='"
                + std::to_string(barH) + "' fill='" + seg.color + "'><title>" + htmlEscape(seg.name) + ": " + pct
                + "</title></rect>";
            if (w > 44)
                s += "<text x='" + fmt(x + 4) + "' y='" + std::to_string(y + 17) + "' class='in'>" + pct + "</text>";
            x += w;
        }
    }
    return s + "</svg>";
}

std::string svgLineChart(const std::vector<LineSeries>& series, const LineChartOptions& o)
{
    const double left = 70, right = 16, top = 26, bottom = 34;
    const double w = o.width - left - right, h = o.height - top - bottom;
    double xMin = 1e300, xMax = -1e300, yMax = o.yMax;
    for (const auto& sr : series)
        for (size_t i = 0; i < sr.x.size(); ++i) {
            xMin = std::min(xMin, sr.x[i]);
            xMax = std::max(xMax, sr.x[i]);
            if (o.yMax <= 0)
                yMax = std::max(yMax, sr.y[i]);
        }
    // A limit far above the data (a few MiB on a 192 GiB GPU) would flatten the curve onto the axis: the axis then
    // follows the data and the limit is named above the plot instead of drawn.
    const bool limitOnScale = o.limit > 0 && (o.yMax > 0 || yMax >= kLimitOnScaleShare * o.limit);
    if (o.yMax <= 0 && limitOnScale)
        yMax = std::max(yMax, o.limit * 1.05);
    else if (o.yMax <= 0 && o.limit > 0)
        yMax *= 1.1;
    if (xMin > xMax) // no point at all: an empty plot over 0..1, not ticks at +-1e300
        xMin = 0, xMax = 1;
    if (xMax <= xMin)
        xMax = xMin + 1;
    if (yMax <= 0)
        yMax = 1;
    auto px = [&](double x) { return left + w * (x - xMin) / (xMax - xMin); };
    auto py = [&](double y) { return top + h - h * std::clamp(y / yMax, 0.0, 1.0); };
    std::string s = "<svg xmlns='http://www.w3.org/2000/svg' width='" + std::to_string(o.width) + "' height='"
        + std::to_string(o.height) + "' role='img'>";
    for (int t = 0; t <= 4; ++t) {
        double v = yMax * t / 4;
        s += "<line x1='" + fmt(left) + "' x2='" + fmt(left + w) + "' y1='" + fmt(py(v)) + "' y2='" + fmt(py(v))
            + "' class='grid'/><text x='" + fmt(left - 6) + "' y='" + fmt(py(v) + 4) + "' class='ax' text-anchor='end'>"
            + axisValue(v, o.percentAxis, o.bytesAxis) + "</text>";
    }
    for (int t = 0; t <= 5; ++t) {
        double v = xMin + (xMax - xMin) * t / 5;
        s += "<text x='" + fmt(px(v)) + "' y='" + fmt(top + h + 13) + "' class='ax' text-anchor='middle'>"
            + (o.xNanoseconds ? formatAxisNanoseconds(v, (xMax - xMin) / 5) : axisValue(v, false)) + "</text>";
    }
    s += "<text x='" + fmt(left + w / 2) + "' y='" + fmt(o.height - 4.0) + "' class='ax' text-anchor='middle'>"
        + htmlEscape(o.xLabel) + "</text>";
    s += "<text x='4' y='14' class='ax'>" + htmlEscape(o.yLabel) + "</text>";
    if (o.limit > 0 && !limitOnScale) {
        s += "<text x='" + fmt(left + w - 4) + "' y='14' class='ax' text-anchor='end'>" + htmlEscape(o.limitLabel)
            + " (above this scale)</text>";
    } else if (o.limit >= 0) {
        s += "<line x1='" + fmt(left) + "' x2='" + fmt(left + w) + "' y1='" + fmt(py(o.limit)) + "' y2='"
            + fmt(py(o.limit)) + "' class='limit'/><text x='" + fmt(left + w - 4) + "' y='" + fmt(py(o.limit) - 4)
            + "' class='ax' text-anchor='end'>" + htmlEscape(o.limitLabel) + "</text>";
    }
    double lx = std::max(left, 24 + 6.5 * static_cast<double>(o.yLabel.size()));
    for (const auto& sr : series) {
        std::string pts;
        for (size_t i = 0; i < sr.x.size(); ++i) {
            if (sr.y[i] < 0)
                continue;
            pts += fmt(px(sr.x[i])) + "," + fmt(py(sr.y[i])) + " ";
        }
        s += "<polyline fill='none' stroke='" + sr.color + "' stroke-width='1.8' points='" + pts + "'"
            + (sr.attributes.empty() ? "" : " " + sr.attributes) + "/>";
        s += "<rect x='" + fmt(lx) + "' y='6' width='12' height='4' fill='" + sr.color + "'/><text x='" + fmt(lx + 16)
            + "' y='12' class='lg'>" + htmlEscape(sr.name) + "</text>";
        lx += 30 + 7.0 * static_cast<double>(sr.name.size());
    }
    return s + "</svg>";
}

std::string svgBarChart(const std::vector<BarItem>& items, int width)
{
    const int labelW = 340, barH = 18, gap = 6;
    int height = static_cast<int>(items.size()) * (barH + gap) + 4;
    double maxV = 0;
    for (const auto& it : items)
        maxV = std::max(maxV, it.value);
    if (maxV <= 0)
        maxV = 1;
    std::string s = "<svg xmlns='http://www.w3.org/2000/svg' width='" + std::to_string(width) + "' height='"
        + std::to_string(height) + "' role='img'>";
    const double barW = width - labelW - 170; // room for the value text
    for (size_t i = 0; i < items.size(); ++i) {
        int y = static_cast<int>(i) * (barH + gap);
        std::string label = items[i].label.size() > 52 ? items[i].label.substr(0, 49) + "..." : items[i].label;
        double w = std::max(1.0, barW * items[i].value / maxV);
        s += "<text x='0' y='" + std::to_string(y + 13) + "' class='lb'><title>" + htmlEscape(items[i].label)
            + "</title>" + htmlEscape(label) + "</text><rect x='" + std::to_string(labelW) + "' y='" + std::to_string(y)
            + "' width='" + fmt(w) + "' height='" + std::to_string(barH) + "' fill='" + items[i].color + "'/><text x='"
            + fmt(labelW + w + 6) + "' y='" + std::to_string(y + 13) + "' class='ax'>" + htmlEscape(items[i].valueText)
            + "</text>";
    }
    return s + "</svg>";
}

} // namespace placescope
