// SPDX-License-Identifier: MIT
#include "analysis/trace/tf_op_placement.h"

#include <unordered_map>

namespace placescope {

double OpPlacement::hostOpPercent() const
{
    const int64_t all = hostOps + deviceOps;
    return all > 0 ? 100.0 * static_cast<double>(hostOps) / static_cast<double>(all) : 0.0;
}

double OpPlacement::hostTimePercent() const
{
    const int64_t all = hostOpNs + deviceOpNs;
    return all > 0 ? 100.0 * static_cast<double>(hostOpNs) / static_cast<double>(all) : 0.0;
}

std::optional<OpPlacement> tensorFlowOpPlacement(const TraceData& trace)
{
    std::unordered_map<int64_t, int64_t> gpuNsOfOp; // external id -> GPU time of the work linked to it
    for (const GpuOp& op : trace.gpuOps) {
        auto it = trace.externalIdOfCorrelation.find(TraceData::correlationKey(op.globalPid, op.correlationId));
        if (it != trace.externalIdOfCorrelation.end())
            gpuNsOfOp[it->second] += op.durationNs();
    }
    OpPlacement placement;
    bool any = false;
    for (const HostRange& r : trace.hostRanges) {
        if (r.isNvtx || r.category != "tf_op")
            continue;
        any = true;
        auto gpu = r.externalId >= 0 ? gpuNsOfOp.find(r.externalId) : gpuNsOfOp.end();
        if (gpu != gpuNsOfOp.end()) {
            ++placement.deviceOps;
            placement.deviceOpNs += gpu->second;
        } else {
            ++placement.hostOps;
            placement.hostOpNs += r.endNs - r.startNs;
        }
    }
    if (!any)
        return std::nullopt;
    return placement;
}

} // namespace placescope
