// SPDX-License-Identifier: MIT
#include "analysis/reports/queue_series.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace placescope {

QueueSeries queueLengthSeries(const ReportContext& ctx)
{
    QueueSeries out;
    // (process, device, stream) -> (time, +1 launch / -1 end)
    std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<std::pair<int64_t, int>>> changes;
    for (const GpuOp& op : ctx.trace().gpuOps) {
        if (!ctx.inScope(op))
            continue;
        const ApiCall* launch = ctx.launchOf(op);
        if (!launch) {
            ++out.unlinked;
            continue;
        }
        auto& list = changes[{ op.globalPid, op.deviceId, op.streamId }];
        list.push_back({ std::min(launch->startNs, op.endNs), +1 });
        list.push_back({ op.endNs, -1 });
    }
    for (auto& [key, list] : changes) {
        std::sort(list.begin(), list.end()); // -1 before +1 at one time
        StreamQueue stream;
        std::tie(stream.globalPid, stream.deviceId, stream.streamId) = key;
        stream.ops = static_cast<int64_t>(list.size() / 2);
        int64_t length = 0;
        for (const auto& [time, delta] : list) {
            length += delta;
            if (!stream.points.empty() && stream.points.back().timeNs == time)
                stream.points.back().length = length;
            else
                stream.points.push_back({ time, length });
        }
        out.streams.push_back(std::move(stream));
    }
    return out;
}

} // namespace placescope
