// SPDX-License-Identifier: MIT
#include "tests/support/cli_run.h"
#include "tests/support/job/synthetic_job.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace placescope::testing {
namespace {

namespace fs = std::filesystem;

class JobCli : public ::testing::Test
{
protected:
    void SetUp() override
    {
        dir = fs::temp_directory_path()
            / ("ps_job_cli_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir / "logs");
        spec.ranks = 16;
        spec.steps = 3;
        spec.collectivesPerStep = 2;
        spec.stragglerRank = 11;
        spec.stragglerDelayNs = 1'200'000;
        inputs = writeSyntheticJob(spec, (dir / "in").string());
    }
    void TearDown() override { fs::remove_all(dir); }
    CliRun run(const std::vector<std::string>& args) { return runPlacescope(args, dir / "logs"); }
    CliRun importJob(std::vector<std::string> extra = {})
    {
        std::vector<std::string> args { "job", "import" };
        args.insert(args.end(), inputs.begin(), inputs.end());
        args.insert(args.end(), { "-o", (dir / "job").string(), "-j", "2" });
        args.insert(args.end(), extra.begin(), extra.end());
        return run(args);
    }

    fs::path dir;
    SyntheticJobSpec spec;
    std::vector<std::string> inputs;
};

TEST_F(JobCli, ImportsInParallelAndNamesTheStraggler)
{
    const CliRun imported = importJob();
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_TRUE(imported.out.empty()) << "stdout carries data only";
    EXPECT_NE(imported.err.find("16 rank(s)"), std::string::npos) << imported.err;
    for (int r = 0; r < 16; ++r) {
        EXPECT_TRUE(fs::is_regular_file(dir / "job" / "ranks" / ("rank-" + std::to_string(r) + ".sqlite")));
        EXPECT_TRUE(fs::is_regular_file(dir / "job" / "ranks" / ("rank-" + std::to_string(r) + ".summary.json")));
    }
    EXPECT_FALSE(fs::exists(dir / "job" / ".engine")) << "the engine's logs are removed";

    const CliRun steps = run({ "job", "report", (dir / "job").string(), "steps", "--format", "json" });
    ASSERT_EQ(steps.exitCode, 0) << steps.err;
    const nlohmann::json rows = nlohmann::json::parse(steps.out);
    ASSERT_EQ(rows.size(), 3u);
    for (const auto& row : rows) {
        EXPECT_EQ(row["culprit_rank"], 11);
        EXPECT_EQ(row["held_back_ns"], 1'200'000);
        EXPECT_EQ(row["ranks"], 16);
    }
    const CliRun stragglers = run({ "job", "report", (dir / "job").string(), "stragglers", "--format", "csv" });
    ASSERT_EQ(stragglers.exitCode, 0) << stragglers.err;
    EXPECT_EQ(stragglers.out.rfind("rank,host,collectives,wait_ns,", 0), 0u) << stragglers.out;
    EXPECT_NE(stragglers.out.find("\n11,node-1,6,"), std::string::npos) << stragglers.out;
    EXPECT_NE(stragglers.err.find("Rank 11 arrived last and waited least in 3 of 3 steps"), std::string::npos)
        << "notes go to stderr with CSV: " << stragglers.err;
    // Ranks in numeric order: 2 before 10.
    EXPECT_LT(stragglers.out.find("\n2,"), stragglers.out.find("\n10,"));

    for (const char* name : { "pacing", "collectives", "kernels", "breakdown", "clocks" }) {
        const CliRun table = run({ "job", "report", (dir / "job").string(), name });
        EXPECT_EQ(table.exitCode, 0) << name << ": " << table.err;
        EXPECT_FALSE(table.out.empty()) << name;
    }

    const CliRun page = run({ "job", "analyze", (dir / "job").string(), "-o", (dir / "job.html").string() });
    ASSERT_EQ(page.exitCode, 0) << page.err;
    const std::string html = readFile(dir / "job.html");
    EXPECT_NE(html.find("Rank 11 arrived last and waited least"), std::string::npos);
    EXPECT_NE(html.find("rank 11, step 0"), std::string::npos) << "a heatmap cell per rank and step";
    const CliRun text = run({ "job", "analyze", (dir / "job").string() });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_EQ(text.out.rfind("Rank 11 arrived last", 0), 0u) << text.out;
}

TEST_F(JobCli, AFileThatIsNotATraceIsRetriedNamedAndTheJobGoesOn)
{
    const std::string bad = (dir / "in" / "worker-bad.json").string();
    std::ofstream(bad) << "{ this is not a trace";
    inputs.push_back(bad);
    const CliRun imported = importJob();
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_NE(imported.err.find("warning: " + bad + " failed twice: "), std::string::npos) << imported.err;
    std::ifstream manifestFile(dir / "job" / "job.json");
    const nlohmann::json manifest = nlohmann::json::parse(manifestFile);
    ASSERT_EQ(manifest["failed"].size(), 1u);
    EXPECT_EQ(manifest["failed"][0]["input"], bad);
    EXPECT_EQ(manifest["ranks"].size(), 16u);
    const CliRun report = run({ "job", "report", (dir / "job").string(), "steps" });
    ASSERT_EQ(report.exitCode, 0) << report.err;
    EXPECT_NE(report.out.find("not imported: " + bad), std::string::npos) << report.out;
}

TEST_F(JobCli, MissingRanksAreNamed)
{
    inputs.erase(std::remove_if(inputs.begin(), inputs.end(),
                     [](const std::string& p) { return p.find("worker-4.") != std::string::npos; }),
        inputs.end());
    const CliRun imported = importJob();
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_NE(imported.err.find("missing ranks of 16: 4"), std::string::npos) << imported.err;
}

TEST_F(JobCli, BadInputIsOneLine)
{
    fs::create_directories(dir / "job");
    std::ofstream(dir / "job" / "keep.txt") << "mine";
    expectOneLineError(importJob(), 1, "is not an empty folder");
    EXPECT_EQ(readFile(dir / "job" / "keep.txt"), "mine");
    fs::remove_all(dir / "job");
    ASSERT_EQ(importJob().exitCode, 0);
    expectOneLineError(run({ "job", "report", (dir / "job").string(), "nonsense" }), 2, "unknown report 'nonsense'");
    expectOneLineError(run({ "job", "report", (dir / "in").string(), "steps" }), 1, "is not a job folder");
    expectOneLineError(
        run({ "job", "import", (dir / "nothing.json").string(), "-o", (dir / "j2").string() }), 1, "no such file");
    expectOneLineError(
        run({ "job", "import", inputs[0], "-o", (dir / "j3").string(), "--dask", "tcp://x:1", "--dask-local", "2" }), 2,
        "give one of");
    const CliRun none = run({ "job" });
    EXPECT_EQ(none.exitCode, 2) << none.err;
}

} // namespace
} // namespace placescope::testing
