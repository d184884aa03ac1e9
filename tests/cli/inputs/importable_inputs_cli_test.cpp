// SPDX-License-Identifier: MIT
// Every reading command takes what `import` takes (issue 26): a PyTorch profiler JSON and an Nsight Systems export
// are imported to a temporary trace, which is gone when the command ends. Nothing is left beside the input or in
// $TMPDIR (a folder of the test's own), and the figures equal those read from an explicit import. A mistyped command
// or option is answered with the nearest one.
#include "tests/support/cli_run.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

namespace placescope {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::runPlacescope;

class ImportableInputs : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path()
            / ("ps_importable_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        for (const char* sub : { "in", "tmp", "out", "logs" })
            fs::create_directories(m_dir / sub);
        for (const char* name : { "hta_alexnet_a100_1rank.json.gz", "pipit_cloverleaf_a100_nsys_sanitized.sqlite" })
            fs::copy_file(fs::path(PLACESCOPE_DATA_DIR) / "traces" / name, m_dir / "in" / name);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    // placescope with TMPDIR set to our own empty folder.
    CliRun run(const std::vector<std::string>& args)
    {
        return runPlacescope(args, m_dir / "logs", { "/usr/bin/env", "TMPDIR=" + (m_dir / "tmp").string() });
    }
    std::string input(const char* name) const { return (m_dir / "in" / name).string(); }
    static size_t entries(const fs::path& folder)
    {
        return static_cast<size_t>(std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
    }

    fs::path m_dir;
};

TEST_F(ImportableInputs, EveryReadingCommandImportsToATemporaryTraceAndLeavesNothing)
{
    for (const char* name : { "hta_alexnet_a100_1rank.json.gz", "pipit_cloverleaf_a100_nsys_sanitized.sqlite" }) {
        const std::string in = input(name);
        const std::string out = (m_dir / "out" / "export.json").string();
        const std::vector<std::vector<std::string>> commands = { { "stats", in }, { "analyze", in, "--format", "json" },
            { "report", "idle", in }, { "whatif", in }, { "critical-path", in }, { "export", in, "-o", out },
            { "query", in, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL" }, { "diff", in, in } };
        for (const auto& args : commands) {
            const CliRun r = run(args);
            EXPECT_EQ(r.exitCode, 0) << args[0] << " " << name << ": " << r.err;
            EXPECT_NE(r.err.find("importing " + in), std::string::npos) << args[0] << ": " << r.err;
            EXPECT_FALSE(r.out.empty() && args[0] != "export") << args[0];
            EXPECT_EQ(entries(m_dir / "tmp"), 0U) << args[0] << " " << name << " left a temporary file";
            EXPECT_EQ(entries(m_dir / "in"), 2U) << args[0] << " " << name << " wrote beside its input";
        }
        EXPECT_TRUE(fs::file_size(out) > 0);
    }
}

TEST_F(ImportableInputs, FiguresEqualThoseOfAnExplicitImport)
{
    const std::string json = input("hta_alexnet_a100_1rank.json.gz");
    // The import under the same file name, so the name the outputs show is the same too.
    const std::string trace = (m_dir / "out" / "hta_alexnet_a100_1rank.json.gz").string();
    ASSERT_EQ(run({ "import", json, "-o", trace, "-q" }).exitCode, 0);
    for (const char* report : { "idle", "overlap", "memory" }) {
        const CliRun a = run({ "report", report, json, "--format", "csv" });
        const CliRun b = run({ "report", report, trace, "--format", "csv" });
        ASSERT_EQ(a.exitCode, 0) << a.err;
        EXPECT_EQ(a.out, b.out) << report;
    }
    const CliRun a = run({ "analyze", json, "--format", "json" }), b = run({ "analyze", trace, "--format", "json" });
    ASSERT_EQ(a.exitCode, 0) << a.err;
    EXPECT_EQ(a.out, b.out);
}

TEST_F(ImportableInputs, AFileThatIsNoTraceIsStillOneLineAndExit1)
{
    const CliRun r = run({ "stats", (fs::path(PLACESCOPE_DATA_DIR) / "models" / "mnist.onnx").string() });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("not a SQLite database"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(entries(m_dir / "tmp"), 0U);
}

TEST_F(ImportableInputs, ATypoGetsTheNearestCommandOrOption)
{
    const std::string trace
        = (fs::path(PLACESCOPE_SOURCE_DIR) / "resources/samples/resnet50_train_3steps.sqlite").string();
    CliRun r = run({ "analyse", trace });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("did you mean 'analyze'?"), std::string::npos) << r.err;
    r = run({ "stats", trace, "--tpo", "5" });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("did you mean --top?"), std::string::npos) << r.err;
    // Nothing near: no guess.
    r = run({ "frobnicate", trace });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
}

} // namespace
} // namespace placescope
