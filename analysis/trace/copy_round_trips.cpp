// SPDX-License-Identifier: MIT
#include "analysis/trace/copy_round_trips.h"

#include "profiler/model/cuda_enums.h"

#include <map>
#include <tuple>

namespace placescope {

std::vector<CopyRoundTrip> pairCopyRoundTrips(const TraceData& trace, int64_t windowNs)
{
    std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<const GpuOp*>> pending; // (pid, dev, bytes)
    std::vector<CopyRoundTrip> trips;
    for (const auto& op : trace.gpuOps) {
        if (op.kind != GpuOp::Kind::Memcpy || op.bytes <= 0)
            continue;
        auto key = std::make_tuple(op.globalPid, op.deviceId, op.bytes);
        if (op.copyKind == static_cast<int64_t>(CopyKind::DtoH)) {
            pending[key].push_back(&op);
        } else if (op.copyKind == static_cast<int64_t>(CopyKind::HtoD)) {
            auto it = pending.find(key);
            if (it == pending.end())
                continue;
            auto& list = it->second;
            // Most recent DtoH that finished before this HtoD started, within the window.
            while (!list.empty() && op.startNs - list.back()->endNs > windowNs)
                list.pop_back();
            for (auto d = list.rbegin(); d != list.rend(); ++d) {
                if ((*d)->endNs <= op.startNs && op.startNs - (*d)->endNs <= windowNs) {
                    trips.push_back({ *d, &op });
                    list.erase(std::next(d).base());
                    break;
                }
            }
        }
    }
    return trips;
}

} // namespace placescope
