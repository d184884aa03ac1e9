// SPDX-License-Identifier: MIT
#include "whatif/prediction_file.h"

#include "profiler/base/output_file.h"
#include "profiler/model/global_ids.h"
#include "profiler/store/sqlite_db.h"
#include "profiler/store/trace_file.h"

#include <filesystem>
#include <map>

namespace placescope {

namespace {

const char* tableOf(TaskKind kind)
{
    switch (kind) {
    case TaskKind::Kernel:
        return "CUPTI_ACTIVITY_KIND_KERNEL";
    case TaskKind::Memcpy:
        return "CUPTI_ACTIVITY_KIND_MEMCPY";
    case TaskKind::Memset:
        return "CUPTI_ACTIVITY_KIND_MEMSET";
    default:
        return "CUPTI_ACTIVITY_KIND_RUNTIME";
    }
}

std::string quoted(const std::string& text)
{
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

// Moves the host-side rows of a thread (framework ops, NVTX ranges) with the replayed work of that thread.
Status moveHostRows(SqliteDb& db, const WhatIfResult& r, const char* table, const char* idColumn, bool hasEnd)
{
    if (!db.hasTable(table))
        return Status::ok();
    std::map<int64_t, int32_t> laneOfThread;
    const ReplayGraph& g = r.predictedGraph;
    for (int32_t l = 0; l < static_cast<int32_t>(g.lanes.size()); ++l)
        if (g.lanes[l].kind == ReplayLane::Kind::Host)
            laneOfThread[g.lanes[l].globalTid] = l;
    std::vector<std::tuple<int64_t, int64_t, int64_t>> moved; // id, start, end
    {
        PLACESCOPE_ASSIGN_OR_RETURN(auto select,
            db.prepare(std::string("SELECT ") + idColumn + ", start, " + (hasEnd ? "end" : "NULL") + ", globalTid FROM "
                + table + " WHERE globalTid IS NOT NULL"));
        while (select.step()) {
            auto lane = laneOfThread.find(select.columnInt(3));
            if (lane == laneOfThread.end())
                continue;
            const int64_t start = replayedInstant(g, r.predictedSchedule, lane->second, select.columnInt(1));
            const int64_t end = select.isNull(2)
                ? start
                : std::max(start, replayedInstant(g, r.predictedSchedule, lane->second, select.columnInt(2)));
            moved.emplace_back(select.columnInt(0), start, select.isNull(2) ? -1 : end);
        }
        PLACESCOPE_RETURN_IF_ERROR(select.status());
    }
    PLACESCOPE_ASSIGN_OR_RETURN(auto update,
        db.prepare(std::string("UPDATE ") + table + " SET start = ?1"
            + (hasEnd ? ", end = CASE WHEN end IS NULL THEN NULL ELSE ?3 END" : "") + " WHERE " + idColumn + " = ?2"));
    for (const auto& [id, start, end] : moved) {
        update.bind(1, start);
        update.bind(2, id);
        if (hasEnd)
            update.bind(3, end);
        PLACESCOPE_RETURN_IF_ERROR(update.execute());
    }
    return Status::ok();
}

// Flow arrows (launch -> kernel, forward -> backward) move with the lanes of their two ends; arrows to a GPU op the
// prediction removed go with it.
Status moveFlows(SqliteDb& db, const WhatIfResult& r)
{
    if (!db.hasTable("PS_FLOWS"))
        return Status::ok();
    const ReplayGraph& g = r.predictedGraph;
    std::map<int64_t, int32_t> hostLane;
    std::map<std::tuple<int64_t, int64_t, int64_t>, int32_t> gpuLane; // (pid, device, stream)
    for (int32_t l = 0; l < static_cast<int32_t>(g.lanes.size()); ++l) {
        const ReplayLane& lane = g.lanes[l];
        if (lane.kind == ReplayLane::Kind::Host)
            hostLane[lane.globalTid] = l;
        else
            gpuLane[{ pidOfGlobalId(lane.globalPid), lane.deviceId, lane.streamId }] = l;
    }
    auto laneOf = [&](SqliteStatement& row, int tidColumn, int64_t pid) -> int32_t {
        if (!row.isNull(tidColumn)) {
            auto it = hostLane.find(row.columnInt(tidColumn));
            return it == hostLane.end() ? -1 : it->second;
        }
        auto it = gpuLane.find({ pid, row.columnInt(tidColumn + 1), row.columnInt(tidColumn + 2) });
        return it == gpuLane.end() ? -1 : it->second;
    };
    std::vector<std::tuple<int64_t, int64_t, int64_t>> moved; // rowid, fromTs, toTs
    {
        const char* sql = "SELECT rowid, fromTs, fromGlobalTid, fromDeviceId, fromStreamId, toTs, toGlobalTid, "
                          "toDeviceId, toStreamId FROM PS_FLOWS";
        PLACESCOPE_ASSIGN_OR_RETURN(auto select, db.prepare(sql));
        while (select.step()) {
            // The process of a device end is the one of the host end (flows do not cross processes).
            const int64_t tid = select.isNull(2) ? (select.isNull(6) ? 0 : select.columnInt(6)) : select.columnInt(2);
            const int64_t pid = pidOfGlobalId(tid);
            const int32_t from = laneOf(select, 2, pid), to = laneOf(select, 6, pid);
            moved.emplace_back(select.columnInt(0),
                from < 0 ? select.columnInt(1) : replayedInstant(g, r.predictedSchedule, from, select.columnInt(1)),
                to < 0 ? select.columnInt(5) : replayedInstant(g, r.predictedSchedule, to, select.columnInt(5)));
        }
        PLACESCOPE_RETURN_IF_ERROR(select.status());
    }
    PLACESCOPE_ASSIGN_OR_RETURN(auto update, db.prepare("UPDATE PS_FLOWS SET fromTs = ?1, toTs = ?2 WHERE rowid = ?3"));
    for (const auto& [rowid, fromTs, toTs] : moved) {
        update.bind(1, fromTs);
        update.bind(2, toTs);
        update.bind(3, rowid);
        PLACESCOPE_RETURN_IF_ERROR(update.execute());
    }
    // Launch flows are pinned to their two ends by correlation id, which does not depend on how the importer
    // numbered the flow's thread (legacy Kineto traces give flows and runtime calls different thread ids).
    PLACESCOPE_RETURN_IF_ERROR(
        db.exec("UPDATE PS_FLOWS SET fromTs = r.start FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r "
                "WHERE PS_FLOWS.category IN ('ac2g', 'async') AND r.correlationId = PS_FLOWS.id AND "
            + sqlPidOfGlobalId("r.globalTid") + " = " + sqlPidOfGlobalId("PS_FLOWS.fromGlobalTid")));
    PLACESCOPE_RETURN_IF_ERROR(
        db.exec("UPDATE PS_FLOWS SET toTs = g.start FROM (SELECT correlationId, globalPid, start FROM "
                "CUPTI_ACTIVITY_KIND_KERNEL "
                "UNION ALL SELECT correlationId, globalPid, start FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                "UNION ALL SELECT correlationId, globalPid, start FROM CUPTI_ACTIVITY_KIND_MEMSET) AS g "
                "WHERE PS_FLOWS.category IN ('ac2g', 'async') AND g.correlationId = PS_FLOWS.id AND "
            + sqlPidOfGlobalId("g.globalPid") + " = " + sqlPidOfGlobalId("PS_FLOWS.fromGlobalTid")));
    return db.exec("DELETE FROM PS_FLOWS WHERE category IN ('ac2g', 'async') "
                   "AND NOT EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE k.correlationId = PS_FLOWS.id) "
                   "AND NOT EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_MEMCPY c WHERE c.correlationId = PS_FLOWS.id) "
                   "AND NOT EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_MEMSET m WHERE m.correlationId = PS_FLOWS.id)");
}

Status rewrite(SqliteDb& db, const std::string& inputPath, const WhatIfResult& r)
{
    const ReplayGraph& g = r.predictedGraph;
    const ReplaySchedule& s = r.predictedSchedule;
    PLACESCOPE_RETURN_IF_ERROR(db.exec("BEGIN"));
    std::map<const char*, std::pair<SqliteStatement, SqliteStatement>> statements;
    for (TaskKind kind : { TaskKind::HostCall, TaskKind::Kernel, TaskKind::Memcpy, TaskKind::Memset }) {
        const std::string table = tableOf(kind);
        PLACESCOPE_ASSIGN_OR_RETURN(
            auto update, db.prepare("UPDATE " + table + " SET start = ?1, end = ?2 WHERE rowid = ?3"));
        PLACESCOPE_ASSIGN_OR_RETURN(auto remove, db.prepare("DELETE FROM " + table + " WHERE rowid = ?1"));
        statements.emplace(tableOf(kind), std::make_pair(std::move(update), std::move(remove)));
    }
    for (size_t id = 0; id < g.tasks.size(); ++id) {
        const ReplayTask& t = g.tasks[id];
        if (t.rowId < 0)
            continue;
        auto& [update, remove] = statements.at(tableOf(t.kind));
        if (t.dropped) {
            remove.bind(1, static_cast<int64_t>(t.rowId));
            PLACESCOPE_RETURN_IF_ERROR(remove.execute());
            continue;
        }
        update.bind(1, s.start[id]);
        update.bind(2, s.end[id]);
        update.bind(3, static_cast<int64_t>(t.rowId));
        PLACESCOPE_RETURN_IF_ERROR(update.execute());
    }
    auto& runtimeUpdate = statements.at(tableOf(TaskKind::HostCall)).first;
    for (const NestedCall& call : g.nested) {
        const int64_t start = std::min(s.start[call.parent] + call.offsetNs, s.end[call.parent]);
        runtimeUpdate.bind(1, start);
        runtimeUpdate.bind(2, std::min(start + call.durationNs, std::max(start, s.end[call.parent])));
        runtimeUpdate.bind(3, call.rowId);
        PLACESCOPE_RETURN_IF_ERROR(runtimeUpdate.execute());
    }
    statements.clear();
    PLACESCOPE_RETURN_IF_ERROR(moveHostRows(db, r, "PS_FRAMEWORK_OPS", "id", true));
    PLACESCOPE_RETURN_IF_ERROR(moveHostRows(db, r, "NVTX_EVENTS", "rowid", true));
    PLACESCOPE_RETURN_IF_ERROR(moveHostRows(db, r, "PS_MEMORY_EVENTS", "rowid", false));
    PLACESCOPE_RETURN_IF_ERROR(moveFlows(db, r));
    // Sync rows are timed by their host call.
    if (db.hasTable("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"))
        PLACESCOPE_RETURN_IF_ERROR(
            db.exec("UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION AS s SET start = r.start, end = r.end "
                    "FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r WHERE r.correlationId = s.correlationId AND "
                + sqlGlobalPidOfGlobalTid("r.globalTid") + " = " + sqlGlobalPidOfGlobalTid("s.globalPid")));
    // Steps move with the lane their boundaries are read on.
    if (db.hasTable("PS_STEPS")) {
        PLACESCOPE_ASSIGN_OR_RETURN(
            auto update, db.prepare("UPDATE PS_STEPS SET start = ?1, end = ?2 WHERE stepNumber = ?3 AND start = ?4"));
        for (const ReplayStep& step : g.steps) {
            if (step.lane < 0)
                continue;
            update.bind(1, replayedInstant(g, s, step.lane, step.startNs));
            update.bind(2, replayedInstant(g, s, step.lane, step.endNs));
            update.bind(3, step.number);
            update.bind(4, step.startNs);
            PLACESCOPE_RETURN_IF_ERROR(update.execute());
        }
    }
    std::string edits;
    for (const EditOutcome& e : r.edits)
        edits += (edits.empty() ? "" : " ") + e.text;
    const std::map<std::string, std::string> meta = {
        { "prediction", "whatif" },
        { "predicted_from", std::filesystem::path(inputPath).filename().string() },
        { "predicted_edits", edits.empty() ? "(none: the unedited replay)" : edits },
        { "predicted_step_ns", std::to_string(r.predicted.stepNs) },
        { "replay_step_ns", std::to_string(r.replay.stepNs) },
        { "measured_step_ns", std::to_string(r.measured.stepNs) },
        // The band (analysis/trace/step_band.h) diff judges a measured run by; -1: unknown.
        { "predicted_step_spread", std::to_string(r.band.spread) },
    };
    for (const auto& [key, value] : meta)
        PLACESCOPE_RETURN_IF_ERROR(
            db.exec("INSERT OR REPLACE INTO PS_META(key, value) VALUES (" + quoted(key) + ", " + quoted(value) + ")"));
    return db.exec("COMMIT");
}

} // namespace

Status writePredictedTrace(const std::string& inputPath, const std::string& outputPath, const WhatIfResult& result)
{
    // The shared OutputFile refuses -o naming the input (by any path) or a non-file, and gives a temporary file
    // of our own beside the output (VACUUM INTO accepts it because it is empty).
    PLACESCOPE_ASSIGN_OR_RETURN(OutputFile output, OutputFile::create(outputPath, { inputPath }));
    auto fail = [&](const Status& status) {
        return Status::error("cannot write " + outputPath + ": " + status.message()); // output removes its file
    };
    {
        auto source = openTrace(inputPath);
        if (!source.isOk())
            return source.status();
        Status copied = source->exec("VACUUM INTO " + quoted(output.tempPath()));
        if (!copied.isOk())
            return fail(copied);
    }
    {
        // Through openTrace: the copy lacks the tables its source had no rows for, which rewrite() may touch.
        auto db = openTrace(output.tempPath(), TraceAccess::ReadWrite);
        if (!db.isOk())
            return fail(db.status());
        Status written = rewrite(*db, inputPath, result);
        if (!written.isOk())
            return fail(written);
    }
    return output.commit();
}

} // namespace placescope
