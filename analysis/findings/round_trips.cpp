// SPDX-License-Identifier: MIT
#include "analysis/findings/round_trips.h"

#include "profiler/model/global_ids.h"

#include <algorithm>
#include <unordered_set>

namespace placescope {
namespace {

// The framework ops that can be a host op between two copies: PyTorch's (cpu_op; Operator in the 2021 schema),
// TensorFlow's from XPlane (tf_op) and ONNX Runtime's nodes (ort_node). Annotations, steps and data ranges are not.
bool isFrameworkOp(const std::string& category)
{
    return category == "cpu_op" || category == "Operator" || category == "tf_op" || category == "ort_node";
}

} // namespace

std::vector<RoundTrip> findRoundTrips(const RuleContext& ctx)
{
    const auto& trace = ctx.trace;
    std::vector<RoundTrip> trips;
    for (const CopyRoundTrip& pair : pairCopyRoundTrips(trace, ctx.options.roundTripWindowNs)) {
        RoundTrip trip;
        trip.toHost = pair.toHost;
        trip.toDevice = pair.toDevice;
        trips.push_back(std::move(trip));
    }
    if (trips.empty())
        return trips;

    std::unordered_set<int64_t> launchingExternalIds;
    for (const auto& op : trace.gpuOps) {
        auto it = trace.externalIdOfCorrelation.find(TraceData::correlationKey(op.globalPid, op.correlationId));
        if (it != trace.externalIdOfCorrelation.end())
            launchingExternalIds.insert(it->second);
    }
    for (auto& trip : trips) {
        int64_t from = trip.toHost->endNs, to = trip.toDevice->startNs;
        const int64_t process = globalPidOfGlobalTid(trip.toHost->globalPid);
        auto first = std::lower_bound(trace.hostRanges.begin(), trace.hostRanges.end(), from,
            [](const HostRange& r, int64_t t) { return r.startNs < t; });
        int64_t coveredUntil = INT64_MIN;
        for (auto it = first; it != trace.hostRanges.end() && it->startNs < to; ++it) {
            if (it->isNvtx || !isFrameworkOp(it->category) || it->endNs > to
                || globalPidOfGlobalTid(it->globalTid) != process)
                continue;
            if (it->startNs < coveredUntil) // nested inside an op already taken
                continue;
            if (it->externalId >= 0 && launchingExternalIds.count(it->externalId))
                continue;
            trip.hostOps.push_back(&*it);
            trip.hostOpNs += it->endNs - it->startNs;
            coveredUntil = it->endNs;
        }
        for (const auto& lane : ctx.timeline.lanes)
            if (lane.globalPid == trip.toHost->globalPid && lane.deviceId == trip.toHost->deviceId)
                trip.gpuIdleNs = (to - from) - overlapLength(lane.busy, from, to);
        trip.gpuIdleNs = std::max<int64_t>(0, trip.gpuIdleNs);
    }
    return trips;
}

} // namespace placescope
