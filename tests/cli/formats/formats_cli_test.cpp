// SPDX-License-Identifier: MIT
// Every command that writes a document takes its format the same way (docs/cli_conventions.md, "Formats"): --json
// is --format json (the same bytes), -o's extension picks the format, --json with another --format or a format the
// command does not write is a usage error (exit 2, one line, no file), and -o writes what stdout would have shown.
// Run through the built binary on a real trace (HTA's AlexNet on an A100, imported once).
#include "tests/support/cli_run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

using placescope::testing::CliRun;

class FormatsCli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = fs::temp_directory_path() / ("ps_formats_cli_" + std::to_string(::getpid()));
        fs::create_directories(s_dir);
        const CliRun imported = run({ "import",
            std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz", "-o", trace(), "-q" });
        ASSERT_EQ(imported.exitCode, 0) << imported.err;
    }
    static void TearDownTestSuite() { fs::remove_all(s_dir); }

    static std::string trace() { return path("alexnet.sqlite"); }
    static std::string path(const std::string& name) { return (s_dir / name).string(); }
    static CliRun run(const std::vector<std::string>& args) { return placescope::testing::runPlacescope(args, s_dir); }

    static void expectUsageError(const CliRun& r, const std::string& says)
    {
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    }

    static fs::path s_dir;
};

fs::path FormatsCli::s_dir;

TEST_F(FormatsCli, JsonAndFormatJsonAreOneSpellingEverywhere)
{
    const std::vector<std::vector<std::string>> commands
        = { { "stats", trace() }, { "analyze", trace() }, { "report", "kernel_launch", trace() },
              { "diff", trace(), trace() }, { "critical-path", trace() }, { "whatif", trace(), "--edit", "no-sync" } };
    for (const auto& command : commands) {
        auto with = [&](std::vector<std::string> extra) {
            std::vector<std::string> args = command;
            args.insert(args.end(), extra.begin(), extra.end());
            return run(args);
        };
        const CliRun json = with({ "--json" });
        const CliRun format = with({ "--format", "json" });
        ASSERT_EQ(json.exitCode, 0) << command[0] << ": " << json.err;
        ASSERT_EQ(format.exitCode, 0) << command[0] << ": " << format.err;
        EXPECT_TRUE(nlohmann::json::accept(json.out)) << command[0] << ": " << json.out.substr(0, 200);
        if (command[0] != "whatif" && command[0] != "critical-path") { // the replay's own timing notes may differ
            EXPECT_EQ(json.out, format.out) << command[0];
        }
        expectUsageError(with({ "--json", "--format", "text" }), "two formats");
        expectUsageError(with({ "--format", "yaml" }), "yaml");
    }
}

TEST_F(FormatsCli, OutputExtensionPicksTheFormatAndHoldsWhatStdoutShows)
{
    ASSERT_EQ(run({ "stats", trace(), "-o", path("stats.json") }).exitCode, 0);
    const CliRun shown = run({ "stats", trace(), "--json" });
    EXPECT_EQ(placescope::testing::readFile(path("stats.json")), shown.out);
    EXPECT_TRUE(nlohmann::json::accept(shown.out));
    // `-o -` is standard output, in the format --format names.
    const CliRun dash = run({ "report", "kernel_launch", trace(), "--format", "csv", "-o", "-" });
    ASSERT_EQ(dash.exitCode, 0) << dash.err;
    EXPECT_EQ(dash.out.rfind("kernel", 0), 0u) << dash.out.substr(0, 100);
    // -o naming the trace is refused before any work, with one line, and the trace is left as it was.
    const auto before = fs::file_size(trace());
    const CliRun refused = run({ "stats", trace(), "--json", "-o", trace() });
    EXPECT_EQ(refused.exitCode, 1);
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
    EXPECT_EQ(refused.err.rfind("placescope stats: ", 0), 0u) << refused.err;
    EXPECT_EQ(fs::file_size(trace()), before);
}

} // namespace
