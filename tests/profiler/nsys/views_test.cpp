// SPDX-License-Identifier: MIT
// Views where tables belong are never read: a recursive view never ends, so reading one would hang every command.
// An nsys export with one imports without it (a counted problem); a Placescope trace with one is refused.
#include "profiler/importers/importer.h"
#include "profiler/store/sqlite_db.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

namespace placescope {
namespace {

namespace fs = std::filesystem;

constexpr const char* kEndlessRows = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) ";

class ViewsTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path()
            / ("ps_views_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    fs::path m_dir;
};

TEST_F(ViewsTest, AnNsysExportWithAnEndlessViewImportsWithoutIt)
{
    const fs::path input = m_dir / "export.sqlite";
    fs::copy_file(std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite", input);
    {
        auto db = SqliteDb::open(input.string(), SqliteDb::Mode::ReadWrite);
        ASSERT_TRUE(db.isOk());
        ASSERT_TRUE(db->exec("ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY RENAME TO copies").isOk());
        ASSERT_TRUE(db->exec(std::string("CREATE VIEW CUPTI_ACTIVITY_KIND_MEMCPY AS ") + kEndlessRows
                          + "SELECT * FROM copies, c")
                        .isOk());
    }
    const std::string output = (m_dir / "trace.sqlite").string();
    auto imported = importTraces({ input.string() }, output, ImportOptions {});
    ASSERT_TRUE(imported.isOk()) << imported.status().message();
    auto trace = openTrace(output);
    ASSERT_TRUE(trace.isOk());
    EXPECT_EQ(trace->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY").value(), 0);
    EXPECT_GT(trace->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").value(), 0);
    EXPECT_EQ(trace->queryInt("SELECT count FROM PS_PROBLEMS WHERE kind = 'nsys.view_instead_of_table'").value(), 1);
}

TEST_F(ViewsTest, ATraceWithAViewForATableIsRefused)
{
    const std::string trace = (m_dir / "trace.sqlite").string();
    ASSERT_TRUE(importTraces(
        { std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz" }, trace, ImportOptions {})
                    .isOk());
    {
        auto db = SqliteDb::open(trace, SqliteDb::Mode::ReadWrite);
        ASSERT_TRUE(db.isOk());
        ASSERT_TRUE(db->exec("DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET").isOk());
        ASSERT_TRUE(db->exec(std::string("CREATE VIEW CUPTI_ACTIVITY_KIND_MEMSET AS ") + kEndlessRows
                          + "SELECT x AS start, x AS end FROM c")
                        .isOk());
        // A view of the user's own, under a name the schema does not use, is fine.
        ASSERT_TRUE(db->exec("CREATE VIEW my_kernels AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL").isOk());
    }
    auto opened = openTrace(trace);
    ASSERT_FALSE(opened.isOk());
    EXPECT_NE(opened.status().message().find("CUPTI_ACTIVITY_KIND_MEMSET is a view"), std::string::npos)
        << opened.status().message();
    {
        auto db = SqliteDb::open(trace, SqliteDb::Mode::ReadWrite);
        ASSERT_TRUE(db->exec("DROP VIEW CUPTI_ACTIVITY_KIND_MEMSET").isOk());
    }
    EXPECT_TRUE(openTrace(trace).isOk()) << "a user's own view must not make the trace unreadable";
}

} // namespace
} // namespace placescope
