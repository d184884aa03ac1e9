// SPDX-License-Identifier: MIT
// A file the user may not read, or one in a folder the user may not enter, is "Permission denied" for every reading
// command: it was "no such trace file", SQLite's "unable to open database file", a std::filesystem exception's text
// (job import) or "not a job folder" (job report). Run as root, the commands run as nobody (setpriv) on root's
// private files; run as another user, on files of its own made unreadable.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace placescope::testing {
namespace {

namespace fs = std::filesystem;

const std::string kSample = std::string(PLACESCOPE_SOURCE_DIR) + "/resources/samples/resnet50_train_3steps.sqlite";
const std::string kKineto = std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_benchmark_simple_add_trace.json.gz";
const std::string kModel = std::string(PLACESCOPE_DATA_DIR) + "/models/mnist.onnx";

std::vector<std::string> asOtherUser()
{
    if (::geteuid() != 0)
        return {};
    return { "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups" };
}

// Every way a command reads a file it is given, with `path` in the place of that file.
std::vector<std::vector<std::string>> readingCommands(const std::string& path, const std::string& out)
{
    return { { "stats", path }, { "query", path, "SELECT 1" }, { "analyze", path }, { "report", "idle", path },
        { "whatif", path }, { "critical-path", path }, { "diff", kSample, path }, { "diff", path, kSample },
        { "export", path, "-o", out + ".json" }, { "import", path, "-o", out + ".sqlite" },
        { "place", "--model", kModel, "--trace", path }, { "whatif", kSample, "--compare", path },
        { "job", "import", path, "-o", out + "_job" } };
}

class UnreadableInputsCli : public ::testing::Test
{
protected:
    void SetUp() override
    {
        fs::permissions(m_dir.path(), fs::perms(0755)); // the other user enters the test's folder
        fs::create_directory(m_dir / "closed");
        fs::copy_file(kSample, m_dir / "closed" / "run.sqlite");
        fs::create_directory(m_dir / "out");
        fs::permissions(m_dir / "out", fs::perms(0777)); // and may write its outputs (none should appear)
    }
    void TearDown() override { fs::permissions(m_dir / "closed", fs::perms(0755)); }

    void expectPermissionDenied(const std::vector<std::string>& args, const std::string& path)
    {
        const CliRun r = runPlacescope(args, m_dir.path(), asOtherUser());
        expectOneLineError(r, 1, path);
        EXPECT_NE(r.err.find(": Permission denied"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("no such"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("unable to open"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("filesystem error"), std::string::npos) << r.err; // an exception's text
    }

    TempDir m_dir { "unreadable_inputs" };
};

TEST_F(UnreadableInputsCli, AFileTheUserMayNotReadIsPermissionDenied)
{
    // A private trace, a private Kineto file and the files other options read.
    fs::copy_file(kSample, m_dir / "private.sqlite");
    fs::copy_file(kKineto, m_dir / "private.json.gz");
    fs::copy_file(kModel, m_dir / "private.onnx");
    std::ofstream(m_dir / "private.sql") << "SELECT 1";
    for (const char* name : { "private.sqlite", "private.json.gz", "private.onnx", "private.sql" })
        fs::permissions(m_dir / name, ::geteuid() == 0 ? fs::perms(0600) : fs::perms::none);
    for (const char* name : { "private.sqlite", "private.json.gz" }) {
        const std::string path = m_dir.file(name);
        for (const auto& args : readingCommands(path, m_dir.file("out/x")))
            expectPermissionDenied(args, path);
    }
    expectPermissionDenied({ "place", "--model", m_dir.file("private.onnx") }, m_dir.file("private.onnx"));
    expectPermissionDenied({ "analyze", kSample, "--model", m_dir.file("private.onnx") }, m_dir.file("private.onnx"));
    expectPermissionDenied({ "query", kSample, "--file", m_dir.file("private.sql") }, m_dir.file("private.sql"));
    EXPECT_TRUE(fs::is_empty(m_dir / "out"));
}

TEST_F(UnreadableInputsCli, AFileInAFolderTheUserMayNotEnterIsPermissionDenied)
{
    fs::permissions(m_dir / "closed", ::geteuid() == 0 ? fs::perms(0700) : fs::perms::none);
    const std::string path = m_dir.file("closed/run.sqlite");
    for (const auto& args : readingCommands(path, m_dir.file("out/x")))
        expectPermissionDenied(args, path);
    EXPECT_TRUE(fs::is_empty(m_dir / "out"));
}

TEST_F(UnreadableInputsCli, AJobFolderTheUserMayNotEnterIsPermissionDenied)
{
    const CliRun made = runPlacescope({ "job", "import", kKineto, "-o", m_dir.file("job"), "-q" }, m_dir.path());
    ASSERT_EQ(made.exitCode, 0) << made.err;
    fs::permissions(m_dir / "job", ::geteuid() == 0 ? fs::perms(0700) : fs::perms::none);
    const std::string manifest = m_dir.file("job/job.json");
    expectPermissionDenied({ "job", "report", m_dir.file("job"), "steps" }, manifest);
    expectPermissionDenied({ "job", "analyze", m_dir.file("job") }, manifest);
    fs::permissions(m_dir / "job", fs::perms(0755));
}

} // namespace
} // namespace placescope::testing
