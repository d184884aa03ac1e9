// SPDX-License-Identifier: MIT
// OutputFile: what it refuses (inputs by inode or path, non-regular files), where it writes (a unique temporary
// file beside the output), what commit() replaces (the output and its stale SQLite sidecars) and what a writer
// that gives up leaves (nothing).
#include "profiler/base/output_file.h"

#include <gtest/gtest.h>

#include <csignal>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace placescope {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path()
            / ("ps_output_file_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    std::string path(const std::string& name) const { return (m_dir / name).string(); }
    static void write(const std::string& file, const std::string& text)
    {
        std::ofstream(file, std::ios::binary) << text;
    }
    static std::string read(const std::string& file)
    {
        std::ifstream in(file, std::ios::binary);
        std::stringstream buffer;
        buffer << in.rdbuf();
        return buffer.str();
    }
    // The names in the test's folder, sorted.
    std::vector<std::string> names() const
    {
        std::vector<std::string> result;
        for (const auto& entry : fs::directory_iterator(m_dir))
            result.push_back(entry.path().filename().string());
        std::sort(result.begin(), result.end());
        return result;
    }

    fs::path m_dir;
};

TEST_F(OutputFileTest, CommitMovesAUniqueTemporaryFileIntoPlace)
{
    auto first = OutputFile::create(path("out.json"));
    auto second = OutputFile::create(path("out.json"));
    ASSERT_TRUE(first.isOk()) << first.status().message();
    ASSERT_TRUE(second.isOk()) << second.status().message();
    EXPECT_NE(first->tempPath(), second->tempPath());
    EXPECT_EQ(fs::path(first->tempPath()).parent_path(), m_dir);
    write(first->tempPath(), "first");
    write(second->tempPath(), "second");
    ASSERT_TRUE(first->commit().isOk());
    EXPECT_EQ(read(path("out.json")), "first");
    ASSERT_TRUE(second->commit().isOk()); // the last rename wins, whole
    EXPECT_EQ(read(path("out.json")), "second");
    EXPECT_EQ(names(), std::vector<std::string> { "out.json" });
}

TEST_F(OutputFileTest, DestroyedWithoutCommitLeavesNothing)
{
    {
        auto output = OutputFile::create(path("out.sqlite"));
        ASSERT_TRUE(output.isOk());
        write(output->tempPath(), "half");
        write(output->tempPath() + "-journal", "sqlite's");
    }
    EXPECT_TRUE(names().empty());
}

TEST_F(OutputFileTest, CommitRemovesStaleSqliteSidecarsOfTheOutput)
{
    write(path("out.sqlite"), "old");
    write(path("out.sqlite-wal"), "stale log");
    write(path("out.sqlite-shm"), "stale index");
    write(path("out.sqlite-journal"), "stale journal");
    auto output = OutputFile::create(path("out.sqlite"));
    ASSERT_TRUE(output.isOk());
    write(output->tempPath(), "new");
    ASSERT_TRUE(output->commit().isOk());
    EXPECT_EQ(read(path("out.sqlite")), "new");
    EXPECT_EQ(names(), std::vector<std::string> { "out.sqlite" });
}

TEST_F(OutputFileTest, RefusesAnInputByAnyName)
{
    write(path("in.json"), "input");
    ASSERT_EQ(::link(path("in.json").c_str(), path("hard.json").c_str()), 0);
    fs::create_symlink(path("in.json"), path("soft.json"));
    fs::create_directories(m_dir / "sub");
    for (const std::string& out : { path("in.json"), m_dir.string() + "/./in.json", m_dir.string() + "/sub/../in.json",
             path("hard.json"), path("soft.json") }) {
        Status checked = checkOutputPath(out, { path("in.json") });
        ASSERT_FALSE(checked.isOk()) << out;
        EXPECT_NE(checked.message().find("is the input"), std::string::npos) << checked.message();
        EXPECT_FALSE(OutputFile::create(out, { path("in.json") }).isOk()) << out;
    }
    EXPECT_EQ(read(path("in.json")), "input");
    EXPECT_EQ(names(), (std::vector<std::string> { "hard.json", "in.json", "soft.json", "sub" }));
}

TEST_F(OutputFileTest, RefusesWhatIsNotARegularFile)
{
    ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
    fs::create_directories(m_dir / "folder");
    for (const auto& [out, kind] : { std::pair<std::string, std::string> { path("fifo"), "a FIFO" },
             { path("folder"), "a directory" }, { "/dev/null", "a character device" } }) {
        auto output = OutputFile::create(out);
        ASSERT_FALSE(output.isOk()) << out;
        EXPECT_NE(output.status().message().find(kind), std::string::npos) << output.status().message();
    }
    struct stat st;
    ASSERT_EQ(::stat(path("fifo").c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
    EXPECT_EQ(names(), (std::vector<std::string> { "fifo", "folder" }));
}

TEST_F(OutputFileTest, EmptyPathIsRefused)
{
    auto output = OutputFile::create("");
    ASSERT_FALSE(output.isOk());
    EXPECT_EQ(output.status().message(), "no output file given (-o is empty)");
}

TEST_F(OutputFileTest, ASymbolicLinkIsWrittenThrough)
{
    write(path("target.json"), "old");
    fs::create_symlink("target.json", path("link.json"));
    ASSERT_TRUE(writeFileAtomically(path("link.json"), "new").isOk());
    EXPECT_TRUE(fs::is_symlink(path("link.json")));
    EXPECT_EQ(read(path("target.json")), "new");
    EXPECT_EQ(names(), (std::vector<std::string> { "link.json", "target.json" }));
}

// A private file stayed private only until the first -o onto it: the new file had the umask's 0644.
TEST_F(OutputFileTest, AnExistingFileKeepsItsMode)
{
    for (const fs::perms mode : { fs::perms(0600), fs::perms(0640), fs::perms(0444) }) {
        write(path("kept.json"), "old");
        fs::permissions(path("kept.json"), mode);
        auto output = OutputFile::create(path("kept.json"));
        ASSERT_TRUE(output.isOk()) << output.status().message();
        struct stat temp;
        ASSERT_EQ(::stat(output->tempPath().c_str(), &temp), 0);
        EXPECT_EQ(temp.st_mode & 077, static_cast<mode_t>(mode) & 077) << "no more open while it is written";
        write(output->tempPath(), "new");
        ASSERT_TRUE(output->commit().isOk());
        EXPECT_EQ(read(path("kept.json")), "new");
        EXPECT_EQ(fs::status(path("kept.json")).permissions(), mode);
        fs::remove(path("kept.json"));
    }
}

// Someone else's link (in /tmp, a shared folder) pointing at the user's file: written through, it would replace
// that file. Only root can make a link of another user's, so only root can run this.
TEST_F(OutputFileTest, ALinkOfAnotherUserIsRefused)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "only root can make a link owned by another user";
    write(path("victim.txt"), "precious");
    fs::create_symlink("victim.txt", path("out.json"));
    ASSERT_EQ(::lchown(path("out.json").c_str(), 65534, 65534), 0);
    Status written = writeFileAtomically(path("out.json"), "new");
    ASSERT_FALSE(written.isOk());
    EXPECT_EQ(written.message(),
        "-o " + path("out.json")
            + " is a symbolic link of another user (uid 65534): refusing to write through it (remove it or give "
              "another path)");
    EXPECT_EQ(read(path("victim.txt")), "precious");
    EXPECT_TRUE(fs::is_symlink(path("out.json")));
    EXPECT_EQ(names(), (std::vector<std::string> { "out.json", "victim.txt" }));
}

TEST_F(OutputFileTest, RootReplacingAnotherUsersFileKeepsItsOwner)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "only root may replace another user's file";
    write(path("theirs.json"), "old");
    ASSERT_EQ(::chown(path("theirs.json").c_str(), 65534, 65534), 0);
    ASSERT_TRUE(writeFileAtomically(path("theirs.json"), "new").isOk());
    struct stat st;
    ASSERT_EQ(::stat(path("theirs.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 65534u);
    EXPECT_EQ(st.st_gid, 65534u);
    EXPECT_EQ(read(path("theirs.json")), "new");
}

// A writer killed outright (SIGKILL: no handler runs) leaves its "<out>.<pid>-<n>.partial"; the next create() for
// that output removes it. A live writer's file stays, though it is another process's.
TEST_F(OutputFileTest, TheNextWriterRemovesAKilledWritersLeftovers)
{
    const std::string out = path("out.sqlite");
    const pid_t killed = ::fork();
    ASSERT_GE(killed, 0);
    if (killed == 0) {
        auto output = OutputFile::create(out);
        std::ofstream(output.isOk() ? output->tempPath() + "-journal" : path("failed")) << "journal";
        ::kill(::getpid(), SIGKILL);
        ::_exit(1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(killed, &status, 0), killed);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    // The counter in the name is the process's (inherited through fork): the pid is what tells the files apart.
    const std::vector<std::string> leftovers = names();
    ASSERT_EQ(leftovers.size(), 2u);
    for (const std::string& name : leftovers)
        EXPECT_EQ(name.rfind("out.sqlite." + std::to_string(killed) + "-", 0), 0u) << name;

    // A live writer of the same output in another process: it says when its file is made, and waits for a word.
    int ready[2], done[2];
    ASSERT_EQ(::pipe(ready), 0);
    ASSERT_EQ(::pipe(done), 0);
    const pid_t live = ::fork();
    ASSERT_GE(live, 0);
    if (live == 0) {
        auto output = OutputFile::create(out);
        char c = output.isOk() ? 'y' : 'n';
        (void)!::write(ready[1], &c, 1);
        (void)!::read(done[0], &c, 1);
        ::_exit(0); // without commit: the destructor does not run, the file stays
    }
    char c = 0;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    ASSERT_EQ(c, 'y');
    std::vector<std::string> liveFiles;
    for (const std::string& name : names())
        if (name.rfind("out.sqlite." + std::to_string(live) + "-", 0) == 0)
            liveFiles.push_back(name);
    ASSERT_EQ(liveFiles.size(), 1u);
    const std::string liveFile = liveFiles[0];

    ASSERT_TRUE(writeFileAtomically(out, "new").isOk());
    EXPECT_EQ(names(), (std::vector<std::string> { "out.sqlite", liveFile })); // the killed one's are gone
    (void)!::write(done[1], "x", 1);
    ASSERT_EQ(::waitpid(live, &status, 0), live);
    for (int fd : { ready[0], ready[1], done[0], done[1] })
        ::close(fd);
}

TEST_F(OutputFileTest, AFolderThatDoesNotExistIsOneLine)
{
    Status written = writeFileAtomically(path("missing/out.json"), "x");
    ASSERT_FALSE(written.isOk());
    EXPECT_EQ(written.message(), "cannot write " + path("missing/out.json") + ": No such file or directory");
    EXPECT_TRUE(names().empty());
}

TEST_F(OutputFileTest, AdoptedFileIsCommittedLikeACreatedOne)
{
    write(path("part.sqlite.partial"), "flushed");
    auto output = OutputFile::adopt(path("part.sqlite"), path("part.sqlite.partial"));
    ASSERT_TRUE(output.isOk());
    ASSERT_TRUE(output->commit().isOk());
    EXPECT_EQ(read(path("part.sqlite")), "flushed");
    EXPECT_EQ(names(), std::vector<std::string> { "part.sqlite" });
}

} // namespace
} // namespace placescope
