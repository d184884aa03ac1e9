// SPDX-License-Identifier: MIT
// queue (HTA's queue length): per stream, the GPU ops launched (launch call start) and not yet finished (op end), as
// a step function over time; its time-weighted mean and its maximum over the stream's span (first launch to last
// end), and the time it stood at CUDA's launch queue depth (1024, HTA's max_queue_length), where the launching
// thread blocks in the launch call. Ops without a launch call in the trace are left out (counted in a note).
#include "placement/reports/report_math.h"
#include "placement/reports/reports.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace placescope {
namespace {

constexpr int64_t kFullQueue = 1024;

} // namespace

ReportTable queueReport(const ReportContext& ctx)
{
    // (process, device, stream) -> (time, +1 launch / -1 end)
    std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<std::pair<int64_t, int>>> changes;
    int64_t unlinked = 0;
    for (const GpuOp& op : ctx.trace().gpuOps) {
        if (!ctx.inScope(op))
            continue;
        const ApiCall* launch = ctx.launchOf(op);
        if (!launch) {
            ++unlinked;
            continue;
        }
        auto& list = changes[{ op.globalPid, op.deviceId, op.streamId }];
        list.push_back({ std::min(launch->startNs, op.endNs), +1 });
        list.push_back({ op.endNs, -1 });
    }
    ReportTable table;
    table.title = "Launch queue length per stream (GPU ops launched and not yet finished)";
    table.columns = { { "rank", "Rank", ColumnKind::Count },
                      { "device", "Device", ColumnKind::Count },
                      { "stream", "Stream", ColumnKind::Count },
                      { "ops", "GPU ops", ColumnKind::Count },
                      { "span_ns", "Span", ColumnKind::Ns },
                      { "mean", "Mean", ColumnKind::Real },
                      { "max", "Max", ColumnKind::Count },
                      { "max_at_ns", "Max first at", ColumnKind::Timestamp },
                      { "full_queue_ns", "At full queue (1024)", ColumnKind::Ns } };
    for (auto& [key, list] : changes) {
        // Ends before launches at the same instant: an op that finished frees its slot before the next one counts.
        std::sort(list.begin(), list.end());
        int64_t length = 0, maxLength = 0, maxAt = list.front().first, weighted = 0, full = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            length += list[i].second;
            if (length > maxLength) {
                maxLength = length;
                maxAt = list[i].first;
            }
            if (i + 1 < list.size()) {
                const int64_t held = list[i + 1].first - list[i].first;
                weighted += length * held;
                if (length >= kFullQueue)
                    full += held;
            }
        }
        const int64_t span = list.back().first - list.front().first;
        const auto& [pid, device, stream] = key;
        table.rows.push_back({ nullIfNegative(ctx.rankOf(pid)), device, stream,
                               static_cast<int64_t>(list.size() / 2), span,
                               span > 0 ? static_cast<double>(weighted) / static_cast<double>(span) : 0.0, maxLength,
                               maxAt, full });
    }
    if (unlinked > 0)
        table.notes.push_back(std::to_string(unlinked) + " GPU op(s) have no launch call in the trace and are left out");
    return table;
}

} // namespace placescope
