// SPDX-License-Identifier: MIT
// EarlyIndexer: creates a table's indexes as soon as the table stops growing, while the rest of the input is
// still being read, instead of in the one-threaded index build at the end of a write (a third of a Kineto
// import's time). Kineto writes every CPU op and memory event before the first GPU event, so the op and
// memory tables are indexed during the parse; the nsys importer copies one table after another, so each is
// indexed while the next is copied. A table that grows again later is indexed row by row as it is
// inserted, so the file never depends on the guess, only the time does.
// Used on the writer's connection, from the writer's thread, inside its transaction.
#pragma once

#include "profiler/base/status.h"
#include "profiler/store/sqlite_db.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace placescope {

class EarlyIndexer
{
public:
    // Every this many rows written, the tables still without their indexes are looked at.
    static constexpr uint64_t kCheckEveryRows = 8192;
    // A table is quiet when its last rowid has not moved for this many looks in a row...
    static constexpr int kQuietChecks = 2;
    // ...and it holds at least this many rows (a small table's indexes cost little at the end).
    static constexpr int64_t kMinRows = 4096;

    // Groups the CREATE INDEX statements of `indexesSql` by the table they index.
    explicit EarlyIndexer(std::string_view indexesSql);

    // Counts `rows` rows written; at every check, creates the indexes of the tables that went quiet.
    Status rowsWritten(SqliteDb& db, uint64_t rows);
    // Drops the prepared statements (before the connection closes).
    void close();

    // The tables whose indexes were created early, in the order they were (for tests).
    const std::vector<std::string>& indexedTables() const { return m_indexedTables; }

private:
    struct Table
    {
        std::string name;
        std::string createSql; // its CREATE INDEX statements
        SqliteStatement lastRowid;
        int64_t seenRowid = -1;
        int quietChecks = 0;
        bool created = false;
    };
    Status check(SqliteDb& db);

    std::vector<Table> m_tables;
    uint64_t m_rowsSinceCheck = 0;
    std::vector<std::string> m_indexedTables;
};

} // namespace placescope
