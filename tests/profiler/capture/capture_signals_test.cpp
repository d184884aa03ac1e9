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
#include "tests/support/child_process.h"
#include "tests/support/cli_run.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace placescope::capture {
namespace {

using namespace testing;
namespace fs = std::filesystem;
using placescope::testing::ChildProcess;

class CaptureSignalsTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = m_temp.path();
        m_logs = m_logsTemp.file("stderr.txt");
    }

    // Starts placescope capture -o <dir>/run.sqlite -- `program`, stderr to a file, every signal at its default.
    std::unique_ptr<ChildProcess> start(const std::vector<std::string>& program)
    {
        std::vector<std::string> args { placescope::testing::binaryPath("placescope"), "capture", "-o",
            (m_dir / "run.sqlite").string(), "--" };
        args.insert(args.end(), program.begin(), program.end());
        placescope::testing::SpawnOptions options;
        options.stderrPath = m_logs;
        auto child = std::make_unique<ChildProcess>(args, options);
        EXPECT_TRUE(child->started());
        return child;
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

    std::vector<std::string> names() const
    {
        std::vector<std::string> result;
        for (const auto& entry : fs::directory_iterator(m_dir))
            result.push_back(entry.path().filename().string());
        std::sort(result.begin(), result.end());
        return result;
    }

    TempDir m_temp { "capture_signals" };
    TempDir m_logsTemp { "capture_signals_logs" };
    fs::path m_dir;
    std::string m_logs;
};

TEST_F(CaptureSignalsTest, SignalWhileTheProgramRunsLeavesNoPartsFolder)
{
    for (int signal : { SIGINT, SIGTERM, SIGHUP }) {
        SCOPED_TRACE(strsignal(signal));
        auto capture = start({ "sleep", "30" });
        // Capture has forked the program: from then on a signal is forwarded to it, also one that arrives before the
        // program's exec (capture holds the signals until it knows the child, issue 27).
        ASSERT_TRUE(capture->waitUntil([&] { return capture->hasChildren(); }));
        ASSERT_TRUE(capture->signal(signal));
        const int status = capture->wait();
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
        auto capture = start({ "/bin/sh", "-c",
            "sleep 30 & echo '0 0 0 0' > \"$" + std::string(kEnvPartsDir) + "/status-$!\"; touch '" + ended + "'" });
        // Capture has reaped the program (it has no child left) and waits for the straggler. Capture restores its
        // signal handlers a few instructions after the reaping, without a state a test can see between the two.
        ASSERT_TRUE(capture->waitUntil([&] { return fs::exists(ended) && !capture->hasChildren(); }));
        const std::vector<fs::path> folders = partsFolders();
        ASSERT_EQ(folders.size(), 1u);
        pid_t straggler = 0;
        for (const auto& entry : fs::directory_iterator(folders.front()))
            if (entry.path().filename().string().rfind("status-", 0) == 0)
                straggler = std::stoi(entry.path().filename().string().substr(7));
        ASSERT_GT(straggler, 0);
        ASSERT_TRUE(capture->signal(signal));
        const int status = capture->wait();
        ::kill(straggler, SIGKILL);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal) << status;
        EXPECT_EQ(names(), std::vector<std::string> { "ended" });
        fs::remove(ended);
    }
}

TEST_F(CaptureSignalsTest, NextCaptureRemovesTheEmptyFolderASigkilledOneLeft)
{
    auto capture = start({ "sleep", "2" });
    ASSERT_TRUE(capture->waitUntil([&] { return !partsFolders().empty(); }));
    ASSERT_TRUE(capture->signal(SIGKILL));
    const int killed = capture->wait();
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

    const int status = start({ "true" })->wait();
    ::close(liveLock);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), kExitNoTrace) << stderrText();
    EXPECT_EQ(names(), (std::vector<std::string> { live.filename().string(), withPart.filename().string() }));
    EXPECT_TRUE(fs::exists(withPart / "part-1234.sqlite.partial"));
}

} // namespace
} // namespace placescope::capture
