// SPDX-License-Identifier: MIT
// StatementDeadline: a time limit on what a connection's statements may cost. SQLite calls a progress handler
// every few thousand virtual-machine steps; once the limit has passed the handler returns non-zero and the
// running statement stops with SQLITE_INTERRUPT, which its step() reports as an error. So a cross join of two
// large tables, or a recursive CTE without an end, ends with a message instead of running until killed.
// One per connection, on the connection's thread; the handler is removed when the deadline goes.
#pragma once

#include <chrono>

struct sqlite3;

namespace placescope {

class StatementDeadline
{
public:
    // `limit` from now; zero or less: no limit (the handler is not installed).
    StatementDeadline(sqlite3* db, std::chrono::milliseconds limit);
    ~StatementDeadline();
    StatementDeadline(const StatementDeadline&) = delete;
    StatementDeadline& operator=(const StatementDeadline&) = delete;

    // True once the limit stopped a statement: the caller says so instead of SQLite's "interrupted".
    bool expired() const { return m_expired; }

private:
    static int onProgress(void* self);

    sqlite3* m_db;
    std::chrono::steady_clock::time_point m_deadline;
    bool m_installed = false;
    bool m_expired = false;
};

} // namespace placescope
