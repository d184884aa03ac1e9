// SPDX-License-Identifier: MIT
#include "profiler/store/trace_file.h"

#include "profiler/store/trace_schema_sql.h"

#include "profiler/store/trace_writer.h"

#include <filesystem>
#include <functional>
#include <vector>

namespace placescope {
namespace {

// migrationSteps()[v - 1] takes a file from schema version v to v + 1. Append a step (never edit one) when
// the schema changes, and bump kTraceSchemaVersion.
const std::vector<std::function<Status(SqliteDb&)>>& migrationSteps()
{
    static const std::vector<std::function<Status(SqliteDb&)>> kSteps = {};
    return kSteps;
}

} // namespace

Status migrateTrace(SqliteDb& db)
{
    PLACESCOPE_ASSIGN_OR_RETURN(int64_t version, db.queryInt("PRAGMA user_version"));
    if (version == kTraceSchemaVersion)
        return Status::ok();
    if (version < 1 || version > kTraceSchemaVersion
        || kTraceSchemaVersion - 1 > static_cast<int64_t>(migrationSteps().size()))
        return Status::error("trace schema version " + std::to_string(version) + " cannot be migrated to "
                             + std::to_string(kTraceSchemaVersion));
    PLACESCOPE_RETURN_IF_ERROR(db.exec("BEGIN"));
    for (int64_t v = version; v < kTraceSchemaVersion; ++v) {
        Status status = migrationSteps()[v - 1](db);
        if (!status.isOk()) {
            (void)db.exec("ROLLBACK");
            return status;
        }
    }
    PLACESCOPE_RETURN_IF_ERROR(db.exec("PRAGMA user_version=" + std::to_string(kTraceSchemaVersion)));
    return db.exec("COMMIT");
}

bool looksLikeNsysExport(SqliteDb& db)
{
    if (db.hasTable("PS_META") || !db.hasTable("StringIds"))
        return false;
    return db.hasTable("TARGET_INFO_SESSION_START_TIME") || db.hasTable("META_DATA_EXPORT")
        || db.hasTable("CUPTI_ACTIVITY_KIND_KERNEL") || db.hasTable("CUPTI_ACTIVITY_KIND_RUNTIME");
}

namespace {

// The tables trace_schema.sql creates, read once from the embedded schema text.
const std::vector<std::string>& schemaTableNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> found;
        const std::string_view schema = kTraceSchemaSql;
        const std::string_view marker = "CREATE TABLE ";
        for (size_t at = schema.find(marker); at != std::string_view::npos; at = schema.find(marker, at + 1)) {
            size_t begin = at + marker.size();
            size_t end = schema.find_first_of(" (\n", begin);
            found.emplace_back(schema.substr(begin, end - begin));
        }
        return found;
    }();
    return names;
}

} // namespace

Result<SqliteDb> openTrace(const std::string& path, TraceAccess access)
{
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return Status::error(path + ": no such trace file");
    auto mode = access == TraceAccess::ReadOnly ? SqliteDb::Mode::ReadOnly : SqliteDb::Mode::ReadWrite;
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::open(path, mode));
    if (!db.hasTable("PS_META")) {
        if (looksLikeNsysExport(db))
            return Status::error(path + " is an Nsight Systems export; run `placescope import " + path
                                 + " -o trace.sqlite` first");
        return Status::error(path + " is not a Placescope trace (no PS_META table)");
    }
    // A view where the schema has a table was not written by Placescope, and reading it could cost anything (a
    // recursive view never ends): refuse the file rather than run every reader into it.
    for (const std::string& table : schemaTableNames())
        if (db.hasView(table))
            return Status::error(path + ": " + table + " is a view, not the table a Placescope trace has; refusing to read it");
    PLACESCOPE_ASSIGN_OR_RETURN(int64_t version, db.queryInt("PRAGMA user_version"));
    if (version > kTraceSchemaVersion)
        return Status::error(path + " has trace schema version " + std::to_string(version)
                             + ", newer than this Placescope (" + std::to_string(kTraceSchemaVersion) + ")");
    if (version < kTraceSchemaVersion) {
        if (access == TraceAccess::ReadOnly)
            return Status::error(path + " has an older trace schema (version " + std::to_string(version)
                                 + "); run `placescope upgrade " + path + "`");
        PLACESCOPE_RETURN_IF_ERROR(migrateTrace(db));
    }
    return db;
}

} // namespace placescope
