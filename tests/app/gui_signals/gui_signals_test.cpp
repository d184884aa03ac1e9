// SPDX-License-Identifier: MIT
// placescope-gui, run offscreen as a user would, with its own TMPDIR: a Kineto trace it opens is imported into a
// temporary copy; SIGINT, SIGTERM or SIGHUP then close the window, the copy and its folder go, and the process dies
// of the signal. Opening a WAL-mode trace leaves nothing beside it (issue 15).
#include "profiler/store/sqlite_db.h"
#include "tests/cli/placescope_runner.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace placescope {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class GuiSignalsTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const std::string name = std::string("ps_gui_signals_") + std::to_string(::getpid()) + "_"
            + ::testing::UnitTest::GetInstance()->current_test_info()->name();
        m_root = fs::temp_directory_path() / name;
        fs::remove_all(m_root);
        for (const char* sub : { "in", "tmp", "runtime", "config", "logs" })
            fs::create_directories(m_root / sub);
        fs::permissions(m_root / "runtime", fs::perms::owner_all); // Qt wants its runtime folder 0700
    }
    void TearDown() override { fs::remove_all(m_root); }

    // Starts placescope-gui `args` offscreen, its TMPDIR, XDG folders and output in the test's folder, every
    // stopping signal at its default (a parent that ignores SIGINT would otherwise pass that on).
    pid_t startGui(const std::vector<std::string>& args)
    {
        std::vector<std::string> argv { std::string(PLACESCOPE_BIN_DIR) + "/placescope-gui" };
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<std::string> env { "QT_QPA_PLATFORM=offscreen", "TMPDIR=" + (m_root / "tmp").string(),
            "XDG_RUNTIME_DIR=" + (m_root / "runtime").string(), "XDG_CONFIG_HOME=" + (m_root / "config").string(),
            "HOME=" + (m_root / "config").string() };
        if (const char* path = std::getenv("PATH"))
            env.push_back(std::string("PATH=") + path);
        std::vector<char*> rawArgs, rawEnv;
        for (std::string& a : argv)
            rawArgs.push_back(a.data());
        rawArgs.push_back(nullptr);
        for (std::string& e : env)
            rawEnv.push_back(e.data());
        rawEnv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        const std::string log = (m_root / "logs" / "gui.txt").string();
        posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        sigset_t defaults, none;
        sigemptyset(&defaults);
        sigemptyset(&none);
        for (int signal : { SIGINT, SIGTERM, SIGHUP })
            sigaddset(&defaults, signal);
        posix_spawnattr_setsigdefault(&attributes, &defaults);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
        pid_t pid = -1;
        EXPECT_EQ(posix_spawn(&pid, rawArgs[0], &actions, &attributes, rawArgs.data(), rawEnv.data()), 0);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        return pid;
    }

    // Waits (at most two minutes) for the GUI to end; its wait status, or -1 when it did not end (then killed).
    static int finish(pid_t pid)
    {
        for (int i = 0; i < 1200; ++i) {
            int status = 0;
            if (::waitpid(pid, &status, WNOHANG) == pid)
                return status;
            std::this_thread::sleep_for(100ms);
        }
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        return -1;
    }

    // Every path under `folder`, relative to it, sorted.
    static std::vector<std::string> tree(const fs::path& folder)
    {
        std::vector<std::string> found;
        for (const auto& entry : fs::recursive_directory_iterator(folder))
            found.push_back(fs::relative(entry.path(), folder).string());
        std::sort(found.begin(), found.end());
        return found;
    }

    // The imported copy the GUI wrote into its temporary folder, once it is complete (its final name).
    bool hasTemporaryCopy() const
    {
        for (const auto& entry : fs::recursive_directory_iterator(m_root / "tmp"))
            if (entry.path().extension() == ".sqlite")
                return true;
        return false;
    }

    std::string log() const { return testing::readFile(m_root / "logs" / "gui.txt"); }

    fs::path m_root;
};

TEST_F(GuiSignalsTest, StoppingSignalRemovesTheTemporaryCopy)
{
    const fs::path input = m_root / "in" / "run.json.gz";
    fs::copy_file(std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_benchmark_simple_add_trace.json.gz", input);
    for (int signal : { SIGINT, SIGTERM, SIGHUP }) {
        SCOPED_TRACE(strsignal(signal));
        const pid_t gui = startGui({ input.string() });
        bool copied = false;
        for (int i = 0; i < 1200 && !copied; ++i) {
            copied = hasTemporaryCopy();
            if (!copied)
                std::this_thread::sleep_for(100ms);
        }
        ASSERT_TRUE(copied) << log();
        ASSERT_EQ(::kill(gui, signal), 0);
        const int status = finish(gui);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal) << status << "\n" << log();
        EXPECT_EQ(tree(m_root / "tmp"), std::vector<std::string> {}) << log();
        EXPECT_EQ(tree(m_root / "in"), std::vector<std::string> { "run.json.gz" });
    }
}

TEST_F(GuiSignalsTest, OpeningAWalTraceCreatesNothingBesideIt)
{
    // A Placescope trace switched to WAL mode (as traces were written before): the GUI reads it with nothing new
    // beside it, and --screenshot ends the GUI once it is open.
    const fs::path source = m_root / "logs" / "source.json.gz";
    fs::copy_file(std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_benchmark_simple_add_trace.json.gz", source);
    const fs::path trace = m_root / "in" / "run.sqlite";
    const testing::CliRun imported
        = testing::runPlacescope({ "import", source.string(), "-o", trace.string(), "-q" }, m_root / "logs");
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    {
        auto db = SqliteDb::open(trace.string(), SqliteDb::Mode::ReadWrite);
        ASSERT_TRUE(db.isOk());
        ASSERT_TRUE(db->exec("PRAGMA journal_mode=WAL").isOk());
    }
    ASSERT_EQ(tree(m_root / "in"), std::vector<std::string> { "run.sqlite" });
    const fs::path picture = m_root / "logs" / "shot.png";
    const int status = finish(startGui({ trace.string(), "--screenshot", picture.string() }));
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status << "\n" << log();
    EXPECT_TRUE(fs::exists(picture));
    EXPECT_EQ(tree(m_root / "in"), std::vector<std::string> { "run.sqlite" });
}

} // namespace
} // namespace placescope
