// SPDX-License-Identifier: MIT
#include "profiler/store/sqlite_db.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <sqlite3.h>

namespace placescope {

// A statement starts with every parameter NULL (SQLite's rule for parameters never bound).
SqliteStatement::SqliteStatement(sqlite3* db, sqlite3_stmt* stmt)
    : m_db(db)
    , m_stmt(stmt)
    , m_bound(static_cast<size_t>(sqlite3_bind_parameter_count(stmt)) + 1, Bound::Null)
    , m_boundInt(m_bound.size(), 0)
{ }

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_db(other.m_db)
    , m_stmt(other.m_stmt)
    , m_status(std::move(other.m_status))
    , m_bound(std::move(other.m_bound))
    , m_boundInt(std::move(other.m_boundInt))
{
    other.m_stmt = nullptr;
}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_db = other.m_db;
        m_stmt = other.m_stmt;
        m_status = std::move(other.m_status);
        m_bound = std::move(other.m_bound);
        m_boundInt = std::move(other.m_boundInt);
        other.m_stmt = nullptr;
    }
    return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(m_stmt); }

void SqliteStatement::bind(int index, int64_t value)
{
    if (tracked(index)) {
        const auto at = static_cast<size_t>(index);
        if (m_bound[at] == Bound::Int && m_boundInt[at] == value)
            return;
        m_bound[at] = Bound::Int;
        m_boundInt[at] = value;
    }
    sqlite3_bind_int64(m_stmt, index, value);
}
void SqliteStatement::bind(int index, double value)
{
    if (tracked(index))
        m_bound[static_cast<size_t>(index)] = Bound::Other;
    sqlite3_bind_double(m_stmt, index, value);
}
void SqliteStatement::bind(int index, std::string_view value)
{
    if (tracked(index))
        m_bound[static_cast<size_t>(index)] = Bound::Other;
    sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}
void SqliteStatement::bindBorrowed(int index, std::string_view value)
{
    if (tracked(index))
        m_bound[static_cast<size_t>(index)] = Bound::Other;
    sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_STATIC);
}
void SqliteStatement::bind(int index, std::optional<int64_t> value)
{
    if (value)
        bind(index, *value);
    else
        bindNull(index);
}
void SqliteStatement::bindNull(int index)
{
    if (tracked(index)) {
        const auto at = static_cast<size_t>(index);
        if (m_bound[at] == Bound::Null)
            return;
        m_bound[at] = Bound::Null;
    }
    sqlite3_bind_null(m_stmt, index);
}

bool SqliteStatement::step()
{
    int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE && m_status.isOk())
        m_status = Status::error(std::string("SQLite: ") + sqlite3_errmsg(m_db));
    return false;
}

Status SqliteStatement::execute()
{
    int rc = sqlite3_step(m_stmt);
    sqlite3_reset(m_stmt);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return Status::error(std::string("SQLite: ") + sqlite3_errmsg(m_db));
    return Status::ok();
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
    std::fill(m_bound.begin(), m_bound.end(), Bound::Null);
}

int SqliteStatement::columnCount() const { return sqlite3_column_count(m_stmt); }
bool SqliteStatement::isNull(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }
bool SqliteStatement::isNumber(int column) const
{
    const int type = sqlite3_column_type(m_stmt, column);
    return type == SQLITE_INTEGER || type == SQLITE_FLOAT;
}
int64_t SqliteStatement::columnInt(int column) const { return sqlite3_column_int64(m_stmt, column); }
double SqliteStatement::columnDouble(int column) const { return sqlite3_column_double(m_stmt, column); }
std::string SqliteStatement::columnText(int column) const
{
    const unsigned char* text = sqlite3_column_text(m_stmt, column);
    if (!text)
        return {};
    return std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(m_stmt, column));
}
std::string SqliteStatement::columnName(int column) const { return sqlite3_column_name(m_stmt, column); }

SqliteDb::SqliteDb(SqliteDb&& other) noexcept
    : m_db(other.m_db)
{
    other.m_db = nullptr;
}

SqliteDb& SqliteDb::operator=(SqliteDb&& other) noexcept
{
    if (this != &other) {
        close();
        m_db = other.m_db;
        other.m_db = nullptr;
    }
    return *this;
}

SqliteDb::~SqliteDb() { close(); }

void SqliteDb::close()
{
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
}

namespace {

// "file:" URI of a path, with the characters a URI gives meaning to escaped (SQLite's URI rules).
std::string fileUri(const std::string& path)
{
    static const char* kHex = "0123456789ABCDEF";
    std::string uri = "file:";
    for (unsigned char c : path) {
        if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7f) {
            uri += '%';
            uri += kHex[c >> 4];
            uri += kHex[c & 15];
        } else {
            uri += static_cast<char>(c);
        }
    }
    return uri;
}

// How a file is read without creating anything beside it. A rollback-journal file (what Placescope writes) is read
// as it is. A WAL-mode file (traces written before, other tools' files) would get a -wal and an -shm beside it from
// any connection, read-only ones included, and keep them: it is read as immutable when it has no log to apply, and
// as it is when its -wal and -shm are both there already.
enum class ReadOnlyWay
{
    Plain,
    Immutable
};

Result<ReadOnlyWay> readOnlyWay(const std::string& path)
{
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return ReadOnlyWay::Plain; // SQLite says what it is (never read here: a FIFO would lose its bytes)
    char header[20] = {};
    {
        std::ifstream in(path, std::ios::binary);
        if (!in.read(header, sizeof header))
            return ReadOnlyWay::Plain;
    }
    // The SQLite header: bytes 18 and 19 (file format write and read versions) are 2 in WAL mode.
    const bool walMode = std::memcmp(header, "SQLite format 3", 16) == 0 && (header[18] == 2 || header[19] == 2);
    if (!walMode)
        return ReadOnlyWay::Plain;
    const std::string wal = path + "-wal";
    if (!std::filesystem::exists(wal, error) || std::filesystem::file_size(wal, error) == 0)
        return ReadOnlyWay::Immutable;
    if (std::filesystem::exists(path + "-shm", error))
        return ReadOnlyWay::Plain;
    return Status::error(path + ": its write-ahead log " + wal + " is not merged into it, and reading it would create "
        + path + "-shm beside it; merge the log first (sqlite3 " + path + " 'PRAGMA journal_mode=DELETE')");
}

} // namespace

Result<SqliteDb> SqliteDb::openImmutable(const std::string& path)
{
    SqliteDb db;
    const std::string uri = fileUri(path) + "?immutable=1";
    int rc
        = sqlite3_open_v2(uri.c_str(), &db.m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nullptr);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db.m_db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK)
        return Status::error(
            path + " is not a SQLite database (" + (db.m_db ? sqlite3_errmsg(db.m_db) : sqlite3_errstr(rc)) + ")");
    return db;
}

Result<SqliteDb> SqliteDb::open(const std::string& path, Mode mode)
{
    // SQLite counts every allocation under a global mutex (for sqlite3_memory_used, which nothing here reads);
    // turned off, each insert skips those locks. Only possible before SQLite initializes: at the first open.
    static const bool memoryStatisticsOff = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
    (void)memoryStatisticsOff;
    if (mode == Mode::ReadOnly) {
        PLACESCOPE_ASSIGN_OR_RETURN(ReadOnlyWay way, readOnlyWay(path));
        if (way == ReadOnlyWay::Immutable)
            return openImmutable(path);
    }
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case Mode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Mode::Create:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    }
    SqliteDb db;
    int rc = sqlite3_open_v2(path.c_str(), &db.m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = db.m_db ? sqlite3_errmsg(db.m_db) : sqlite3_errstr(rc);
        return Status::error("cannot open " + path + ": " + message);
    }
    sqlite3_busy_timeout(db.m_db, 5000);
    // A file that is not SQLite only fails on first read; probe now so callers get a clear error.
    if (mode != Mode::Create) {
        rc = sqlite3_exec(db.m_db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
        // A hot rollback journal: a writer stopped in the middle of a transaction, and the file holds part of it
        // until SQLite rolls the journal back, which writes the file; a read-only open cannot (and must not).
        if (mode == Mode::ReadOnly && sqlite3_extended_errcode(db.m_db) == SQLITE_READONLY_ROLLBACK)
            return Status::error(path + ": its rollback journal " + path + "-journal holds a write that was cut off "
                + "(a hot journal), and reading the file means rolling it back, which writes the file; roll it back "
                + "first (sqlite3 " + path + " 'PRAGMA quick_check'), never delete the journal");
        // A WAL log beside a file in a folder the user cannot write, whose -shm index SQLite cannot use.
        if (mode == Mode::ReadOnly && ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN))
            return Status::error(path + ": cannot read its write-ahead log " + path + "-wal (" + sqlite3_errmsg(db.m_db)
                + "); merge the log first (sqlite3 " + path + " 'PRAGMA journal_mode=DELETE')");
        if (rc != SQLITE_OK)
            return Status::error(path + " is not a SQLite database (" + sqlite3_errmsg(db.m_db) + ")");
    }
    return db;
}

bool SqliteStatement::isReadOnly() const { return !m_stmt || sqlite3_stmt_readonly(m_stmt) != 0; }

Status SqliteDb::exec(std::string_view sql)
{
    std::string text(sql);
    char* error = nullptr;
    if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        return Status::error("SQLite: " + message);
    }
    return Status::ok();
}

Result<SqliteStatement> SqliteDb::prepare(std::string_view sql, std::string_view* rest)
{
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &stmt, &tail) != SQLITE_OK)
        return Status::error(std::string("SQLite: ") + sqlite3_errmsg(m_db) + " in: " + std::string(sql));
    if (rest)
        *rest = tail ? sql.substr(static_cast<size_t>(tail - sql.data())) : std::string_view();
    return SqliteStatement(m_db, stmt);
}

Result<int64_t> SqliteDb::queryInt(std::string_view sql)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement stmt, prepare(sql));
    if (!stmt.step()) {
        if (!stmt.status().isOk())
            return stmt.status();
        return Status::error("query returned no row: " + std::string(sql));
    }
    return stmt.columnInt(0);
}

bool SqliteDb::hasTable(std::string_view table)
{
    // Real tables only: a view can compute anything, including rows that never end, so a file read as a trace or
    // an export is never read through one (the readers see it as a missing table; hasView tells them why).
    auto stmt = prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
    if (!stmt)
        return false;
    stmt->bind(1, table);
    return stmt->step();
}

bool SqliteDb::hasView(std::string_view name)
{
    auto stmt = prepare("SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = ?");
    if (!stmt)
        return false;
    stmt->bind(1, name);
    return stmt->step();
}

std::string SqliteDb::lastError() const { return m_db ? sqlite3_errmsg(m_db) : "no database"; }

std::string quoteIdentifier(std::string_view name)
{
    std::string out = "\"";
    for (char c : name) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

} // namespace placescope
