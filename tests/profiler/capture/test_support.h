// SPDX-License-Identifier: MIT
// What the capture tests share beyond tests/support: one text value of a query.
#pragma once

#include "profiler/store/sqlite_db.h"
#include "tests/support/query_int.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <string>

namespace placescope::capture::testing {

using placescope::testing::queryInt;
using placescope::testing::TempDir;

inline std::string queryText(const std::string& path, const std::string& sql)
{
    auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
    if (!db.isOk())
        return "<" + db.status().message() + ">";
    auto statement = db->prepare(sql);
    if (!statement.isOk() || !statement->step())
        return "<no row>";
    return statement->isNull(0) ? "<null>" : statement->columnText(0);
}

} // namespace placescope::capture::testing
