// SPDX-License-Identifier: MIT
// Links between the host and device lanes of a trace for graph <-> timeline selection: which framework ops hold
// an event, and what a framework op launched. Runtime calls and device events share CUPTI correlation ids; a
// runtime call belongs to the framework ops on its thread whose time span holds its start.
#include "ui/timeline/timeline_view.h"

#include <algorithm>
#include <unordered_map>

namespace placescope::ui {

namespace {

// Lanes hold one kind of host event each (the loader keys them by thread and kind), so the first event says it.
bool laneHolds(const Lane& lane, EventKind kind)
{
    return lane.group == Lane::Group::Host && !lane.rows.empty() && lane.rows.front().size() > 0
        && lane.rows.front().kind.front() == kind;
}

} // namespace

std::optional<TimelineView::EventRef> TimelineView::findHostEvent(
    int64_t globalTid, EventKind kind, int64_t startNs) const
{
    if (!m_trace)
        return std::nullopt;
    for (size_t l = 0; l < m_trace->lanes.size(); ++l) {
        const Lane& lane = m_trace->lanes[l];
        if (lane.globalTid != globalTid || !laneHolds(lane, kind))
            continue;
        for (size_t r = 0; r < lane.rows.size(); ++r) {
            const LaneRow& row = lane.rows[r];
            auto it = std::lower_bound(row.startNs.begin(), row.startNs.end(), startNs);
            if (it != row.startNs.end() && *it == startNs)
                return EventRef { static_cast<int>(l), static_cast<int>(r),
                    static_cast<uint32_t>(it - row.startNs.begin()) };
        }
    }
    return std::nullopt;
}

std::optional<TimelineView::EventRef> TimelineView::correlatedEvent(const EventRef& ref) const
{
    if (!m_trace || ref.lane < 0 || ref.lane >= static_cast<int>(m_trace->lanes.size()))
        return std::nullopt;
    const LaneRow& row = rowOf(ref);
    const uint32_t correlation = row.correlationId[ref.index];
    const EventKind kind = row.kind[ref.index];
    const bool fromHost = kind == EventKind::Runtime;
    if (correlation == 0 || !(fromHost || m_trace->lanes[static_cast<size_t>(ref.lane)].group == Lane::Group::Device))
        return std::nullopt;
    // A runtime call's other end is on a device lane; a device event's is a runtime call (not a framework op,
    // whose correlationId column holds its external id).
    for (size_t l = 0; l < m_trace->lanes.size(); ++l) {
        const Lane& lane = m_trace->lanes[l];
        if (fromHost ? lane.group != Lane::Group::Device : !laneHolds(lane, EventKind::Runtime))
            continue;
        for (size_t r = 0; r < lane.rows.size(); ++r) {
            const LaneRow& other = lane.rows[r];
            auto it = std::find(other.correlationId.begin(), other.correlationId.end(), correlation);
            if (it != other.correlationId.end())
                return EventRef { static_cast<int>(l), static_cast<int>(r),
                    static_cast<uint32_t>(it - other.correlationId.begin()) };
        }
    }
    return std::nullopt;
}

std::vector<TimelineView::EventRef> TimelineView::enclosingFrameworkOps(const EventRef& ref) const
{
    std::vector<EventRef> ops;
    if (!m_trace || ref.lane < 0 || ref.lane >= static_cast<int>(m_trace->lanes.size()))
        return ops;
    const Lane& lane = m_trace->lanes[static_cast<size_t>(ref.lane)];
    const LaneRow& row = lane.rows[static_cast<size_t>(ref.row)];
    int64_t thread = lane.globalTid;
    int64_t time = row.startNs[ref.index];
    if (lane.group == Lane::Group::Device) {
        // The launching runtime call: the host event of kind Runtime with the same correlation id.
        const uint32_t correlation = row.correlationId[ref.index];
        if (correlation == 0)
            return ops;
        bool found = false;
        for (size_t l = 0; l < m_trace->lanes.size() && !found; ++l) {
            const Lane& host = m_trace->lanes[l];
            if (!laneHolds(host, EventKind::Runtime))
                continue;
            for (const LaneRow& calls : host.rows) {
                auto it = std::find(calls.correlationId.begin(), calls.correlationId.end(), correlation);
                if (it != calls.correlationId.end()) {
                    thread = host.globalTid;
                    time = calls.startNs[static_cast<size_t>(it - calls.correlationId.begin())];
                    found = true;
                    break;
                }
            }
        }
        if (!found)
            return ops;
    }
    for (size_t l = 0; l < m_trace->lanes.size(); ++l) {
        const Lane& host = m_trace->lanes[l];
        if (host.globalTid != thread || !laneHolds(host, EventKind::FrameworkOp))
            continue;
        // Rows are nesting levels: row 0 holds the outermost ops.
        for (size_t r = 0; r < host.rows.size(); ++r) {
            const LaneRow& level = host.rows[r];
            auto after = std::upper_bound(level.startNs.begin(), level.startNs.end(), time);
            if (after == level.startNs.begin())
                continue;
            const size_t i = static_cast<size_t>(after - level.startNs.begin()) - 1;
            if (level.startNs[i] == time || time < level.endNs[i])
                ops.push_back({ static_cast<int>(l), static_cast<int>(r), static_cast<uint32_t>(i) });
        }
    }
    return ops;
}

std::vector<std::pair<TimelineView::EventRef, TimelineView::EventRef>> TimelineView::launchedWork(
    const EventRef& op) const
{
    std::vector<std::pair<EventRef, EventRef>> work;
    if (!m_trace || op.lane < 0 || op.lane >= static_cast<int>(m_trace->lanes.size()))
        return work;
    const Lane& lane = m_trace->lanes[static_cast<size_t>(op.lane)];
    const LaneRow& row = lane.rows[static_cast<size_t>(op.row)];
    if (row.kind[op.index] != EventKind::FrameworkOp)
        return work;
    const int64_t start = row.startNs[op.index], end = row.endNs[op.index];
    std::unordered_map<uint32_t, EventRef> callOfCorrelation;
    for (size_t l = 0; l < m_trace->lanes.size(); ++l) {
        const Lane& host = m_trace->lanes[l];
        if (host.globalTid != lane.globalTid || !laneHolds(host, EventKind::Runtime))
            continue;
        for (size_t r = 0; r < host.rows.size(); ++r) {
            const LaneRow& calls = host.rows[r];
            for (auto it = std::lower_bound(calls.startNs.begin(), calls.startNs.end(), start);
                 it != calls.startNs.end() && *it < end; ++it) {
                const size_t i = static_cast<size_t>(it - calls.startNs.begin());
                if (calls.correlationId[i] != 0)
                    callOfCorrelation.emplace(calls.correlationId[i],
                        EventRef { static_cast<int>(l), static_cast<int>(r), static_cast<uint32_t>(i) });
            }
        }
    }
    if (callOfCorrelation.empty())
        return work;
    for (size_t l = 0; l < m_trace->lanes.size(); ++l) {
        const Lane& device = m_trace->lanes[l];
        if (device.group != Lane::Group::Device)
            continue;
        for (size_t r = 0; r < device.rows.size(); ++r) {
            const LaneRow& events = device.rows[r];
            for (size_t i = 0; i < events.size(); ++i) {
                auto call = events.correlationId[i] != 0 ? callOfCorrelation.find(events.correlationId[i])
                                                         : callOfCorrelation.end();
                if (call != callOfCorrelation.end())
                    work.emplace_back(
                        call->second, EventRef { static_cast<int>(l), static_cast<int>(r), static_cast<uint32_t>(i) });
            }
        }
    }
    return work;
}

} // namespace placescope::ui
