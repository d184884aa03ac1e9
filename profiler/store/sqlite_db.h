// SPDX-License-Identifier: MIT
// Thin RAII wrapper over the SQLite C API: a connection (SqliteDb) and a prepared statement (SqliteStatement).
// Not thread-safe: one connection per thread, and a statement never outlives or leaves its connection's thread.
#pragma once

#include "profiler/base/status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace placescope {

class SqliteStatement
{
public:
    SqliteStatement() = default;
    SqliteStatement(sqlite3* db, sqlite3_stmt* stmt);
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    ~SqliteStatement();

    // Binding is 1-based as in SQLite. Binding std::nullopt binds NULL.
    // Binding a parameter the NULL or the integer it holds already is skipped: the bulk inserts bind about 2 M
    // values per 200k rows, a quarter of them NULL and a third the same integer as 32 rows before (device,
    // stream, process), and each bind is a library call.
    void bind(int index, int64_t value);
    void bind(int index, double value);
    void bind(int index, std::string_view value); // SQLite copies the text
    // SQLite reads the text in place when the statement runs: it must stay valid until then (no copy, no
    // allocation; the bulk writers bind the text of rows they hold until the step).
    void bindBorrowed(int index, std::string_view value);
    void bind(int index, std::optional<int64_t> value);
    void bindNull(int index);

    // Steps once: true while a row is available, false when done. Errors land in status().
    bool step();
    // Steps a statement that returns no rows, then resets it for the next bind/execute.
    Status execute();
    void reset();

    int columnCount() const;
    bool isNull(int column) const;
    bool isNumber(int column) const; // INTEGER or REAL, not TEXT, BLOB or NULL
    int64_t columnInt(int column) const;
    double columnDouble(int column) const;
    std::string columnText(int column) const;
    std::string columnName(int column) const;

    const Status& status() const { return m_status; }
    bool isValid() const { return m_stmt != nullptr; }
    // True when running it cannot change the database (sqlite3_stmt_readonly): SELECT, not VACUUM INTO or INSERT.
    bool isReadOnly() const;

private:
    // What a parameter holds now, as far as skipping a repeated bind goes.
    enum class Bound : uint8_t
    {
        Other,
        Null,
        Int
    };
    // True when `index` is a parameter this statement tracks (1-based; SQLite reports a bad index itself).
    bool tracked(int index) const { return index > 0 && static_cast<size_t>(index) < m_bound.size(); }

    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
    Status m_status;
    std::vector<Bound> m_bound; // per parameter, index 0 unused
    std::vector<int64_t> m_boundInt; // the integer, where m_bound says Int
};

class SqliteDb
{
public:
    enum class Mode
    {
        ReadOnly,
        ReadWrite,
        Create
    };

    SqliteDb() = default;
    SqliteDb(SqliteDb&& other) noexcept;
    SqliteDb& operator=(SqliteDb&& other) noexcept;
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;
    ~SqliteDb();

    // ReadOnly never creates a file beside `path` (no -wal, -shm or -journal): inputs stay as they were, in any folder.
    // A WAL-mode file is read as immutable when it has no -wal to apply; one whose -wal has frames but no -shm is
    // refused with one line that says how to merge the log.
    static Result<SqliteDb> open(const std::string& path, Mode mode);
    // Read-only as an immutable file (no -wal/-shm read or created): for files nobody writes while we read.
    static Result<SqliteDb> openImmutable(const std::string& path);

    Status exec(std::string_view sql);
    // Compiles the first statement of `sql`; with `rest`, what follows it (SQLite's tail) is handed back, so a caller
    // that runs one statement can tell whether the text held more.
    Result<SqliteStatement> prepare(std::string_view sql, std::string_view* rest = nullptr);
    // Runs a query expected to return one integer (COUNT(*), PRAGMA user_version...).
    Result<int64_t> queryInt(std::string_view sql);
    bool hasTable(std::string_view table); // a real table: views do not count
    bool hasView(std::string_view name);
    std::string lastError() const;
    sqlite3* handle() const { return m_db; }
    void close();

private:
    sqlite3* m_db = nullptr;
};

// Quotes an identifier for SQL ("a""b").
std::string quoteIdentifier(std::string_view name);

} // namespace placescope
