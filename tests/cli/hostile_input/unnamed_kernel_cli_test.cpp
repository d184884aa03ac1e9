// SPDX-License-Identifier: MIT
// A kernel without a name (an empty or null name in Kineto JSON, an empty name string in an nsys export whose
// shortName is NULL) failed the whole import with "SQLite: NOT NULL constraint failed: StringIds.value", or was
// dropped as a bad record; now it is kept as '[unnamed kernel]' and counted in PS_PROBLEMS.
#include "tests/support/cli_run.h"
#include "tests/support/query_int.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace placescope::testing {
namespace {

const char kCountUnnamed[] = "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = "
                             "k.demangledName JOIN StringIds s ON s.id = k.shortName WHERE d.value = '[unnamed kernel]'"
                             " AND s.value = '[unnamed kernel]'";
const char kCountProblem[] = "SELECT COALESCE(SUM(count), 0) FROM PS_PROBLEMS WHERE kind = 'trace.unnamed_kernel'";

std::string kernel(const std::string& name, int ts, const std::string& extraArgs = {})
{
    return R"({"ph":"X","cat":"kernel","name":)" + name + R"(,"pid":0,"tid":7,"ts":)" + std::to_string(ts)
        + R"(,"dur":5,"args":{"device":0,"stream":7)" + extraArgs + "}}";
}

TEST(UnnamedKernelCli, AKinetoKernelWithAnEmptyOrNullNameIsKeptAndCounted)
{
    TempDir dir("unnamed_kineto");
    // The last one holds an escaped string, which the fast scanner leaves to the full JSON parser: both read null.
    std::ofstream(dir / "run.json") << R"({"traceEvents":[)" << kernel(R"("")", 10) << "," << kernel("null", 20) << ","
                                    << kernel("null", 30, R"(,"note":"a\"b")") << "," << kernel(R"("gemm")", 40)
                                    << "]}";
    const CliRun r = runPlacescope({ "import", dir.file("run.json"), "-o", dir.file("run.sqlite"), "-q" }, dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const std::string trace = dir.file("run.sqlite");
    EXPECT_EQ(queryInt(trace, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 4);
    EXPECT_EQ(queryInt(trace, kCountUnnamed), 3);
    EXPECT_EQ(queryInt(trace, kCountProblem), 3);
    EXPECT_EQ(queryInt(trace, "SELECT COUNT(*) FROM PS_PROBLEMS WHERE kind = 'kineto.bad_json_record'"), 0);
    // The commands that read kernels by name take it as any other.
    EXPECT_EQ(runPlacescope({ "stats", trace }, dir.path()).exitCode, 0);
}

TEST(UnnamedKernelCli, AnNsysKernelWithAnEmptyNameAndNullShortNameIsKeptAndCounted)
{
    TempDir dir("unnamed_nsys");
    const std::filesystem::path exportFile = dir / "export.sqlite";
    std::filesystem::copy_file(
        std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite", exportFile);
    std::filesystem::permissions(exportFile, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(exportFile.c_str(), &db), SQLITE_OK);
    // The kernel table as an export without NOT NULL constraints has it; three kernels named by an empty string.
    const char* edit = "INSERT INTO StringIds (id, value) VALUES (900001, '');"
                       "CREATE TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;"
                       "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"
                       "ALTER TABLE k RENAME TO CUPTI_ACTIVITY_KIND_KERNEL;"
                       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET shortName = NULL, demangledName = 900001"
                       " WHERE rowid IN (SELECT rowid FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid LIMIT 3);";
    ASSERT_EQ(sqlite3_exec(db, edit, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
    const int64_t kernels = queryInt(exportFile.string(), "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    const CliRun r = runPlacescope({ "import", exportFile.string(), "-o", dir.file("run.sqlite"), "-q" }, dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string trace = dir.file("run.sqlite");
    EXPECT_EQ(queryInt(trace, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), kernels);
    EXPECT_EQ(queryInt(trace, kCountUnnamed), 3);
    EXPECT_EQ(queryInt(trace, kCountProblem), 3);
}

} // namespace
} // namespace placescope::testing
