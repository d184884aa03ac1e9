// SPDX-License-Identifier: MIT
// `export -o` onto what another user left: their file was taken over (owner changed to whoever wrote), a private
// 0600 file came back 0644, and a link of theirs was written through to the file it named. Now the file keeps its
// mode, another user's file and another user's link are refused with one line and left as they were. The
// other-user cases run as root, writing as nobody (setpriv) or onto nobody's link.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace placescope::testing {
namespace {

namespace fs = std::filesystem;

class OutputOwnershipCli : public ::testing::Test
{
protected:
    void SetUp() override
    {
        fs::permissions(m_dir.path(), fs::perms::all); // nobody writes here
        const std::string source = std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_benchmark_simple_add_trace.json.gz";
        const CliRun r = runPlacescope({ "import", source, "-o", m_dir.file("run.sqlite"), "-q" }, m_dir.path());
        ASSERT_EQ(r.exitCode, 0) << r.err;
        fs::permissions(m_dir / "run.sqlite", fs::perms(0644));
    }
    CliRun exportTo(const std::string& output, const std::vector<std::string>& prefix = {})
    {
        return runPlacescope({ "export", m_dir.file("run.sqlite"), "-o", output }, m_logs.path(), prefix);
    }
    static struct stat statOf(const fs::path& path)
    {
        struct stat st = {};
        EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
        return st;
    }

    TempDir m_dir { "output_ownership" };
    TempDir m_logs { "output_ownership_logs" };
};

TEST_F(OutputOwnershipCli, APrivateFileStaysPrivate)
{
    std::ofstream(m_dir / "private.json") << "old";
    fs::permissions(m_dir / "private.json", fs::perms(0600));
    const CliRun r = exportTo(m_dir.file("private.json"));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(statOf(m_dir / "private.json").st_mode & 07777, 0600u);
    EXPECT_GT(fs::file_size(m_dir / "private.json"), 3u);
}

TEST_F(OutputOwnershipCli, AnotherUsersFileIsRefused)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "needs root to write as another user (setpriv)";
    std::ofstream(m_dir / "roots.json") << "old";
    fs::permissions(m_dir / "roots.json", fs::perms(0644));
    const CliRun r = exportTo(
        m_dir.file("roots.json"), { "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups" });
    expectOneLineError(r, 1,
        "-o " + m_dir.file("roots.json")
            + " belongs to another user (uid 0): refusing to replace it (remove it or give another path)");
    EXPECT_EQ(statOf(m_dir / "roots.json").st_uid, 0u);
    EXPECT_EQ(readFile(m_dir / "roots.json"), "old");
}

TEST_F(OutputOwnershipCli, AnotherUsersLinkIsNotWrittenThrough)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "needs root to make a link owned by another user";
    std::ofstream(m_dir / "victim.txt") << "precious";
    fs::create_symlink("victim.txt", m_dir / "out.json");
    ASSERT_EQ(::lchown(m_dir.file("out.json").c_str(), 65534, 65534), 0);
    expectOneLineError(exportTo(m_dir.file("out.json")), 1, " is a symbolic link of another user (uid 65534)");
    EXPECT_EQ(readFile(m_dir / "victim.txt"), "precious");
    EXPECT_TRUE(fs::is_symlink(m_dir / "out.json"));
}

TEST_F(OutputOwnershipCli, RootKeepsTheOwnerOfAFileItReplaces)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "only root may replace another user's file";
    std::ofstream(m_dir / "theirs.json") << "old";
    fs::permissions(m_dir / "theirs.json", fs::perms(0640));
    ASSERT_EQ(::chown(m_dir.file("theirs.json").c_str(), 65534, 65534), 0);
    const CliRun r = exportTo(m_dir.file("theirs.json"));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const struct stat st = statOf(m_dir / "theirs.json");
    EXPECT_EQ(st.st_uid, 65534u);
    EXPECT_EQ(st.st_gid, 65534u);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
}

} // namespace
} // namespace placescope::testing
