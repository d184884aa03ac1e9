// SPDX-License-Identifier: MIT
// GPU-side events of the Chrome export (kernels, copies, memsets, syncs), launch flows and memory counters,
// with the names and args Kineto writes for them.
#include "profiler/exporters/chrome_export_context.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/model/global_ids.h"

#include "profiler/model/trace_events.h"

#include <map>

namespace placescope::chrome {
namespace {

std::optional<int64_t> optionalInt(const SqliteStatement& row, int column)
{
    return row.isNull(column) ? std::nullopt : std::optional<int64_t>(row.columnInt(column));
}

// Common GPU-activity args: device, context, stream, correlation, External id (of the correlation id in the
// activity's process).
void gpuArgs(
    ExportContext& c, const SqliteStatement& row, int device, int context, int stream, int correlation, int globalPid)
{
    c.out.field("device", row.columnInt(device));
    if (!row.isNull(context))
        c.out.field("context", row.columnInt(context));
    c.out.field("stream", row.columnInt(stream));
    if (!row.isNull(correlation))
        c.out.field("correlation", row.columnInt(correlation));
    if (auto external = c.externalIds.find(optionalInt(row, globalPid), optionalInt(row, correlation)))
        c.out.field("External id", *external);
}

void interval(ExportContext& c, const SqliteStatement& row, int start, int end)
{
    c.out.timestampField("ts", row.columnInt(start));
    c.out.timestampField("dur", row.columnInt(end) - row.columnInt(start));
}

std::string memKindName(const SqliteStatement& row, int column)
{
    return std::string(row.isNull(column) ? "Unknown" : memKindLabel(static_cast<MemKind>(row.columnInt(column))));
}

} // namespace

Status writeKernels(ExportContext& c)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement row,
        c.db.prepare("SELECT t.start, t.end, t.deviceId, t.contextId, t.streamId, t.correlationId, t.globalPid,"
                     " s.value, t.gridX, t.gridY, t.gridZ, t.blockX, t.blockY, t.blockZ, t.registersPerThread,"
                     " COALESCE(t.staticSharedMemory, 0) + COALESCE(t.dynamicSharedMemory, 0)"
                     " FROM CUPTI_ACTIVITY_KIND_KERNEL t LEFT JOIN StringIds s ON s.id = t.demangledName"));
    while (row.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        c.gpuLanes.emplace(row.columnInt(2), row.columnInt(4));
        c.beginEvent("X", "kernel", row.columnText(7), row.columnInt(2), row.columnInt(4));
        interval(c, row, 0, 1);
        c.out.beginObject("args");
        gpuArgs(c, row, 2, 3, 4, 5, 6);
        if (!row.isNull(14))
            c.out.field("registers per thread", row.columnInt(14));
        c.out.field("shared memory", row.columnInt(15));
        if (!row.isNull(8)) {
            c.out.beginArray("grid");
            for (int i = 8; i < 11; ++i)
                c.out.value(row.isNull(i) ? 1 : row.columnInt(i));
            c.out.endArray();
            c.out.beginArray("block");
            for (int i = 11; i < 14; ++i)
                c.out.value(row.isNull(i) ? 1 : row.columnInt(i));
            c.out.endArray();
        }
        c.out.endObject();
        c.out.endObject();
    }
    return row.status();
}

Status writeMemcpys(ExportContext& c)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement row,
        c.db.prepare("SELECT t.start, t.end, t.deviceId, t.contextId, t.streamId, t.correlationId, t.globalPid,"
                     " t.bytes, t.copyKind, t.srcKind, t.dstKind FROM CUPTI_ACTIVITY_KIND_MEMCPY t"));
    while (row.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        c.gpuLanes.emplace(row.columnInt(2), row.columnInt(4));
        std::string name = "Memcpy " + std::string(copyKindShortName(static_cast<CopyKind>(row.columnInt(8)))) + " ("
            + memKindName(row, 9) + " -> " + memKindName(row, 10) + ")";
        c.beginEvent("X", "gpu_memcpy", name, row.columnInt(2), row.columnInt(4));
        interval(c, row, 0, 1);
        c.out.beginObject("args");
        gpuArgs(c, row, 2, 3, 4, 5, 6);
        int64_t durationNs = row.columnInt(1) - row.columnInt(0);
        c.out.field("bytes", row.columnInt(7));
        c.out.field("memory bandwidth (GB/s)",
            durationNs > 0 ? static_cast<double>(row.columnInt(7)) / static_cast<double>(durationNs) : 0.0);
        c.out.endObject();
        c.out.endObject();
    }
    return row.status();
}

Status writeMemsets(ExportContext& c)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement row,
        c.db.prepare("SELECT t.start, t.end, t.deviceId, t.contextId, t.streamId, t.correlationId, t.globalPid,"
                     " t.bytes, t.memKind FROM CUPTI_ACTIVITY_KIND_MEMSET t"));
    while (row.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        c.gpuLanes.emplace(row.columnInt(2), row.columnInt(4));
        c.beginEvent("X", "gpu_memset", "Memset (" + memKindName(row, 8) + ")", row.columnInt(2), row.columnInt(4));
        interval(c, row, 0, 1);
        c.out.beginObject("args");
        gpuArgs(c, row, 2, 3, 4, 5, 6);
        int64_t durationNs = row.columnInt(1) - row.columnInt(0);
        c.out.field("bytes", row.columnInt(7));
        c.out.field("memory bandwidth (GB/s)",
            durationNs > 0 ? static_cast<double>(row.columnInt(7)) / static_cast<double>(durationNs) : 0.0);
        c.out.endObject();
        c.out.endObject();
    }
    return row.status();
}

Status writeSyncs(ExportContext& c)
{
    static const std::map<int64_t, const char*> kNames = {
        { 0, "Unknown Sync" },
        { 1, "Event Sync" },
        { 2, "Stream Wait Event" },
        { 3, "Stream Sync" },
        { 4, "Context Sync" },
    };
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement row,
        c.db.prepare("SELECT t.start, t.end, t.deviceId, t.contextId, t.streamId,"
                     " t.correlationId, t.globalPid, t.syncType"
                     " FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION t"));
    while (row.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        auto found = kNames.find(row.isNull(7) ? 0 : row.columnInt(7));
        const char* name = found == kNames.end() ? "Unknown Sync" : found->second;
        // Kineto draws syncs on the GPU lane; a context sync without a stream goes on the device's lane -1, and
        // its args name the stream 4294967295 as Kineto's do (NULL in files written before means the same).
        int64_t device = row.isNull(2) ? 0 : row.columnInt(2);
        bool noStream = row.isNull(4) || row.columnInt(4) == kNoSyncId;
        int64_t lane = noStream ? -1 : row.columnInt(4);
        c.gpuLanes.emplace(device, lane);
        c.beginEvent("X", "cuda_sync", name, device, lane);
        interval(c, row, 0, 1);
        c.out.beginObject("args");
        c.out.field("cuda_sync_kind", name);
        c.out.field("device", device);
        c.out.field("stream", noStream ? kNoSyncId : lane);
        if (!row.isNull(3))
            c.out.field("context", row.columnInt(3));
        if (!row.isNull(5))
            c.out.field("correlation", row.columnInt(5));
        if (auto external = c.externalIds.find(optionalInt(row, 6), optionalInt(row, 5)))
            c.out.field("External id", *external);
        c.out.endObject();
        c.out.endObject();
    }
    return row.status();
}

Status writeFlows(ExportContext& c)
{
    // Flows recorded by the source (Kineto ac2g/fwdbwd); when it recorded no launch flows (nsys, capture), they
    // are derived from correlation ids: API call -> GPU activity of the same process.
    bool recordedLaunches = false;
    if (auto n = c.db.queryInt("SELECT COUNT(*) FROM PS_FLOWS WHERE category = 'ac2g'"); n.isOk())
        recordedLaunches = *n > 0;
    std::string sql = "SELECT id, category, fromTs, fromGlobalTid, fromDeviceId, fromStreamId, toTs, toGlobalTid,"
                      " toDeviceId, toStreamId FROM PS_FLOWS";
    if (!recordedLaunches)
        sql += " UNION ALL SELECT r.correlationId, 'ac2g', r.start, r.globalTid, NULL, NULL, g.start, NULL,"
               " g.deviceId, g.streamId FROM (SELECT correlationId, globalPid, start, deviceId, streamId FROM"
               " CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT correlationId, globalPid, start, deviceId, streamId FROM"
               " CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT correlationId, globalPid, start, deviceId, streamId FROM"
               " CUPTI_ACTIVITY_KIND_MEMSET) g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId"
               " AND (g.globalPid IS NULL OR g.globalPid = "
            + sqlGlobalPidOfGlobalTid("r.globalTid") + ")";
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement row, c.db.prepare(sql));
    while (row.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        std::string category = row.columnText(1);
        for (int end = 0; end < 2; ++end) {
            int base = end == 0 ? 2 : 6; // ts, globalTid, deviceId, streamId
            bool host = !row.isNull(base + 1);
            int64_t pid = host ? pidOfGlobalId(row.columnInt(base + 1)) : row.columnInt(base + 2);
            int64_t tid = host ? tidOfGlobalTid(row.columnInt(base + 1)) : row.columnInt(base + 3);
            c.beginEvent(end == 0 ? "s" : "f", category, category, pid, tid);
            c.out.field("id", row.columnInt(0));
            c.out.timestampField("ts", row.columnInt(base));
            if (end == 1)
                c.out.field("bp", "e");
            c.out.endObject();
        }
    }
    return row.status();
}

Status writeMemoryCounters(ExportContext& c)
{
    // Framework allocator events: Kineto's "[memory]" instants (what its readers use) and counter tracks.
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement row,
        c.db.prepare("SELECT start, globalTid, deviceType, deviceId, address, bytes,"
                     " totalAllocated, totalReserved FROM PS_MEMORY_EVENTS ORDER BY start"));
    while (row.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        int64_t gtid = row.isNull(1) ? 0 : row.columnInt(1);
        bool cuda = row.columnInt(2) == 1;
        c.beginEvent("i", "cpu_instant_event", "[memory]", pidOfGlobalId(gtid), tidOfGlobalTid(gtid));
        c.out.timestampField("ts", row.columnInt(0));
        c.out.field("s", "t");
        c.out.beginObject("args");
        c.out.field("Device Type", row.columnInt(2));
        c.out.field("Device Id", row.columnInt(3));
        if (!row.isNull(4))
            c.out.field("Addr", row.columnInt(4));
        c.out.field("Bytes", row.columnInt(5));
        if (!row.isNull(6))
            c.out.field("Total Allocated", row.columnInt(6));
        if (!row.isNull(7))
            c.out.field("Total Reserved", row.columnInt(7));
        c.out.endObject();
        c.out.endObject();
        if (row.isNull(6) && row.isNull(7))
            continue;
        int64_t pid = cuda ? row.columnInt(3) : pidOfGlobalId(gtid);
        c.beginEvent(
            "C", "memory", cuda ? "Memory (GPU " + std::to_string(row.columnInt(3)) + ")" : "Memory (CPU)", pid, 0);
        c.out.timestampField("ts", row.columnInt(0));
        c.out.beginObject("args");
        c.out.field("Allocated", row.isNull(6) ? 0 : row.columnInt(6));
        c.out.field("Reserved", row.isNull(7) ? 0 : row.columnInt(7));
        c.out.endObject();
        c.out.endObject();
    }
    PLACESCOPE_RETURN_IF_ERROR(row.status());
    // CUDA-level allocations (nsys / capture): a running total of bytes held per device.
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement cudaRow,
        c.db.prepare("SELECT start, COALESCE(deviceId, 0), bytes, memoryOperationType FROM"
                     " CUDA_GPU_MEMORY_USAGE_EVENTS ORDER BY start"));
    std::map<int64_t, int64_t> held;
    while (cudaRow.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        int64_t device = cudaRow.columnInt(1);
        held[device] += cudaRow.columnInt(3) == 1 ? -cudaRow.columnInt(2) : cudaRow.columnInt(2);
        c.beginEvent("C", "memory", "CUDA memory (GPU " + std::to_string(device) + ")", device, 0);
        c.out.timestampField("ts", cudaRow.columnInt(0));
        c.out.beginObject("args");
        c.out.field("Allocated", held[device]);
        c.out.endObject();
        c.out.endObject();
    }
    return cudaRow.status();
}

} // namespace placescope::chrome
