// SPDX-License-Identifier: MIT
// NsysTable: reads one table of an Nsight Systems SQLite export whose columns vary by nsys version.
//
// The caller names the columns it wants; the ones the table lacks are selected as NULL, so the caller reads
// every row the same way whatever the export's version. String columns (ids into StringIds) can be resolved
// in the same query. Owns nothing but the prepared statement; used on one thread.
#pragma once

#include "profiler/base/status.h"
#include "profiler/store/sqlite_db.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace placescope {

// The column names of `table` (PRAGMA table_info); empty when the table does not exist.
std::set<std::string> tableColumns(SqliteDb& db, const std::string& table);

class NsysTable
{
public:
    struct Column
    {
        std::string name;
        bool stringId = false; // an id into StringIds: also select its text (column index + 1)
    };

    // Prepares SELECT over `columns` (missing ones as NULL). `orderBy` is applied only when all of its
    // columns exist. Fails only on SQLite errors; a missing table gives exists() == false.
    static Result<NsysTable> open(
        SqliteDb& db, const std::string& table, const std::vector<Column>& columns, const std::string& orderBy = {});

    bool exists() const { return m_exists; }
    bool has(const std::string& column) const { return m_present.count(column) > 0; }
    bool next();
    Status status() const { return m_statement.status(); }

    // Called for each cell integer() finds holding text or a blob (SQLite stores whatever a file's writer gave,
    // whatever the declared type): such a cell reads as missing, never as the 0 SQLite would convert it to.
    using NotNumberHandler = std::function<void(const std::string& column)>;
    void onNotNumber(NotNumberHandler handler) { m_onNotNumber = std::move(handler); }

    // Values of the i-th requested column.
    std::optional<int64_t> integer(int index) const;
    std::optional<double> real(int index) const;
    std::string text(int index) const;
    // Text of the StringIds entry the i-th requested column (marked stringId) points at; nullopt when the
    // id is NULL or dangling.
    std::optional<std::string> string(int index) const;

private:
    int sqlIndex(int index) const { return m_sqlIndex[static_cast<size_t>(index)]; }

    SqliteStatement m_statement;
    bool m_exists = false;
    std::set<std::string> m_present;
    std::vector<int> m_sqlIndex;
    std::vector<std::string> m_names; // of the requested columns, for onNotNumber
    NotNumberHandler m_onNotNumber;
};

} // namespace placescope
