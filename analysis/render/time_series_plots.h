// SPDX-License-Identifier: MIT
// The HTML report's time-series plots: launch queue length per stream, allocated/reserved memory per device and copy
// bandwidth per kind, drawn from the rows of the `queue_timeline`, `memory` and `bandwidth` reports (the rows
// `placescope report NAME --format json` prints), so a plot shows exactly the figures the CLI gives. Each series'
// polyline carries its rows in data attributes (data-report, data-series, data-x-ns: bucket starts in trace ns,
// data-y: the plotted column), which tests and scripts read back.
#pragma once

#include "analysis/reports/report_table.h"
#include "analysis/trace/trace_data.h"

#include <cstdint>
#include <map>
#include <string>

namespace placescope {

struct TimeSeriesTables
{
    ReportTable queue; // queue_timeline
    ReportTable memory; // memory
    ReportTable bandwidth; // bandwidth
    std::map<int64_t, int64_t> capacityBytes; // device -> total memory, where the trace records it
};

// The three reports over the whole trace (no --step), as `placescope report` runs them.
Result<TimeSeriesTables> timeSeriesTables(const TraceData& trace);

// The "Over time" sections: a heading, a line plot and a one-line caption per plot; a sentence instead of a plot
// where a report has no rows.
std::string timeSeriesPlotsHtml(const TimeSeriesTables& tables);

} // namespace placescope
