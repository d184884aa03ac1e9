// SPDX-License-Identifier: MIT
// Which stream gets what, for every command (issue 19): data on stdout; the summary ("wrote ...", "written to ...")
// on stderr, and none with --quiet; errors on stderr as one line, with --quiet too. Run through the built binary
// as a user runs it, so a pipe `placescope X | tool` only ever sees data.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

using placescope::testing::CliRun;

class StreamsCli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_temp = std::make_unique<placescope::testing::TempDir>("streams_cli");
        s_dir = s_temp->path();
        const CliRun imported = run({ "import", traceFile(), "-o", path("alexnet.sqlite"), "-q" });
        ASSERT_EQ(imported.exitCode, 0) << imported.err;
    }
    static void TearDownTestSuite() { s_temp.reset(); }

    static std::string traceFile()
    {
        return std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz";
    }
    static std::string model() { return std::string(PLACESCOPE_DATA_DIR) + "/models/mnist.onnx"; }
    static std::string path(const std::string& name) { return (s_dir / name).string(); }
    static CliRun run(const std::vector<std::string>& args) { return placescope::testing::runPlacescope(args, s_dir); }

    static size_t lines(const std::string& text)
    {
        return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    }

    // A success whose data went to stdout and nothing to stderr.
    static void expectDataOnly(const CliRun& r, const std::string& dataHolds)
    {
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_NE(r.out.find(dataHolds), std::string::npos) << r.out.substr(0, 300);
        EXPECT_EQ(r.err, "");
    }
    // A success that wrote a file: one summary line on stderr naming it, stdout as `out` says.
    static void expectSummaryLine(const CliRun& r, const std::string& file)
    {
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
        EXPECT_TRUE(fs::is_regular_file(file)) << file;
    }
    // A failure: one line on stderr, nothing on stdout, whatever --quiet says.
    static void expectErrorOnly(const CliRun& r)
    {
        EXPECT_EQ(r.exitCode, 1) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(lines(r.err), 1u) << r.err;
    }

    static std::unique_ptr<placescope::testing::TempDir> s_temp;

    static fs::path s_dir;
};
std::unique_ptr<placescope::testing::TempDir> StreamsCli::s_temp;
fs::path StreamsCli::s_dir;

TEST_F(StreamsCli, ImportSummaryGoesToStderrAndQuietSilencesIt)
{
    const CliRun loud = run({ "import", traceFile(), "-o", path("import_loud.sqlite") });
    expectSummaryLine(loud, path("import_loud.sqlite"));
    EXPECT_EQ(loud.err.rfind("wrote ", 0), 0u) << loud.err;
    EXPECT_EQ(loud.out, "");

    const CliRun quiet = run({ "import", traceFile(), "-o", path("import_quiet.sqlite"), "--quiet" });
    EXPECT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_EQ(quiet.out, "");
    EXPECT_EQ(quiet.err, "");
    EXPECT_TRUE(fs::is_regular_file(path("import_quiet.sqlite")));

    expectErrorOnly(run({ "import", path("missing.json"), "-o", path("never.sqlite"), "-q" }));
}

TEST_F(StreamsCli, StatsPrintsOnlyData)
{
    expectDataOnly(run({ "stats", path("alexnet.sqlite") }), "GPU kernels:");
    const CliRun json = run({ "stats", path("alexnet.sqlite"), "--json" });
    expectDataOnly(json, "\"kernels\"");
    EXPECT_FALSE(nlohmann::json::parse(json.out, nullptr, false).is_discarded());
    expectErrorOnly(run({ "stats", path("missing.sqlite") }));
}

TEST_F(StreamsCli, QueryPrintsOnlyTheCsv)
{
    const CliRun r = run({ "query", path("alexnet.sqlite"), "SELECT COUNT(*) AS n FROM CUPTI_ACTIVITY_KIND_KERNEL" });
    expectDataOnly(r, "n\n");
    EXPECT_EQ(lines(r.out), 2u) << r.out;
    expectErrorOnly(run({ "query", path("missing.sqlite"), "SELECT 1" }));
}

TEST_F(StreamsCli, ExportSummaryGoesToStderrWhereverTheJsonGoes)
{
    const CliRun toFile = run({ "export", path("alexnet.sqlite"), "-o", path("export.json") });
    expectSummaryLine(toFile, path("export.json"));
    EXPECT_EQ(toFile.out, "");
    // The size is in the one formatter's binary units.
    EXPECT_NE(toFile.err.find("iB"), std::string::npos) << toFile.err;

    const CliRun toStdout = run({ "export", path("alexnet.sqlite"), "-o", "-" });
    EXPECT_EQ(toStdout.exitCode, 0) << toStdout.err;
    EXPECT_FALSE(nlohmann::json::parse(toStdout.out, nullptr, false).is_discarded());
    EXPECT_EQ(lines(toStdout.err), 1u) << toStdout.err;
    EXPECT_NE(toStdout.err.find("wrote standard output"), std::string::npos) << toStdout.err;

    const CliRun quietFile = run({ "export", path("alexnet.sqlite"), "-o", path("export_quiet.json"), "-q" });
    EXPECT_EQ(quietFile.exitCode, 0) << quietFile.err;
    EXPECT_EQ(quietFile.out + quietFile.err, "");
    const CliRun quietStdout = run({ "export", path("alexnet.sqlite"), "-o", "-", "-q" });
    EXPECT_EQ(quietStdout.exitCode, 0);
    EXPECT_EQ(quietStdout.err, "");
    EXPECT_EQ(quietStdout.out, toStdout.out);

    expectErrorOnly(run({ "export", path("missing.sqlite"), "-o", "-", "-q" }));
}

TEST_F(StreamsCli, AnalyzeReportOnStdoutSummaryOnStderr)
{
    expectDataOnly(run({ "analyze", path("alexnet.sqlite") }), "alexnet.sqlite");
    const CliRun toFile = run({ "analyze", path("alexnet.sqlite"), "-o", path("report.json") });
    expectSummaryLine(toFile, path("report.json"));
    EXPECT_EQ(toFile.out, "");
    const CliRun quiet = run({ "analyze", path("alexnet.sqlite"), "-o", path("report_quiet.json"), "--quiet" });
    EXPECT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_EQ(quiet.out + quiet.err, "");
    EXPECT_TRUE(fs::is_regular_file(path("report_quiet.json")));
    expectErrorOnly(run({ "analyze", path("missing.sqlite"), "-q" }));
}

TEST_F(StreamsCli, DiffOnStdoutSummaryOnStderr)
{
    expectDataOnly(run({ "diff", path("alexnet.sqlite"), path("alexnet.sqlite") }), "step");
    const CliRun toFile = run({ "diff", path("alexnet.sqlite"), path("alexnet.sqlite"), "-o", path("diff.json") });
    expectSummaryLine(toFile, path("diff.json"));
    EXPECT_EQ(toFile.out, "");
    const CliRun quiet
        = run({ "diff", path("alexnet.sqlite"), path("alexnet.sqlite"), "-o", path("diff_q.json"), "-q" });
    EXPECT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_EQ(quiet.out + quiet.err, "");
    expectErrorOnly(run({ "diff", path("alexnet.sqlite"), path("missing.sqlite"), "-q" }));
}

TEST_F(StreamsCli, WhatIfPredictionOnStdoutSummaryOnStderr)
{
    const CliRun plain = run({ "whatif", path("alexnet.sqlite"), "--edit", "no-sync" });
    EXPECT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_NE(plain.out, "");
    EXPECT_EQ(plain.err, "");
    // -o writes the predicted trace and says so on stderr; the text on stdout is the same as without -o.
    const CliRun toFile = run({ "whatif", path("alexnet.sqlite"), "--edit", "no-sync", "-o", path("pred.sqlite") });
    expectSummaryLine(toFile, path("pred.sqlite"));
    EXPECT_EQ(toFile.out, plain.out);
    const CliRun quiet
        = run({ "whatif", path("alexnet.sqlite"), "--edit", "no-sync", "-o", path("pred_q.sqlite"), "-q" });
    EXPECT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
    EXPECT_EQ(quiet.out, plain.out);
    expectErrorOnly(run({ "whatif", path("missing.sqlite"), "-q" }));
}

TEST_F(StreamsCli, CriticalPathPrintsOnlyData)
{
    const CliRun r = run({ "critical-path", path("alexnet.sqlite"), "--json" });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << r.out.substr(0, 300);
    EXPECT_EQ(r.err, "");
    expectErrorOnly(run({ "critical-path", path("missing.sqlite") }));
}

TEST_F(StreamsCli, PlaceProposalOnStdoutSummaryOnStderr)
{
    const CliRun plain = run({ "place", "--model", model() });
    expectDataOnly(plain, "Placement proposal");
    const CliRun toFile = run({ "place", "--model", model(), "-o", path("proposal.json") });
    expectSummaryLine(toFile, path("proposal.json"));
    EXPECT_EQ(toFile.out, plain.out);
    const CliRun quiet = run({ "place", "--model", model(), "-o", path("proposal_q.json"), "--quiet" });
    EXPECT_EQ(quiet.exitCode, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
    EXPECT_EQ(quiet.out, plain.out);
    expectErrorOnly(run({ "place", "--model", path("missing.onnx"), "-q" }));
}

// `-o -` is standard output for every command that writes a document (docs/cli_conventions.md): the bytes the
// command prints without -o (place: its --json), nothing on stderr, and no file named "-" in the folder it ran in.
TEST_F(StreamsCli, DashOIsStandardOutputForEveryDocumentCommand)
{
    struct Case
    {
        std::vector<std::string> plain;
        std::vector<std::string> dash;
    };
    const std::vector<Case> cases = {
        { { "analyze", path("alexnet.sqlite") }, { "analyze", path("alexnet.sqlite"), "-o", "-" } },
        { { "report", "steps", path("alexnet.sqlite") }, { "report", "steps", path("alexnet.sqlite"), "-o", "-" } },
        { { "diff", path("alexnet.sqlite"), path("alexnet.sqlite") },
            { "diff", path("alexnet.sqlite"), path("alexnet.sqlite"), "-o", "-" } },
        { { "place", "--model", model(), "--json" }, { "place", "--model", model(), "-o", "-" } },
    };
    const std::vector<std::string> inScratch = { "/usr/bin/env", "-C", s_dir.string() }; // where a file "-" would land
    for (const Case& c : cases) {
        const CliRun plain = placescope::testing::runPlacescope(c.plain, s_dir, inScratch);
        const CliRun dash = placescope::testing::runPlacescope(c.dash, s_dir, inScratch);
        ASSERT_EQ(plain.exitCode, 0) << c.plain[0] << ": " << plain.err;
        EXPECT_EQ(dash.exitCode, 0) << c.dash[0] << ": " << dash.err;
        EXPECT_EQ(dash.err, "") << c.dash[0];
        EXPECT_GT(dash.out.size(), 10u) << c.dash[0];
        EXPECT_EQ(dash.out, plain.out) << c.dash[0];
        EXPECT_FALSE(fs::exists(s_dir / "-")) << c.dash[0] << " wrote a file named -";
    }
}

// A usage error (CLI11's parse errors: an unknown option, a value of the wrong type, a missing argument, no
// command) is one line on stderr naming the command and pointing at its --help, with exit 2 and no stdout.
TEST_F(StreamsCli, UsageErrorsAreOneLineNamingTheCommand)
{
    struct Case
    {
        std::vector<std::string> args;
        std::string prefix;
        std::string holds;
    };
    const std::vector<Case> cases = {
        { { "report", "sequences", path("alexnet.sqlite"), "--min-length", "abc" }, "placescope report: ", "abc" },
        { { "stats", path("alexnet.sqlite"), "--bogus" }, "placescope stats: ", "--bogus" },
        { { "import" }, "placescope import: ", "required" },
        { {}, "placescope: ", "required" },
        { { "improt", "x.json" }, "placescope: ", "unknown command 'improt'" },
    };
    for (const Case& c : cases) {
        const CliRun r = run(c.args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(lines(r.err), 1u) << r.err;
        EXPECT_EQ(r.err.rfind(c.prefix, 0), 0u) << r.err;
        EXPECT_NE(r.err.find(c.holds), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("--help"), std::string::npos) << r.err;
    }
    const CliRun help = run({ "report", "--help" });
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_NE(help.out.find("--format"), std::string::npos);
}

#ifdef PLACESCOPE_HAVE_CUPTI
TEST_F(StreamsCli, CaptureFailureStillPrintsUnderQuiet)
{
    // `true` starts no CUDA work, so no trace is written: that failure is no summary and --quiet keeps it.
    const CliRun r = run({ "capture", "-q", "-o", path("capture.sqlite"), "--", "true" });
    EXPECT_NE(r.exitCode, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("no trace written"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(path("capture.sqlite")));
}
#endif

} // namespace
