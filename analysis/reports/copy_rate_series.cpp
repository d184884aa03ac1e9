// SPDX-License-Identifier: MIT
#include "analysis/reports/copy_rate_series.h"

#include "profiler/model/cuda_enums.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace placescope {
namespace {

std::string memKindText(int64_t id)
{
    return id < 0 ? std::string("?") : std::string(memKindLabel(static_cast<MemKind>(id)));
}

} // namespace

std::pair<std::string, std::string> copyGroup(const GpuOp& op)
{
    if (op.kind == GpuOp::Kind::Memset)
        return { "Memset", memKindText(op.srcKind) };
    return { "Memcpy " + std::string(copyKindShortName(static_cast<CopyKind>(op.copyKind))),
        memKindText(op.srcKind) + " -> " + memKindText(op.dstKind) };
}

std::vector<CopyRateSeries> copyRateSeries(const ReportContext& ctx)
{
    // group -> ((time, -1 end / +1 start, rate), bytes); ends sort before starts at one instant
    using Change = std::tuple<int64_t, int, double>;
    std::map<std::pair<std::string, std::string>, std::pair<std::vector<Change>, int64_t>> groups;
    for (const GpuOp& op : ctx.trace().gpuOps) {
        if (op.kind == GpuOp::Kind::Kernel || !ctx.inScope(op) || op.durationNs() <= 0)
            continue;
        auto& [changes, bytes] = groups[copyGroup(op)];
        const double rate = static_cast<double>(op.bytes) / static_cast<double>(op.durationNs());
        changes.push_back({ op.startNs, +1, rate });
        changes.push_back({ op.endNs, -1, rate });
        bytes += op.bytes;
    }
    std::vector<CopyRateSeries> out;
    for (auto& [key, group] : groups) {
        auto& [changes, bytes] = group;
        std::sort(changes.begin(), changes.end());
        CopyRateSeries series { key.first, key.second, {}, bytes };
        double rate = 0;
        int64_t open = 0; // copies running: exactly 0 when none, whatever the rounding of the summed rates
        for (const auto& [time, sign, change] : changes) {
            rate += sign * change;
            open += sign;
            const double value = open == 0 ? 0.0 : std::max(0.0, rate);
            if (open == 0)
                rate = 0;
            if (!series.points.empty() && series.points.back().timeNs == time)
                series.points.back().bytesPerNs = value;
            else
                series.points.push_back({ time, value });
        }
        out.push_back(std::move(series));
    }
    return out;
}

} // namespace placescope
