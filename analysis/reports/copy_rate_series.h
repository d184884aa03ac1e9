// SPDX-License-Identifier: MIT
// Copy bandwidth over time as a step function per copy kind and memory type (the `bandwidth` report's groups): at
// each instant, the summed rate (bytes / duration) of the copies and memsets of that group running then. The GUI
// draws it as a counter track; the `bandwidth` report buckets the same spreading of each copy's bytes over its
// duration, so the integral of a series over a bucket is that bucket's bytes.
#pragma once

#include "analysis/reports/report_context.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace placescope {

struct RatePoint
{
    int64_t timeNs = 0;
    double bytesPerNs = 0; // GB/s, from timeNs until the next point
};

struct CopyRateSeries
{
    std::string operation; // "Memcpy HtoD", "Memset" (as the bandwidth report's `operation`)
    std::string memory; // "Pageable -> Device" (its `memory`)
    std::vector<RatePoint> points; // time order, one per distinct time; the last one is back to 0
    int64_t bytes = 0; // of the copies with a duration (zero-length ones have no rate)
};

// The (operation, memory) group of a copy or memset: ("Memcpy HtoD", "Pinned -> Device"), ("Memset", "Device").
std::pair<std::string, std::string> copyGroup(const GpuOp& op);

// The copies and memsets in the context's scope, by (operation, memory) as the bandwidth report orders them.
std::vector<CopyRateSeries> copyRateSeries(const ReportContext& ctx);

} // namespace placescope
