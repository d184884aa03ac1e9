// SPDX-License-Identifier: MIT
#include "tests/support/query_int.h"

#include "profiler/store/sqlite_db.h"

#include <gtest/gtest.h>

namespace placescope::testing {

int64_t queryInt(const std::string& path, const std::string& sql)
{
    auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
    EXPECT_TRUE(db.isOk()) << path << ": " << db.status().message();
    if (!db.isOk())
        return -1;
    auto value = db->queryInt(sql);
    EXPECT_TRUE(value.isOk()) << sql << ": " << value.status().message();
    return value.isOk() ? value.value() : -1;
}

} // namespace placescope::testing
