// SPDX-License-Identifier: MIT
// GPU busy time per device: the union of kernel, memcpy and memset intervals (overlaps merged), found by a
// k-way merge over the device's lanes (table x stream), each read in start order from its lane index.
#include "profiler/stats/trace_stats.h"

#include <algorithm>
#include <map>
#include <queue>

namespace placescope {

namespace {

constexpr const char* kGpuTables[]
    = { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET" };

struct Lane
{
    SqliteStatement rows;
    int64_t* kindNs = nullptr; // the device's summed time for this lane's table
    int64_t start = 0;
    int64_t end = 0;
    bool advance()
    {
        if (!rows.step())
            return false;
        start = rows.columnInt(0);
        end = rows.columnInt(1);
        return true;
    }
};

Status mergeDevice(SqliteDb& db, int64_t deviceId, DeviceUtilization& device)
{
    std::vector<Lane> lanes;
    for (const char* const& table : kGpuTables) {
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement streams,
            db.prepare(std::string("SELECT DISTINCT streamId FROM ") + table + " WHERE deviceId = ?1"));
        streams.bind(1, deviceId);
        while (streams.step()) {
            PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement rows,
                db.prepare(std::string("SELECT start, end FROM ") + table
                    + " WHERE deviceId = ?1 AND streamId = ?2 ORDER BY start"));
            rows.bind(1, deviceId);
            rows.bind(2, streams.columnInt(0));
            int64_t* kindNs[] = { &device.kernelNs, &device.memcpyNs, &device.memsetNs };
            lanes.push_back(Lane { std::move(rows), kindNs[&table - kGpuTables] });
        }
        PLACESCOPE_RETURN_IF_ERROR(streams.status());
    }
    auto later = [&lanes](size_t a, size_t b) { return lanes[a].start > lanes[b].start; };
    std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
    for (size_t i = 0; i < lanes.size(); ++i) {
        if (lanes[i].advance())
            heap.push(i);
        PLACESCOPE_RETURN_IF_ERROR(lanes[i].rows.status());
    }
    bool open = false;
    int64_t runStart = 0, runEnd = 0;
    while (!heap.empty()) {
        size_t index = heap.top();
        heap.pop();
        Lane& lane = lanes[index];
        *lane.kindNs += lane.end - lane.start;
        if (!open) {
            open = true;
            runStart = lane.start;
            runEnd = lane.end;
            device.firstStartNs = lane.start;
        } else if (lane.start > runEnd) {
            device.busyNs += runEnd - runStart;
            runStart = lane.start;
            runEnd = lane.end;
        } else {
            runEnd = std::max(runEnd, lane.end);
        }
        device.lastEndNs = std::max(device.lastEndNs, lane.end);
        if (lane.advance())
            heap.push(index);
        PLACESCOPE_RETURN_IF_ERROR(lane.rows.status());
    }
    if (open)
        device.busyNs += runEnd - runStart;
    return Status::ok();
}

} // namespace

Result<std::vector<DeviceUtilization>> deviceUtilization(SqliteDb& db, const TraceSpan& span)
{
    // Devices with any GPU activity (DISTINCT over the lane indexes' first column: an index skip, not a scan).
    std::map<int64_t, DeviceUtilization> devices;
    for (const char* table : kGpuTables) {
        PLACESCOPE_ASSIGN_OR_RETURN(
            SqliteStatement ids, db.prepare(std::string("SELECT DISTINCT deviceId FROM ") + table));
        while (ids.step())
            devices[ids.columnInt(0)].deviceId = ids.columnInt(0);
        PLACESCOPE_RETURN_IF_ERROR(ids.status());
    }
    if (db.hasTable("TARGET_INFO_GPU")) {
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement names, db.prepare("SELECT id, name FROM TARGET_INFO_GPU"));
        while (names.step())
            if (auto found = devices.find(names.columnInt(0)); found != devices.end())
                found->second.name = names.columnText(1);
        PLACESCOPE_RETURN_IF_ERROR(names.status());
    }
    std::vector<DeviceUtilization> result;
    for (auto& [id, device] : devices) {
        PLACESCOPE_RETURN_IF_ERROR(mergeDevice(db, id, device));
        if (span.durationNs() > 0)
            device.utilizationOfTrace = static_cast<double>(device.busyNs) / static_cast<double>(span.durationNs());
        if (device.lastEndNs > device.firstStartNs)
            device.utilizationOfActive
                = static_cast<double>(device.busyNs) / static_cast<double>(device.lastEndNs - device.firstStartNs);
        result.push_back(device);
    }
    return result;
}

} // namespace placescope
