// SPDX-License-Identifier: MIT
// queue (HTA's queue length): per stream, the GPU ops launched (launch call start) and not yet finished (op end), as
// a step function over time; its time-weighted mean and its maximum over the stream's span (first launch to last
// end), and the time it stood at CUDA's launch queue depth (1024, HTA's max_queue_length), where the launching
// thread blocks in the launch call. Ops without a launch call in the trace are left out (counted in a note).
#include "analysis/reports/queue_series.h"
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"

namespace placescope {
namespace {

constexpr int64_t kFullQueue = 1024;

} // namespace

ReportTable queueReport(const ReportContext& ctx)
{
    const QueueSeries series = queueLengthSeries(ctx);
    ReportTable table;
    table.title = "Launch queue length per stream (GPU ops launched and not yet finished)";
    table.columns = { { "rank", "Rank", ColumnKind::Count }, { "device", "Device", ColumnKind::Count },
        { "stream", "Stream", ColumnKind::Count }, { "ops", "GPU ops", ColumnKind::Count },
        { "span_ns", "Span", ColumnKind::Ns }, { "mean", "Mean", ColumnKind::Real },
        { "max", "Max", ColumnKind::Count }, { "max_at_ns", "Max first at", ColumnKind::Timestamp },
        { "full_queue_ns", "At full queue (1024)", ColumnKind::Ns } };
    for (const StreamQueue& stream : series.streams) {
        const std::vector<QueuePoint>& points = stream.points;
        int64_t maxLength = 0, maxAt = points.front().timeNs, weighted = 0, full = 0;
        for (size_t i = 0; i < points.size(); ++i) {
            if (points[i].length > maxLength) {
                maxLength = points[i].length;
                maxAt = points[i].timeNs;
            }
            if (i + 1 < points.size()) {
                const int64_t held = points[i + 1].timeNs - points[i].timeNs;
                weighted += points[i].length * held;
                if (points[i].length >= kFullQueue)
                    full += held;
            }
        }
        const int64_t span = points.back().timeNs - points.front().timeNs;
        table.rows.push_back(
            { nullIfNegative(ctx.rankOf(stream.globalPid)), stream.deviceId, stream.streamId, stream.ops, span,
                span > 0 ? static_cast<double>(weighted) / static_cast<double>(span) : 0.0, maxLength, maxAt, full });
    }
    if (series.unlinked > 0)
        table.notes.push_back(
            std::to_string(series.unlinked) + " GPU op(s) have no launch call in the trace and are left out");
    return table;
}

} // namespace placescope
