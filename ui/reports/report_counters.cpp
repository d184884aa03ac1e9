// SPDX-License-Identifier: MIT
#include "ui/reports/report_counters.h"

#include "analysis/reports/copy_rate_series.h"
#include "analysis/reports/queue_series.h"

#include <algorithm>
#include <cmath>

namespace placescope::ui {

std::vector<CounterSeries> reportCounterTracks(const TraceData& trace)
{
    std::vector<CounterSeries> tracks;
    auto ctx = ReportContext::create(trace, ReportOptions {});
    if (!ctx.isOk())
        return tracks;
    for (const StreamQueue& stream : queueLengthSeries(*ctx).streams) {
        CounterSeries series;
        const int64_t rank = ctx->rankOf(stream.globalPid);
        // The stream first: the header clips long titles at the end.
        series.title = "Queue stream " + std::to_string(stream.streamId) + ", GPU " + std::to_string(stream.deviceId)
            + (rank >= 0 ? ", rank " + std::to_string(rank) : std::string());
        series.unit = CounterUnit::Count;
        series.primaryLabel = "ops queued";
        series.secondaryLabel.clear();
        for (const QueuePoint& point : stream.points) {
            series.timeNs.push_back(point.timeNs);
            series.allocatedBytes.push_back(point.length);
            series.maxBytes = std::max(series.maxBytes, point.length);
        }
        series.timeNs.shrink_to_fit(); // LoadedTrace::memoryBytes counts capacity: keep the tracks exact
        series.allocatedBytes.shrink_to_fit();
        tracks.push_back(std::move(series));
    }
    for (const CopyRateSeries& copies : copyRateSeries(*ctx)) {
        CounterSeries series;
        series.title = copies.operation + " (" + copies.memory + ")";
        series.unit = CounterUnit::BytesPerSecond;
        series.primaryLabel = "bandwidth";
        series.secondaryLabel.clear();
        for (const RatePoint& point : copies.points) {
            const auto bytesPerSecond = static_cast<int64_t>(std::llround(point.bytesPerNs * 1e9));
            series.timeNs.push_back(point.timeNs);
            series.allocatedBytes.push_back(bytesPerSecond);
            series.maxBytes = std::max(series.maxBytes, bytesPerSecond);
        }
        series.timeNs.shrink_to_fit(); // LoadedTrace::memoryBytes counts capacity: keep the tracks exact
        series.allocatedBytes.shrink_to_fit();
        tracks.push_back(std::move(series));
    }
    return tracks;
}

} // namespace placescope::ui
