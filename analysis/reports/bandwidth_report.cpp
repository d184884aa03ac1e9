// SPDX-License-Identifier: MIT
// bandwidth (HTA's memory bandwidth time series and summary): copies and memsets per kind and memory type over time.
// The span of the GPU work in scope is cut into 50 equal buckets; a copy's bytes are spread over its duration, so a
// bucket's `bytes` is what moved in it, `gbps` is that over the bucket and `busy_gbps` over the time a copy of that
// kind was running in it. Empty buckets are left out. Per-copy bandwidth percentiles of each kind are in the notes.
#include "analysis/reports/copy_rate_series.h"
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"
#include "profiler/model/cuda_enums.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <map>

namespace placescope {
namespace {

constexpr int64_t kBuckets = 50;

struct Bucket
{
    int64_t copies = 0;
    double bytes = 0;
    std::vector<Interval> busy;
};

std::string percentileNote(const std::string& group, std::vector<double> gbps)
{
    std::sort(gbps.begin(), gbps.end());
    auto at = [&](double q) { return gbps[static_cast<size_t>(std::floor(q * static_cast<double>(gbps.size() - 1)))]; };
    char buffer[200];
    std::snprintf(buffer, sizeof buffer, "%s: per-copy GB/s over %zu timed copies: p50 %.2f, p90 %.2f, max %.2f",
        group.c_str(), gbps.size(), at(0.5), at(0.9), gbps.back());
    return buffer;
}

} // namespace

ReportTable bandwidthReport(const ReportContext& ctx)
{
    std::vector<const GpuOp*> ops;
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const GpuOp& op : ctx.trace().gpuOps) {
        if (op.kind == GpuOp::Kind::Kernel || !ctx.inScope(op))
            continue;
        ops.push_back(&op);
        first = std::min(first, op.startNs);
        last = std::max(last, op.endNs);
    }
    ReportTable table;
    table.title = "Copy and memset bandwidth over time, per kind and memory type (GB/s = 1e9 bytes/s)";
    table.columns = { { "operation", "Operation", ColumnKind::Text }, { "memory", "Memory", ColumnKind::Text },
        { "bucket_start_ns", "Bucket", ColumnKind::Timestamp }, { "bucket_ns", "Width", ColumnKind::Ns },
        { "ops", "Ops", ColumnKind::Count }, { "bytes", "Bytes", ColumnKind::Bytes },
        { "busy_ns", "Busy", ColumnKind::Ns }, { "gbps", "GB/s", ColumnKind::Real },
        { "busy_gbps", "GB/s busy", ColumnKind::Real } };
    if (ops.empty())
        return table;
    const int64_t width = std::max<int64_t>(1, (last - first + kBuckets - 1) / kBuckets);
    std::map<std::pair<std::string, std::string>, std::map<int64_t, Bucket>> groups;
    std::map<std::pair<std::string, std::string>, std::vector<double>> perCopy;
    for (const GpuOp* op : ops) {
        auto key = copyGroup(*op);
        auto& buckets = groups[key];
        const int64_t duration = op->durationNs();
        if (duration > 0)
            perCopy[key].push_back(static_cast<double>(op->bytes) / static_cast<double>(duration));
        const int64_t firstBucket = (op->startNs - first) / width;
        const int64_t lastBucket = duration > 0 ? (op->endNs - 1 - first) / width : firstBucket;
        for (int64_t b = firstBucket; b <= lastBucket; ++b) {
            const int64_t from = first + b * width, to = from + width;
            Bucket& bucket = buckets[b];
            ++bucket.copies;
            if (duration == 0) {
                bucket.bytes += static_cast<double>(op->bytes);
                continue;
            }
            const int64_t s = std::max(from, op->startNs), e = std::min(to, op->endNs);
            bucket.bytes += static_cast<double>(op->bytes) * static_cast<double>(e - s) / static_cast<double>(duration);
            bucket.busy.push_back({ s, e });
        }
    }
    for (auto& [key, buckets] : groups) {
        for (auto& [b, bucket] : buckets) {
            const int64_t busy = totalLength(mergeIntervals(std::move(bucket.busy)));
            const auto bytes = static_cast<int64_t>(std::llround(bucket.bytes));
            table.rows.push_back({ key.first, key.second, first + b * width, width, bucket.copies, bytes, busy,
                static_cast<double>(bytes) / static_cast<double>(width),
                busy > 0 ? ReportCell(static_cast<double>(bytes) / static_cast<double>(busy)) : ReportCell() });
        }
        if (auto it = perCopy.find(key); it != perCopy.end())
            table.notes.push_back(percentileNote(key.first + " (" + key.second + ")", it->second));
    }
    table.notes.push_back("a copy's bytes are spread evenly over its duration; buckets where no copy ran are left out");
    return table;
}

} // namespace placescope
