// SPDX-License-Identifier: MIT
// What an nsys export carries about its machine beyond the run stays out of the trace (the contract in
// profiler/store/trace_schema.sql): PROCESSES held all 1,770 processes of the node the CloverLeaf export was
// recorded on (systemd, kernel workers, whatever other users ran), now only the processes the run's events belong
// to; the export's install and library paths (/opt/...) in its StringIds are not copied.
#include "tests/support/cli_run.h"
#include "tests/support/query_int.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <string>

namespace placescope::testing {
namespace {

TEST(NsysRunFactsCli, OnlyTheRunsProcessesAndNoInstallPaths)
{
    TempDir dir("nsys_run_facts");
    const std::string source = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
    ASSERT_GT(queryInt(source, "SELECT COUNT(*) FROM PROCESSES WHERE name = 'systemd'"), 0);
    ASSERT_GT(queryInt(source, "SELECT COUNT(*) FROM StringIds WHERE value LIKE '%/opt/%'"), 0);
    const std::string trace = dir.file("run.sqlite");
    const CliRun r = runPlacescope({ "import", source, "-o", trace, "-q" }, dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(queryInt(trace, "SELECT COUNT(*) FROM PROCESSES WHERE name = 'systemd'"), 0);
    EXPECT_EQ(queryInt(trace, "SELECT COUNT(*) FROM PROCESSES"), queryInt(trace, "SELECT COUNT(*) FROM PS_PROCESSES"));
    EXPECT_EQ(
        queryInt(trace,
            "SELECT COUNT(*) FROM PROCESSES WHERE globalPid IN (SELECT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL)"),
        1);
    EXPECT_EQ(queryInt(trace, "SELECT COUNT(*) FROM PROCESSES WHERE name = 'cuda-cloverleaf'"), 1);
    EXPECT_EQ(queryInt(trace, "SELECT COUNT(*) FROM StringIds WHERE value LIKE '%/opt/%'"), 0);
}

} // namespace
} // namespace placescope::testing
