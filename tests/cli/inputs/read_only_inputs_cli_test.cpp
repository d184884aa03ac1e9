// SPDX-License-Identifier: MIT
// Reading commands (stats, query, analyze, report, diff, whatif, export) never create a file beside a trace they
// read: no -wal, -shm or -journal, whether the trace is in rollback-journal mode (what Placescope writes) or in WAL
// mode (traces written before, other tools' files), in a folder the user can write or, as nobody, in one they
// cannot. A WAL log that has frames is read when its -shm is there, and refused with one line when reading it would
// create the -shm.
#include "profiler/store/sqlite_db.h"
#include "tests/support/cli_run.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace placescope {
namespace {

namespace fs = std::filesystem;

using testing::CliRun;
using testing::readFile;

class ReadOnlyInputsCliTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const std::string name = std::string("ps_inputs_cli_") + std::to_string(::getpid()) + "_"
            + ::testing::UnitTest::GetInstance()->current_test_info()->name();
        m_dir = fs::temp_directory_path() / name;
        m_logs = fs::temp_directory_path() / (name + "_logs");
        fs::remove_all(m_dir);
        fs::remove_all(m_logs);
        fs::create_directories(m_dir);
        fs::create_directories(m_logs);
        fs::permissions(m_logs, fs::perms::all); // outputs of the nobody case go here
        // The trace every case reads, written by `import` beside the logs (the test's folder holds only inputs).
        const std::string source = (m_logs / "source.json.gz").string();
        fs::copy_file(std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_benchmark_simple_add_trace.json.gz", source);
        CliRun imported = run({ "import", source, "-o", (m_logs / "imported.sqlite").string(), "-q" });
        ASSERT_EQ(imported.exitCode, 0) << imported.err;
        m_trace = (m_logs / "imported.sqlite").string();
    }
    void TearDown() override
    {
        std::error_code ignored;
        for (const auto& entry : fs::recursive_directory_iterator(m_dir, ignored))
            if (entry.is_directory(ignored))
                fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add, ignored);
        fs::remove_all(m_dir);
        fs::remove_all(m_logs);
    }

    std::string path(const std::string& name) const { return (m_dir / name).string(); }
    CliRun run(const std::vector<std::string>& args, const std::vector<std::string>& prefix = {})
    {
        return testing::runPlacescope(args, m_logs, prefix);
    }

    std::vector<std::string> names(const fs::path& folder) const
    {
        std::vector<std::string> result;
        for (const auto& entry : fs::directory_iterator(folder))
            result.push_back(entry.path().filename().string());
        std::sort(result.begin(), result.end());
        return result;
    }

    // A copy of the imported trace at `to`, switched to WAL mode and closed: the file says WAL, no log beside it.
    void walCopy(const std::string& to)
    {
        fs::copy_file(m_trace, to);
        auto db = SqliteDb::open(to, SqliteDb::Mode::ReadWrite);
        ASSERT_TRUE(db.isOk()) << db.status().message();
        ASSERT_TRUE(db->exec("PRAGMA journal_mode=WAL").isOk());
    }

    // A WAL-mode copy of the trace whose log holds a table `extra` not yet merged into the file: the three files
    // copied while the writer still has them open, as a killed writer leaves them. `withShm` false leaves out -shm.
    void liveWalCopy(const std::string& to, bool withShm)
    {
        const std::string writing = (m_logs / "writing.sqlite").string();
        fs::copy_file(m_trace, writing);
        auto db = SqliteDb::open(writing, SqliteDb::Mode::ReadWrite);
        ASSERT_TRUE(db.isOk()) << db.status().message();
        ASSERT_TRUE(db->exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                             "CREATE TABLE extra(x); INSERT INTO extra VALUES (42);")
                        .isOk());
        fs::copy_file(writing, to);
        fs::copy_file(writing + "-wal", to + "-wal");
        if (withShm)
            fs::copy_file(writing + "-shm", to + "-shm");
    }

    // Every reading command on `trace` (`other` for diff), each checked for exit 0; their outputs go to the logs.
    void readWithEveryCommand(
        const std::string& trace, const std::string& other, const std::vector<std::string>& prefix = {})
    {
        const std::string out = m_logs.string() + "/";
        const std::vector<std::vector<std::string>> commands = {
            { "stats", trace },
            { "query", trace, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL" },
            { "analyze", trace },
            { "report", "kernel_launch", trace },
            { "diff", trace, other },
            { "whatif", trace, "-q", "-o", out + "predicted.sqlite" },
            { "export", trace, "-q", "-o", out + "exported.json" },
        };
        for (const auto& command : commands) {
            CliRun r = run(command, prefix);
            EXPECT_EQ(r.exitCode, 0) << command[0] << ": " << r.err;
            fs::remove(out + "predicted.sqlite");
            fs::remove(out + "exported.json");
        }
    }

    // The prefix that runs placescope as nobody when the test runs as root (root writes anywhere).
    std::vector<std::string> asNobody()
    {
        if (::geteuid() != 0)
            return {};
        if (!fs::exists("/usr/bin/setpriv"))
            return {};
        return { "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups" };
    }

    fs::path m_dir;
    fs::path m_logs;
    std::string m_trace;
};

// The SQLite header says WAL mode in bytes 18 and 19.
bool fileSaysWal(const std::string& path)
{
    const std::string bytes = readFile(path);
    return bytes.size() >= 100 && bytes[18] == 2 && bytes[19] == 2;
}

TEST_F(ReadOnlyInputsCliTest, ImportedTraceIsInRollbackModeAndReadingCreatesNothing)
{
    fs::copy_file(m_trace, path("run.sqlite"));
    fs::copy_file(m_trace, path("other.sqlite"));
    EXPECT_FALSE(fileSaysWal(path("run.sqlite")));
    const std::string before = readFile(path("run.sqlite"));
    readWithEveryCommand(path("run.sqlite"), path("other.sqlite"));
    EXPECT_EQ(names(m_dir), (std::vector<std::string> { "other.sqlite", "run.sqlite" }));
    EXPECT_EQ(readFile(path("run.sqlite")), before);
}

TEST_F(ReadOnlyInputsCliTest, WalTraceInAWritableFolderGetsNoWalOrShm)
{
    walCopy(path("wal.sqlite"));
    walCopy(path("other.sqlite"));
    ASSERT_TRUE(fileSaysWal(path("wal.sqlite")));
    ASSERT_EQ(names(m_dir), (std::vector<std::string> { "other.sqlite", "wal.sqlite" }));
    const std::string before = readFile(path("wal.sqlite"));
    readWithEveryCommand(path("wal.sqlite"), path("other.sqlite"));
    EXPECT_EQ(names(m_dir), (std::vector<std::string> { "other.sqlite", "wal.sqlite" }));
    EXPECT_EQ(readFile(path("wal.sqlite")), before);
}

TEST_F(ReadOnlyInputsCliTest, WalLogWithItsShmIsReadAndLeftAsItWas)
{
    liveWalCopy(path("live.sqlite"), true);
    const std::string log = readFile(path("live.sqlite-wal"));
    CliRun r = run({ "query", path("live.sqlite"), "SELECT x FROM extra" });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "x\n42\n"); // the row only the log holds
    EXPECT_EQ(names(m_dir), (std::vector<std::string> { "live.sqlite", "live.sqlite-shm", "live.sqlite-wal" }));
    EXPECT_EQ(readFile(path("live.sqlite-wal")), log);
}

TEST_F(ReadOnlyInputsCliTest, WalLogWithoutItsShmIsRefusedInOneLine)
{
    liveWalCopy(path("live.sqlite"), false);
    for (const char* command : { "stats", "analyze" }) {
        CliRun r = run({ command, path("live.sqlite") });
        testing::expectOneLineError(r, 1, "live.sqlite-wal is not merged into it");
        EXPECT_NE(r.err.find("PRAGMA journal_mode=DELETE"), std::string::npos) << r.err;
    }
    EXPECT_EQ(names(m_dir), (std::vector<std::string> { "live.sqlite", "live.sqlite-wal" }));
}

TEST_F(ReadOnlyInputsCliTest, ReadOnlyFolderAsNobody)
{
    const std::vector<std::string> prefix = asNobody();
    if (::geteuid() == 0) {
        ASSERT_FALSE(prefix.empty()) << "running as root needs /usr/bin/setpriv to drop to nobody";
    }
    // nobody must reach the inputs (a TMPDIR under /root would make this a test of something else).
    for (fs::path p = m_dir.parent_path(); !p.empty() && p != p.root_path(); p = p.parent_path()) {
        struct stat st;
        ASSERT_TRUE(::stat(p.c_str(), &st) == 0 && (st.st_mode & S_IXOTH)) << p << " is not open to other users";
    }
    walCopy(path("wal.sqlite"));
    liveWalCopy(path("live.sqlite"), true);
    fs::copy_file(m_trace, path("run.sqlite"));
    for (const auto& entry : fs::directory_iterator(m_dir))
        fs::permissions(entry.path(), fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    fs::permissions(m_dir,
        fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec
            | fs::perms::others_read | fs::perms::others_exec);
    const std::vector<std::string> expected { "live.sqlite", "live.sqlite-shm", "live.sqlite-wal", "run.sqlite",
        "wal.sqlite" };
    ASSERT_EQ(names(m_dir), expected);
    readWithEveryCommand(path("wal.sqlite"), path("run.sqlite"), prefix);
    readWithEveryCommand(path("run.sqlite"), path("wal.sqlite"), prefix);
    CliRun live = run({ "query", path("live.sqlite"), "SELECT x FROM extra" }, prefix);
    EXPECT_EQ(live.exitCode, 0) << live.err;
    EXPECT_EQ(live.out, "x\n42\n");
    EXPECT_EQ(names(m_dir), expected);
}

} // namespace
} // namespace placescope
