// SPDX-License-Identifier: MIT
// `placescope capture` stopped by a signal leaves no parts folder (issue 15): SIGINT, SIGTERM or SIGHUP while the
// program runs (forwarded to it; capture then ends as the program did) and while capture waits for traced
// processes that outlive the program (capture dies of the signal). SIGKILL cannot be caught: the next capture into
// the same folder removes the empty folder it left, and keeps a folder that holds parts or that a live capture
// holds. Runs the real binary; no GPU needed.
#include "profiler/capture/capture_config.h"
#include "profiler/capture/capture_runner.h"
#include "profiler/capture/parts_folder.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace placescope::capture {
namespace {

using namespace testing;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

class CaptureSignalsTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = freshTestDir();
        m_logs = m_dir.string() + "_stderr.txt";
    }
    void TearDown() override
    {
        fs::remove_all(m_dir);
        fs::remove(m_logs);
    }

    // Starts placescope capture -o <dir>/run.sqlite -- `program`, stderr to a file, every signal at its default.
    pid_t start(const std::vector<std::string>& program)
    {
        std::vector<std::string> args { std::string(PLACESCOPE_BIN_DIR) + "/placescope", "capture", "-o",
            (m_dir / "run.sqlite").string(), "--" };
        args.insert(args.end(), program.begin(), program.end());
        std::vector<char*> argv;
        for (std::string& arg : args)
            argv.push_back(arg.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 2, m_logs.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        sigset_t defaults;
        sigemptyset(&defaults);
        for (int signal : { SIGINT, SIGTERM, SIGHUP })
            sigaddset(&defaults, signal);
        sigset_t none;
        sigemptyset(&none);
        posix_spawnattr_setsigdefault(&attributes, &defaults);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
        pid_t pid = -1;
        EXPECT_EQ(posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ), 0);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        return pid;
    }

    // Waits (at most a minute) for the process to end; its wait status, or -1 when it did not end (then killed).
    static int finish(pid_t pid)
    {
        for (int i = 0; i < 600; ++i) {
            int status = 0;
            if (::waitpid(pid, &status, WNOHANG) == pid)
                return status;
            std::this_thread::sleep_for(100ms);
        }
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        return -1;
    }

    std::string stderrText() const
    {
        std::ifstream in(m_logs);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    // The parts folders in the test's folder.
    std::vector<fs::path> partsFolders() const
    {
        std::vector<fs::path> found;
        for (const auto& entry : fs::directory_iterator(m_dir))
            if (entry.path().filename().string().rfind(kPartsFolderPrefix, 0) == 0)
                found.push_back(entry.path());
        return found;
    }

    // Waits (at most 30 s) until `ready` holds.
    template <typename Ready> static bool waitFor(Ready ready)
    {
        for (int i = 0; i < 300; ++i) {
            if (ready())
                return true;
            std::this_thread::sleep_for(100ms);
        }
        return false;
    }

    std::vector<std::string> names() const
    {
        std::vector<std::string> result;
        for (const auto& entry : fs::directory_iterator(m_dir))
            result.push_back(entry.path().filename().string());
        std::sort(result.begin(), result.end());
        return result;
    }

    fs::path m_dir;
    std::string m_logs;
};

TEST_F(CaptureSignalsTest, SignalWhileTheProgramRunsLeavesNoPartsFolder)
{
    for (int signal : { SIGINT, SIGTERM, SIGHUP }) {
        SCOPED_TRACE(strsignal(signal));
        const pid_t capture = start({ "sleep", "30" });
        ASSERT_TRUE(waitFor([&] { return !partsFolders().empty(); }));
        ASSERT_EQ(::kill(capture, signal), 0);
        const int status = finish(capture);
        // Forwarded to the program, which dies of it; capture ends as the program did, with one line.
        ASSERT_TRUE(WIFEXITED(status)) << status;
        EXPECT_EQ(WEXITSTATUS(status), 128 + signal);
        const std::string err = stderrText();
        EXPECT_NE(err.find("sleep was killed by signal " + std::to_string(signal)), std::string::npos) << err;
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
        EXPECT_TRUE(fs::is_empty(m_dir)) << names().front();
    }
}

TEST_F(CaptureSignalsTest, SignalWhileWaitingForATracedChildRemovesThePartsFolder)
{
    for (int signal : { SIGINT, SIGTERM, SIGHUP }) {
        SCOPED_TRACE(strsignal(signal));
        // The program leaves a child that says it is still writing its part (a status file, not done): capture
        // waits for it after the program ended. The program's last act is the `ended` mark beside the output.
        const std::string ended = (m_dir / "ended").string();
        const pid_t capture = start({ "/bin/sh", "-c",
            "sleep 30 & echo '0 0 0 0' > \"$" + std::string(kEnvPartsDir) + "/status-$!\"; touch '" + ended + "'" });
        ASSERT_TRUE(waitFor([&] { return fs::exists(ended); }));
        std::this_thread::sleep_for(1s); // capture notices the program's end within 50 ms
        const std::vector<fs::path> folders = partsFolders();
        ASSERT_EQ(folders.size(), 1u);
        pid_t straggler = 0;
        for (const auto& entry : fs::directory_iterator(folders.front()))
            if (entry.path().filename().string().rfind("status-", 0) == 0)
                straggler = std::stoi(entry.path().filename().string().substr(7));
        ASSERT_GT(straggler, 0);
        ASSERT_EQ(::kill(capture, signal), 0);
        const int status = finish(capture);
        ::kill(straggler, SIGKILL);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal) << status;
        EXPECT_EQ(names(), std::vector<std::string> { "ended" });
        fs::remove(ended);
    }
}

TEST_F(CaptureSignalsTest, NextCaptureRemovesTheEmptyFolderASigkilledOneLeft)
{
    const pid_t capture = start({ "sleep", "2" });
    ASSERT_TRUE(waitFor([&] { return !partsFolders().empty(); }));
    ASSERT_EQ(::kill(capture, SIGKILL), 0);
    const int killed = finish(capture);
    ASSERT_TRUE(WIFSIGNALED(killed) && WTERMSIG(killed) == SIGKILL) << killed;
    ASSERT_EQ(partsFolders().size(), 1u); // what SIGKILL leaves

    // A folder a live capture holds (its lock) and one that holds a part are not this capture's to remove.
    const fs::path live = m_dir / (std::string(kPartsFolderPrefix) + "live00");
    const fs::path withPart = m_dir / (std::string(kPartsFolderPrefix) + "parts0");
    fs::create_directory(live);
    fs::create_directory(withPart);
    std::ofstream(withPart / "part-1234.sqlite.partial") << "data";
    const int liveLock = ::open(live.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ASSERT_GE(liveLock, 0);
    ASSERT_EQ(::flock(liveLock, LOCK_EX), 0);

    const int status = finish(start({ "true" }));
    ::close(liveLock);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), kExitNoTrace) << stderrText();
    EXPECT_EQ(names(), (std::vector<std::string> { live.filename().string(), withPart.filename().string() }));
    EXPECT_TRUE(fs::exists(withPart / "part-1234.sqlite.partial"));
}

} // namespace
} // namespace placescope::capture
