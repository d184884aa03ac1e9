// SPDX-License-Identifier: MIT
// Opening an existing trace file: checks that it is a Placescope trace, and brings files written by an older
// schema version up to date (the migration path). Readers query it with SQL through SqliteDb.
#pragma once

#include "profiler/base/status.h"
#include "profiler/store/sqlite_db.h"

#include <string>

namespace placescope {

enum class TraceAccess
{
    ReadOnly,
    ReadWrite
};

// Opens a Placescope trace. A file with an older schema version is migrated in place when opened ReadWrite,
// and refused with a clear message when opened ReadOnly; a newer version is always refused.
Result<SqliteDb> openTrace(const std::string& path, TraceAccess access = TraceAccess::ReadOnly);

// Applies every migration step from the file's PRAGMA user_version to kTraceSchemaVersion, in one transaction.
Status migrateTrace(SqliteDb& db);

// True if the SQLite file at `db` looks like an Nsight Systems export (has StringIds and nsys-only tables,
// and no PS_META).
bool looksLikeNsysExport(SqliteDb& db);

// What an open SQLite file is: by PRAGMA application_id first ('PSCT', trace_identity.h), then by its tables
// (traces written before the stamp have id 0 and PS_META). `applicationId` receives the file's id.
enum class SqliteFileKind
{
    PlacescopeTrace,
    DamagedPlacescopeTrace,
    NsysExport,
    OtherApplication,
    OtherSqlite
};
Result<SqliteFileKind> identifySqliteFile(SqliteDb& db, int64_t* applicationId = nullptr);
// One line saying what the file is instead of a trace, and what to do (empty for a trace).
std::string notATraceMessage(const std::string& path, SqliteFileKind kind, int64_t applicationId);

} // namespace placescope
