// SPDX-License-Identifier: MIT
#include "analysis/trace/trace_data.h"

#include "analysis/trace/device_timeline.h"

#include "profiler/model/trace_events.h"

#include <algorithm>

namespace placescope {

namespace {

template <typename T> void sortByStart(std::vector<T>& items)
{
    auto byStart = [](const T& a, const T& b) { return a.startNs < b.startNs; };
    if (std::is_sorted(items.begin(), items.end(), byStart)) // producers usually write in time order
        return;
    std::stable_sort(items.begin(), items.end(), [](const T& a, const T& b) { return a.startNs < b.startNs; });
}

// Runs `sql` and calls `row(stmt)` per row; a missing table is no error (older or partial traces).
template <typename RowFn> Status forEachRow(SqliteDb& db, const char* table, const std::string& sql, RowFn row)
{
    if (!db.hasTable(table))
        return Status::ok();
    PLACESCOPE_ASSIGN_OR_RETURN(auto stmt, db.prepare(sql));
    while (stmt.step())
        row(stmt);
    return stmt.status();
}

} // namespace

std::string apiBaseName(const std::string& name)
{
    size_t v = name.rfind("_v");
    if (v == std::string::npos || v + 2 >= name.size())
        return name;
    for (size_t i = v + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9')
            return name;
    return name.substr(0, v);
}

const std::string& TraceData::name(int64_t nameId) const
{
    static const std::string kUnknown = "?";
    auto it = m_names.find(nameId);
    return it == m_names.end() ? kUnknown : it->second;
}

std::optional<int64_t> TraceData::findNameId(const std::string& text) const
{
    auto it = m_ids.find(text);
    if (it == m_ids.end())
        return std::nullopt;
    return it->second;
}

const GpuDevice* TraceData::device(int64_t id) const
{
    for (const auto& d : devices)
        if (d.id == id)
            return &d;
    return nullptr;
}

Status forEachGpuOp(SqliteDb& db, bool inStartOrder, const std::function<void(const GpuOp&)>& visit)
{
    // One statement over the three tables, so that an ordered read is one SQLite sort rather than a merge here.
    // Without ORDER BY the rows come table by table in rowid order, and a stable sort by start gives the same order
    // as "ORDER BY start, kind, rowid".
    static constexpr struct
    {
        const char* table;
        const char* columns;
    } kTables[] = {
        { "CUPTI_ACTIVITY_KIND_KERNEL",
            "0, start, end, IFNULL(globalPid,0), deviceId, streamId, "
            "IFNULL(correlationId,-1), demangledName, 0, 0, -1, -1, rowid" },
        { "CUPTI_ACTIVITY_KIND_MEMCPY",
            "1, start, end, IFNULL(globalPid,0), deviceId, streamId, "
            "IFNULL(correlationId,-1), -1, bytes, copyKind, IFNULL(srcKind,-1), "
            "IFNULL(dstKind,-1), rowid" },
        { "CUPTI_ACTIVITY_KIND_MEMSET",
            "2, start, end, IFNULL(globalPid,0), deviceId, streamId, "
            "IFNULL(correlationId,-1), -1, bytes, 0, IFNULL(memKind,-1), -1, rowid" },
    };
    std::string sql;
    for (const auto& t : kTables)
        if (db.hasTable(t.table))
            sql += std::string(sql.empty() ? "" : " UNION ALL ") + "SELECT " + t.columns + " FROM " + t.table;
    if (sql.empty())
        return Status::ok();
    if (inStartOrder)
        sql += " ORDER BY 2, 1, 13";
    PLACESCOPE_ASSIGN_OR_RETURN(auto stmt, db.prepare(sql));
    while (stmt.step()) {
        GpuOp op;
        op.kind = static_cast<GpuOp::Kind>(stmt.columnInt(0));
        op.startNs = stmt.columnInt(1);
        op.endNs = std::max(op.startNs, stmt.columnInt(2));
        op.globalPid = stmt.columnInt(3);
        op.deviceId = stmt.columnInt(4);
        op.streamId = stmt.columnInt(5);
        op.correlationId = stmt.columnInt(6);
        op.nameId = stmt.columnInt(7);
        op.bytes = stmt.columnInt(8);
        op.copyKind = stmt.columnInt(9);
        op.srcKind = stmt.columnInt(10);
        op.dstKind = stmt.columnInt(11);
        op.rowId = stmt.columnInt(12);
        visit(op);
    }
    return stmt.status();
}

Status forEachApiCall(SqliteDb& db, bool inStartOrder, const std::function<void(const ApiCall&)>& visit)
{
    return forEachRow(db, "CUPTI_ACTIVITY_KIND_RUNTIME",
        std::string(
            "SELECT start, end, globalTid, IFNULL(correlationId,-1), nameId, rowid FROM CUPTI_ACTIVITY_KIND_RUNTIME")
            + (inStartOrder ? " ORDER BY start, rowid" : ""),
        [&](SqliteStatement& s) {
            visit({ s.columnInt(0), std::max(s.columnInt(0), s.columnInt(1)), s.columnInt(2), s.columnInt(3),
                s.columnInt(4), s.columnInt(5) });
        });
}

Result<TraceData> TraceData::load(SqliteDb& db, TraceParts parts)
{
    TraceData data;
    data.parts = parts;
    PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "StringIds", "SELECT id, value FROM StringIds", [&](SqliteStatement& s) {
        int64_t id = s.columnInt(0);
        auto [it, inserted] = data.m_names.emplace(id, s.columnText(1));
        data.m_ids.emplace(it->second, id);
    }));
    if (parts == TraceParts::Everything) {
        PLACESCOPE_RETURN_IF_ERROR(forEachGpuOp(db, false, [&](const GpuOp& op) { data.gpuOps.push_back(op); }));
        PLACESCOPE_RETURN_IF_ERROR(
            forEachApiCall(db, false, [&](const ApiCall& call) { data.apiCalls.push_back(call); }));
    }
    PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        // "No stream" is nsys's all-ones id (kNoSyncId), or NULL in files written before Placescope followed it.
        "SELECT start, end, IFNULL(globalPid,0), IFNULL(deviceId,-1), CASE WHEN streamId IS NULL OR streamId = "
            + std::to_string(kNoSyncId)
            + " THEN -1 ELSE streamId END, "
              "IFNULL(correlationId,-1), IFNULL(syncType,0), CASE WHEN eventId IS NULL OR eventId = "
            + std::to_string(kNoSyncId) + " THEN -1 ELSE eventId END FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        [&](SqliteStatement& s) {
            data.syncWaits.push_back({ s.columnInt(0), std::max(s.columnInt(0), s.columnInt(1)), s.columnInt(2),
                s.columnInt(3), s.columnInt(4), s.columnInt(5), s.columnInt(6), s.columnInt(7) });
        }));
    PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "CUPTI_ACTIVITY_KIND_CUDA_EVENT",
        "SELECT IFNULL(globalPid,0), IFNULL(deviceId,-1), streamId, IFNULL(correlationId,-1), eventId"
        " FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT WHERE streamId IS NOT NULL AND eventId IS NOT NULL"
        " ORDER BY globalPid, eventId, correlationId",
        [&](SqliteStatement& s) {
            data.eventRecords.push_back(
                { s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4) });
        }));
    // A replay reads framework ops only for the steps and the input pipeline: annotations, ProfilerStep#N, JAX's
    // jitted-function calls (PjitFunction(NAME), step_detector.cpp) and data-loading ranges (a DataLoader's __next__, a
    // loader thread's work: whatif/host_waits.h) whatever their category, so that the replay's graph is the same
    // whichever parts were loaded.
    std::string loadingNameIds;
    if (parts != TraceParts::Everything)
        PLACESCOPE_RETURN_IF_ERROR(
            forEachRow(db, "PS_FRAMEWORK_OPS", "SELECT DISTINCT nameId FROM PS_FRAMEWORK_OPS", [&](SqliteStatement& s) {
                const int64_t id = s.columnInt(0);
                if (isDataLoadingRange(data.name(id)))
                    loadingNameIds += (loadingNameIds.empty() ? "" : ",") + std::to_string(id);
            }));
    const std::string frameworkOpsFilter = parts == TraceParts::Everything
        ? ""
        : " WHERE category = 'user_annotation' OR nameId IN (SELECT id FROM StringIds WHERE value LIKE "
          "'ProfilerStep#%' OR value LIKE 'PjitFunction(%')"
            + (loadingNameIds.empty() ? std::string() : " OR nameId IN (" + loadingNameIds + ")");
    PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "PS_FRAMEWORK_OPS",
        "SELECT start, end, globalTid, nameId, category, IFNULL(externalId,-1), IFNULL(depth,-1), "
        "IFNULL(inputDims,''), IFNULL(inputTypes,''), IFNULL(extra,'') FROM PS_FRAMEWORK_OPS"
            + frameworkOpsFilter,
        [&](SqliteStatement& s) {
            HostRange r;
            r.startNs = s.columnInt(0);
            r.endNs = std::max(r.startNs, s.columnInt(1));
            r.globalTid = s.columnInt(2);
            r.nameId = s.columnInt(3);
            r.category = s.columnText(4);
            r.externalId = s.columnInt(5);
            r.depth = static_cast<int32_t>(s.columnInt(6));
            r.inputDims = s.columnText(7);
            r.inputTypes = s.columnText(8);
            // Only the placement hint and the NCCL message of `extra` are read (rules, the collectives report);
            // keep the rest out of memory.
            std::string extra = s.columnText(9);
            if (extra.find("provider") != std::string::npos || extra.find("Collective name") != std::string::npos)
                r.extra = std::move(extra);
            data.hostRanges.push_back(std::move(r));
        }));
    int64_t syntheticId = -2;
    PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "NVTX_EVENTS",
        "SELECT start, end, IFNULL(globalTid,0), IFNULL(textId,-1), IFNULL(text,'') FROM NVTX_EVENTS "
        "WHERE end IS NOT NULL AND end > start",
        [&](SqliteStatement& s) {
            HostRange r;
            r.startNs = s.columnInt(0);
            r.endNs = s.columnInt(1);
            r.globalTid = s.columnInt(2);
            r.nameId = s.columnInt(3);
            r.isNvtx = true;
            r.category = "nvtx";
            if (r.nameId < 0) {
                std::string text = s.columnText(4);
                auto it = data.m_ids.find(text);
                if (it == data.m_ids.end()) {
                    r.nameId = syntheticId--;
                    auto [pos, _] = data.m_names.emplace(r.nameId, text);
                    data.m_ids.emplace(pos->second, r.nameId);
                } else {
                    r.nameId = it->second;
                }
            }
            data.hostRanges.push_back(std::move(r));
        }));
    if (parts == TraceParts::Everything) {
        PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "PS_MEMORY_EVENTS",
            "SELECT start, IFNULL(globalTid,0), deviceId, bytes, IFNULL(totalAllocated,-1), IFNULL(totalReserved,-1), "
            "IFNULL(address,-1) FROM PS_MEMORY_EVENTS WHERE deviceType = 1",
            [&](SqliteStatement& s) {
                data.memory.push_back({ s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4),
                    s.columnInt(5), s.columnInt(6) });
            }));
        PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "CUDA_GPU_MEMORY_USAGE_EVENTS",
            "SELECT start, IFNULL(globalPid,0), IFNULL(deviceId,0), bytes, memoryOperationType "
            "FROM CUDA_GPU_MEMORY_USAGE_EVENTS",
            [&](SqliteStatement& s) {
                data.segments.push_back(
                    { s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4) == 1 });
            }));
        PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "PS_GPU_ANNOTATIONS",
            "SELECT start, end, IFNULL(globalPid,0), deviceId, streamId, nameId FROM PS_GPU_ANNOTATIONS",
            [&](SqliteStatement& s) {
                data.gpuAnnotations.push_back({ s.columnInt(0), std::max(s.columnInt(0), s.columnInt(1)),
                    s.columnInt(2), s.columnInt(3), s.columnInt(4), s.columnInt(5) });
            }));
        PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "PS_COUNTERS",
            "SELECT start, end, IFNULL(globalPid,0), nameId, metric, value, IFNULL(correlationId,-1) FROM PS_COUNTERS",
            [&](SqliteStatement& s) {
                data.counters.push_back({ s.columnInt(0), std::max(s.columnInt(0), s.columnInt(1)), s.columnInt(2),
                    s.columnInt(3), s.columnText(4), s.columnDouble(5), s.columnInt(6) });
            }));
    }
    PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "TARGET_INFO_GPU",
        "SELECT id, IFNULL(name,''), IFNULL(totalMemory,0), IFNULL(computeMajor,-1), IFNULL(computeMinor,-1) "
        "FROM TARGET_INFO_GPU ORDER BY id",
        [&](SqliteStatement& s) {
            data.devices.push_back({ s.columnInt(0), s.columnText(1), s.columnInt(2), s.columnInt(3), s.columnInt(4) });
        }));
    PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "PS_STEPS",
        "SELECT stepNumber, start, end, IFNULL(globalPid,-1) FROM PS_STEPS WHERE end > start ORDER BY start",
        [&](SqliteStatement& s) {
            data.recordedSteps.push_back({ s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3) });
        }));
    PLACESCOPE_RETURN_IF_ERROR(
        forEachRow(db, "PS_PROCESSES", "SELECT globalPid, IFNULL(rank,-1) FROM PS_PROCESSES", [&](SqliteStatement& s) {
            data.ranks.push_back({ s.columnInt(0), s.columnInt(1) });
        }));
    if (parts == TraceParts::Everything)
        PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "PS_EXTERNAL_CORRELATION",
            "SELECT IFNULL(globalPid,0), correlationId, externalId FROM PS_EXTERNAL_CORRELATION",
            [&](SqliteStatement& s) {
                data.externalIdOfCorrelation[correlationKey(s.columnInt(0), s.columnInt(1))] = s.columnInt(2);
            }));
    PLACESCOPE_RETURN_IF_ERROR(forEachRow(db, "PS_META", "SELECT value FROM PS_META WHERE key = 'source_format'",
        [&](SqliteStatement& s) { data.sourceFormat = s.columnText(0); }));

    sortByStart(data.gpuOps);
    sortByStart(data.apiCalls);
    sortByStart(data.syncWaits);
    sortByStart(data.hostRanges);
    sortByStart(data.memory);
    sortByStart(data.segments);
    sortByStart(data.counters);
    sortByStart(data.gpuAnnotations);
    return data;
}

} // namespace placescope
