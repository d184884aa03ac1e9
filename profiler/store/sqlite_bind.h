// SPDX-License-Identifier: MIT
// bindFrom: binds values to consecutive parameters of a statement, as the trace writer's inserts do: empty
// optional ints and empty strings as NULL. A std::string is bound in place, without a copy: the caller runs the
// statement before the string changes or goes (rows wait in their BatchedInsert until their statement runs).
// Other text is copied.
#pragma once

#include "profiler/model/trace_events.h"
#include "profiler/store/sqlite_db.h"

#include <string>
#include <string_view>

namespace placescope {

inline void bindAt(SqliteStatement& stmt, int index, int64_t value) { stmt.bind(index, value); }
inline void bindAt(SqliteStatement& stmt, int index, const OptInt& value) { stmt.bind(index, value); }
inline void bindAt(SqliteStatement& stmt, int index, const std::string& value)
{
    if (value.empty())
        stmt.bindNull(index);
    else
        stmt.bindBorrowed(index, value);
}
inline void bindAt(SqliteStatement& stmt, int index, std::string_view value) { stmt.bind(index, value); }
inline void bindAt(SqliteStatement& stmt, int index, const char* value) { stmt.bind(index, std::string_view(value)); }

template <typename... Args> inline void bindFrom(SqliteStatement& stmt, int first, const Args&... args)
{
    int index = first;
    (bindAt(stmt, index++, args), ...);
}

} // namespace placescope
