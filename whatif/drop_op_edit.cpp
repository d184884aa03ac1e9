// SPDX-License-Identifier: MIT
#include "whatif/drop_op_edit.h"

#include "analysis/trace/intervals.h"

#include <algorithm>
#include <map>

namespace placescope {

EditOutcome applyDropOp(const TraceData& trace, const WhatIfEdit& edit, ReplayGraph& graph)
{
    EditOutcome out;
    out.text = edit.text;
    out.understood = "framework op '" + edit.pattern + "' removed with its CPU time, its CUDA calls and their GPU work";
    out.how = "the op's calls and GPU ops leave their lanes; the host gap it lay in loses the time it spanned";
    const auto nameId = trace.findNameId(edit.pattern);
    if (!nameId)
        return out;
    std::map<int64_t, int32_t> hostLane;
    for (int32_t l = 0; l < static_cast<int32_t>(graph.lanes.size()); ++l)
        if (graph.lanes[l].kind == ReplayLane::Kind::Host)
            hostLane[graph.lanes[l].globalTid] = l;
    // The outermost occurrences per host lane (ranges come in start order: an outer one before those inside it).
    std::map<int32_t, std::vector<Interval>> removed;
    int64_t coveredUntil = INT64_MIN, coveredTid = -1;
    for (const HostRange& op : trace.hostRanges) {
        if (op.nameId != *nameId || op.isNvtx || (op.globalTid == coveredTid && op.startNs < coveredUntil))
            continue;
        auto lane = hostLane.find(op.globalTid);
        if (lane == hostLane.end())
            continue; // a thread without CUDA calls: nothing of the replay to remove
        removed[lane->second].push_back({ op.startNs, op.endNs });
        coveredTid = op.globalTid;
        coveredUntil = op.endNs;
        ++out.matched;
    }
    int64_t calls = 0, gpuOps = 0;
    for (auto& [laneIndex, spans] : removed) {
        auto inside = [&](int64_t t) {
            return std::any_of(
                spans.begin(), spans.end(), [t](const Interval& i) { return t >= i.startNs && t < i.endNs; });
        };
        auto overlapOf = [&](int64_t begin, int64_t end) {
            int64_t total = 0;
            for (const Interval& i : spans)
                total += std::max<int64_t>(0, std::min(end, i.endNs) - std::max(begin, i.startNs));
            return total;
        };
        const ReplayLane& lane = graph.lanes[laneIndex];
        for (int32_t id : lane.tasks)
            if (!graph.tasks[id].dropped && inside(graph.tasks[id].measuredStart)) {
                graph.tasks[id].dropped = true;
                ++calls;
            }
        // The CPU time the op spanned leaves the gap before the first call after it: that call now follows the
        // last surviving call before the op by the measured time between them, less the op's share.
        int32_t survivor = -1;
        for (int32_t id : lane.tasks) {
            ReplayTask& t = graph.tasks[id];
            if (t.dropped)
                continue;
            if (survivor >= 0 && graph.linksOf(t).crossPred < 0) {
                const int64_t from = graph.tasks[survivor].measuredEnd;
                if (const int64_t share = overlapOf(from, t.measuredStart); share > 0)
                    t.laneGap = std::max<int64_t>(0, t.measuredStart - from - share);
            }
            survivor = id;
        }
    }
    for (ReplayTask& t : graph.tasks)
        if (t.isGpu() && !t.dropped && t.launcher >= 0 && graph.tasks[t.launcher].dropped) {
            t.dropped = true;
            ++gpuOps;
        }
    out.matchedWhat = std::to_string(out.matched) + " ops, " + std::to_string(calls) + " CUDA calls, "
        + std::to_string(gpuOps) + " GPU ops";
    return out;
}

} // namespace placescope
