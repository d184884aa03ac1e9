// SPDX-License-Identifier: MIT
// Small inline-SVG chart builders for the HTML report: horizontal stacked bars, line charts with an optional
// limit line, and a horizontal bar chart. They return SVG markup (no scripts, no external resources) so a
// report stays one self-contained file. Pure functions.
#pragma once

#include "profiler/base/html_text.h" // htmlEscape, for the charts' callers

#include <string>
#include <vector>

namespace placescope {

struct ChartSegment
{
    std::string name;
    std::string color;
    double value = 0.0;
};

struct StackedRow
{
    std::string label;
    std::vector<ChartSegment> segments; // drawn left to right, scaled to the row total
};

// One bar per row, each 100 % wide; the legend lists the segment names of the first row.
std::string svgStackedBars(const std::vector<StackedRow>& rows, int width = 860);

struct LineSeries
{
    std::string name;
    std::string color;
    std::vector<double> x;
    std::vector<double> y; // < 0: no point (a gap in the data)
    std::string attributes; // extra SVG attributes of the series' polyline, escaped by the caller (data-*)
};

// The share of a limit the data must reach for the limit to set the axis (see LineChartOptions::limit).
inline constexpr double kLimitOnScaleShare = 0.25;

struct LineChartOptions
{
    std::string xLabel;
    std::string yLabel;
    double yMax = 0.0; // 0: from the data (and the limit)
    double limit = -1.0; // horizontal dashed line (e.g. device capacity); < 0: none. Drawn when the data reach
                         // kLimitOnScaleShare of it; else named above the plot, the axis following the data
    std::string limitLabel;
    bool percentAxis = false; // y values are fractions 0..1 shown as %
    bool bytesAxis = false; // y values are bytes, shown in GiB/MiB
    bool xNanoseconds = false; // x values are times in ns, ticks labelled like the GUI's rulers ("12.5 ms")
    int width = 860;
    int height = 240;
};
std::string svgLineChart(const std::vector<LineSeries>& series, const LineChartOptions& options);

struct BarItem
{
    std::string label;
    double value = 0.0;
    std::string valueText;
    std::string color;
};
std::string svgBarChart(const std::vector<BarItem>& items, int width = 860);

} // namespace placescope
