// SPDX-License-Identifier: MIT
// `placescope report` run as a user runs it (PLACESCOPE_BIN_DIR/placescope) on the AlexNet trace imported with
// `placescope import`: --list names every report, each report runs in text, CSV and JSON (JSON rows, CSV with the same
// number of rows, notes on stderr), -o writes the file, and bad input is one line on stderr with the right exit code.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using placescope::testing::CliRun;
using placescope::testing::readFile;

const std::vector<std::string> kReports = { "kernel_launch", "kernel_launches", "idle", "queue", "queue_timeline",
    "steps", "bandwidth", "memory", "annotations", "overlap", "sequences", "collectives", "counters" };

class ReportCli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_temp = std::make_unique<placescope::testing::TempDir>("report_cli");
        s_dir = s_temp->path();
        const std::string traces = std::string(PLACESCOPE_DATA_DIR) + "/traces/";
        ASSERT_EQ(
            run({ "import", traces + "hta_alexnet_a100_1rank.json.gz", "-o", path("alexnet.sqlite"), "-q" }).exitCode,
            0);
    }
    static void TearDownTestSuite() { s_temp.reset(); }

    static std::string path(const std::string& name) { return (s_dir / name).string(); }
    static CliRun run(const std::vector<std::string>& args) { return placescope::testing::runPlacescope(args, s_dir); }
    static void expectOneLine(const CliRun& r, int exitCode, const std::string& contains)
    {
        placescope::testing::expectOneLineError(r, exitCode, contains);
        EXPECT_TRUE(r.out.empty()) << r.out;
    }

    static std::unique_ptr<placescope::testing::TempDir> s_temp;

    static fs::path s_dir;
};
std::unique_ptr<placescope::testing::TempDir> ReportCli::s_temp;
fs::path ReportCli::s_dir;

TEST_F(ReportCli, ListNamesEveryReport)
{
    const CliRun r = run({ "report", "--list" });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    for (const std::string& name : kReports)
        EXPECT_NE(r.out.find(name + " "), std::string::npos) << name << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), static_cast<long>(kReports.size()));
}

TEST_F(ReportCli, EveryReportRunsInEveryFormat)
{
    for (const std::string& name : kReports) {
        const CliRun json = run({ "report", name, path("alexnet.sqlite"), "--format", "json" });
        ASSERT_EQ(json.exitCode, 0) << name << ": " << json.err;
        const nlohmann::json rows = nlohmann::json::parse(json.out, nullptr, false);
        ASSERT_TRUE(rows.is_array()) << name << ": " << json.out.substr(0, 200);
        EXPECT_NE(json.err.find("note: scope:"), std::string::npos) << name << ": " << json.err;

        const CliRun csv = run({ "report", name, path("alexnet.sqlite"), "--format", "csv" });
        ASSERT_EQ(csv.exitCode, 0) << name << ": " << csv.err;
        // A header line and one line per JSON row (no field of these reports holds a line break).
        EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), static_cast<long>(rows.size() + 1)) << name;

        const CliRun text = run({ "report", name, path("alexnet.sqlite") });
        ASSERT_EQ(text.exitCode, 0) << name << ": " << text.err;
        EXPECT_NE(text.out.find("Note: scope:"), std::string::npos) << name;
        EXPECT_TRUE(text.err.empty()) << name << ": " << text.err;
    }
}

TEST_F(ReportCli, KernelLaunchJsonRowsHaveIntegerNanoseconds)
{
    const CliRun r = run({ "report", "kernel_launch", path("alexnet.sqlite"), "--format", "json", "--short-names" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json rows = nlohmann::json::parse(r.out);
    ASSERT_FALSE(rows.empty());
    int64_t kernels = 0;
    for (const auto& row : rows) {
        EXPECT_TRUE(row["kernel_total_ns"].is_number_integer());
        EXPECT_EQ(row["name"].get<std::string>().find('('), std::string::npos) << row["name"]; // shortened
        kernels += row["kernels"].get<int64_t>();
    }
    const CliRun count
        = run({ "query", path("alexnet.sqlite"), "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL", "--no-header" });
    ASSERT_EQ(count.exitCode, 0) << count.err;
    EXPECT_EQ(std::to_string(kernels) + "\n", count.out);
}

TEST_F(ReportCli, OutputFileGetsTheFormatFromItsExtension)
{
    const CliRun r = run({ "report", "steps", path("alexnet.sqlite"), "-o", path("steps.csv") });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    const std::string csv = readFile(path("steps.csv"));
    EXPECT_EQ(csv.rfind("step,rank,device,step_ns,", 0), 0U) << csv.substr(0, 100);
    expectOneLine(run({ "report", "steps", path("alexnet.sqlite"), "-o", path("alexnet.sqlite") }), 1, "input");
    const CliRun quiet = run({ "report", "idle", path("alexnet.sqlite"), "-o", path("idle.json"), "-q" });
    EXPECT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_TRUE(quiet.err.empty()) << quiet.err;
    EXPECT_TRUE(nlohmann::json::parse(readFile(path("idle.json"))).is_array());
}

TEST_F(ReportCli, SequencesTakeAnOpNameAndAMinimumLength)
{
    // Every occurrence of a sequence launched inside aten::conv2d has at least 2 kernels, and the op column names it.
    const CliRun r = run({ "report", "sequences", path("alexnet.sqlite"), "--op", "aten::conv2d", "--min-length", "2",
        "--format", "json", "-q" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json rows = nlohmann::json::parse(r.out);
    ASSERT_FALSE(rows.empty());
    for (const auto& row : rows) {
        EXPECT_NE(row["op"].get<std::string>().find("aten::conv2d"), std::string::npos) << row["op"];
        EXPECT_GE(row["kernels"].get<int64_t>(), 2);
    }
    const CliRun longer = run({ "report", "sequences", path("alexnet.sqlite"), "--op", "aten::conv2d", "--min-length",
        "1000", "--format", "json", "-q" });
    ASSERT_EQ(longer.exitCode, 0) << longer.err;
    EXPECT_TRUE(nlohmann::json::parse(longer.out).empty());
    expectOneLine(run({ "report", "idle", path("alexnet.sqlite"), "--op", "aten::conv2d" }), 2,
        "apply to the sequences report only");
    expectOneLine(run({ "report", "sequences", path("alexnet.sqlite"), "--min-length", "0" }), 2,
        "--min-length must be 1 or more");
}

TEST_F(ReportCli, BadInputIsOneLine)
{
    const CliRun unknown = run({ "report", "nope", path("alexnet.sqlite") });
    expectOneLine(unknown, 2, "unknown report 'nope'");
    EXPECT_NE(unknown.err.find("--list"), std::string::npos);
    EXPECT_NE(unknown.err.find("kernel_launch"), std::string::npos);
    expectOneLine(run({ "report", "idle", path("missing.sqlite") }), 1, "no such trace file");
    expectOneLine(
        run({ "report", "idle", std::string(PLACESCOPE_DATA_DIR) + "/traces/SOURCES.md" }), 1, "not a SQLite database");
    expectOneLine(run({ "report", "idle", path("alexnet.sqlite"), "--step", "999999" }), 2, "out of range");
    expectOneLine(run({ "report", "idle", path("alexnet.sqlite"), "--format", "xml" }), 2, "--format");
    expectOneLine(run({ "report", "idle" }), 2, "give a report name and a trace");
    EXPECT_FALSE(fs::exists(path("missing.sqlite")));
}

} // namespace
