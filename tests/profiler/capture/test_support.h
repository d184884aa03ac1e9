// SPDX-License-Identifier: MIT
// Small helpers shared by the capture tests: a fresh temporary folder per test and one-integer queries.
#pragma once

#include "profiler/store/sqlite_db.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace placescope::capture::testing {

inline std::filesystem::path freshTestDir()
{
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::filesystem::path dir = std::filesystem::temp_directory_path()
        / ("placescope_capture_" + std::to_string(getpid()) + "_" + info->test_suite_name() + "_" + info->name());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

inline int64_t queryInt(const std::string& path, const std::string& sql)
{
    auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
    EXPECT_TRUE(db.isOk()) << path << ": " << db.status().message();
    if (!db.isOk())
        return -1;
    auto value = db->queryInt(sql);
    EXPECT_TRUE(value.isOk()) << sql << ": " << value.status().message();
    return value.isOk() ? value.value() : -1;
}

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
