// SPDX-License-Identifier: MIT
#include "profiler/store/trace_file.h"

#include "profiler/store/trace_identity.h"
#include "profiler/store/trace_schema_sql.h"

#include "profiler/store/trace_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>
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

Result<SqliteFileKind> identifySqliteFile(SqliteDb& db, int64_t* applicationId)
{
    PLACESCOPE_ASSIGN_OR_RETURN(int64_t id, db.queryInt("PRAGMA application_id"));
    if (applicationId)
        *applicationId = id;
    if (id == kTraceApplicationId)
        return db.hasTable("PS_META") ? SqliteFileKind::PlacescopeTrace : SqliteFileKind::DamagedPlacescopeTrace;
    // Before the id: nsys might stamp its exports one day, and they must still import.
    if (looksLikeNsysExport(db))
        return SqliteFileKind::NsysExport;
    if (id != 0)
        return SqliteFileKind::OtherApplication;
    // application_id 0: a trace written before Placescope stamped its files, or any other SQLite file.
    return db.hasTable("PS_META") ? SqliteFileKind::PlacescopeTrace : SqliteFileKind::OtherSqlite;
}

std::string notATraceMessage(const std::string& path, SqliteFileKind kind, int64_t applicationId)
{
    switch (kind) {
    case SqliteFileKind::PlacescopeTrace:
        break;
    case SqliteFileKind::DamagedPlacescopeTrace:
        return path + " is a Placescope trace without its PS_META table (damaged, or not fully written)";
    case SqliteFileKind::NsysExport:
        return path + " is an Nsight Systems export; run `placescope import " + path + " -o trace.sqlite` first";
    case SqliteFileKind::OtherApplication:
        return path + " is a SQLite file of another application (application_id " + describeApplicationId(applicationId)
            + "), not a Placescope trace";
    case SqliteFileKind::OtherSqlite:
        return path
            + " is a SQLite database but not a Placescope trace (no PS_META table, no Placescope application_id)";
    }
    return {};
}

namespace {

struct SchemaTable
{
    std::string name;
    std::string definition; // the CREATE TABLE statement without its "CREATE TABLE " head
};

// The tables trace_schema.sql creates, read once from the embedded schema text.
const std::vector<SchemaTable>& schemaTables()
{
    static const std::vector<SchemaTable> tables = [] {
        std::vector<SchemaTable> found;
        const std::string_view schema = kTraceSchemaSql;
        const std::string_view marker = "CREATE TABLE ";
        for (size_t at = schema.find(marker); at != std::string_view::npos; at = schema.find(marker, at + 1)) {
            size_t begin = at + marker.size();
            size_t end = schema.find_first_of(" (\n", begin);
            // The statement ends at the parenthesis that closes its column list; "--" comments are skipped.
            size_t close = schema.find('(', begin);
            for (int depth = 0; close < schema.size(); ++close) {
                if (schema.compare(close, 2, "--") == 0)
                    close = std::min(schema.find('\n', close), schema.size() - 1);
                else if (schema[close] == '(')
                    ++depth;
                else if (schema[close] == ')' && --depth == 0)
                    break;
            }
            found.push_back({ std::string(schema.substr(begin, end - begin)),
                std::string(schema.substr(begin, close + 1 - begin)) });
        }
        return found;
    }();
    return tables;
}

// Why `path` cannot be a trace file before SQLite is asked: not there, not readable, or not a regular file (a
// folder, /dev/zero, a FIFO: SQLite would read a device without end or wait on a pipe for a writer).
Status checkTracePath(const std::string& path)
{
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        return Status::error(errno == ENOENT || errno == ENOTDIR ? path + ": no such trace file"
                                                                 : "cannot read " + path + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        return Status::error(path + " is a directory, not a trace file");
    if (!S_ISREG(st.st_mode))
        return Status::error(path
            + " is not a regular file (a device, pipe or socket); a trace is a file: to read a stream, "
              "`placescope import "
            + path + " -o trace.sqlite` first");
    if (::access(path.c_str(), R_OK) != 0) // SQLite would say only "unable to open database file"
        return Status::error("cannot read " + path + ": " + std::strerror(errno));
    return Status::ok();
}

} // namespace

Result<SqliteDb> openTrace(const std::string& path, TraceAccess access)
{
    PLACESCOPE_RETURN_IF_ERROR(checkTracePath(path));
    auto mode = access == TraceAccess::ReadOnly ? SqliteDb::Mode::ReadOnly : SqliteDb::Mode::ReadWrite;
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::open(path, mode));
    int64_t applicationId = 0;
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteFileKind kind, identifySqliteFile(db, &applicationId));
    if (kind != SqliteFileKind::PlacescopeTrace)
        return Status::error(notATraceMessage(path, kind, applicationId));
    // A view where the schema has a table was not written by Placescope, and reading it could cost anything (a
    // recursive view never ends): refuse the file rather than run every reader into it.
    for (const SchemaTable& table : schemaTables())
        if (db.hasView(table.name))
            return Status::error(
                path + ": " + table.name + " is a view, not the table a Placescope trace has; refusing to read it");
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
    // As in nsys, a trace has no table for data it lacks (no memsets: no CUPTI_ACTIVITY_KIND_MEMSET). Placescope's
    // readers select from every schema table, so the missing ones are empty TEMP tables of this connection: the
    // file stays as nsys would write it (TEMP lives outside it, even on a read-only connection).
    for (const SchemaTable& table : schemaTables())
        if (!db.hasTable(table.name))
            PLACESCOPE_RETURN_IF_ERROR(db.exec("CREATE TEMP TABLE " + table.definition));
    return db;
}

} // namespace placescope
