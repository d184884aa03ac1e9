// SPDX-License-Identifier: MIT
// queue_timeline (HTA's queue length time series): the `queue` report's step function per stream (queue_series.h),
// cut into 50 equal buckets over the span of every stream's launches and ends: per stream and bucket, the
// time-weighted mean length over the bucket and the largest length held in it. Every bucket from a stream's first
// launch to its last end has a row, empty ones too (mean 0), so a plot of the rows draws the quiet stretches.
#include "analysis/reports/queue_series.h"
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"

#include <algorithm>
#include <climits>

namespace placescope {
namespace {

constexpr int64_t kBuckets = 50;

} // namespace

ReportTable queueTimelineReport(const ReportContext& ctx)
{
    const QueueSeries series = queueLengthSeries(ctx);
    ReportTable table;
    table.title = "Launch queue length per stream over time (mean and max in each bucket)";
    table.columns = { { "rank", "Rank", ColumnKind::Count }, { "device", "Device", ColumnKind::Count },
        { "stream", "Stream", ColumnKind::Count }, { "bucket_start_ns", "Bucket", ColumnKind::Timestamp },
        { "bucket_ns", "Width", ColumnKind::Ns }, { "mean", "Mean", ColumnKind::Real },
        { "max", "Max", ColumnKind::Count } };
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const StreamQueue& stream : series.streams) {
        first = std::min(first, stream.points.front().timeNs);
        last = std::max(last, stream.points.back().timeNs);
    }
    if (series.streams.empty()) {
        table.notes.push_back("no GPU op with a launch call in scope");
        return table;
    }
    const int64_t width = std::max<int64_t>(1, (last - first + kBuckets - 1) / kBuckets);
    for (const StreamQueue& stream : series.streams) {
        const std::vector<QueuePoint>& points = stream.points;
        const int64_t firstBucket = (points.front().timeNs - first) / width;
        const int64_t lastBucket = std::max(firstBucket, (points.back().timeNs - 1 - first) / width);
        std::vector<int64_t> integral(static_cast<size_t>(lastBucket - firstBucket + 1), 0);
        std::vector<int64_t> maximum(integral.size(), 0);
        // Each segment [t_i, t_i+1) holds length_i: add it to the buckets it overlaps.
        for (size_t i = 0; i + 1 < points.size(); ++i) {
            const int64_t from = points[i].timeNs, to = points[i + 1].timeNs, length = points[i].length;
            for (int64_t b = (from - first) / width; b <= (to - 1 - first) / width; ++b) {
                const int64_t bucketStart = first + b * width;
                const int64_t overlap = std::min(to, bucketStart + width) - std::max(from, bucketStart);
                const auto slot = static_cast<size_t>(b - firstBucket);
                integral[slot] += length * overlap;
                maximum[slot] = std::max(maximum[slot], length);
            }
        }
        for (size_t slot = 0; slot < integral.size(); ++slot)
            table.rows.push_back({ nullIfNegative(ctx.rankOf(stream.globalPid)), stream.deviceId, stream.streamId,
                first + (firstBucket + static_cast<int64_t>(slot)) * width, width,
                static_cast<double>(integral[slot]) / static_cast<double>(width), maximum[slot] });
    }
    if (series.unlinked > 0)
        table.notes.push_back(
            std::to_string(series.unlinked) + " GPU op(s) have no launch call in the trace and are left out");
    return table;
}

} // namespace placescope
