// SPDX-License-Identifier: MIT
// placescope-gui, run offscreen as a user would, with its own TMPDIR: a Kineto trace it opens is imported into a
// temporary copy; SIGINT, SIGTERM or SIGHUP then close the window, the copy and its folder go, and the process dies
// of the signal. Opening a WAL-mode trace leaves nothing beside it (issue 15).
#include "profiler/store/sqlite_db.h"
#include "tests/support/child_process.h"
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace placescope {
namespace {

namespace fs = std::filesystem;
using testing::ChildProcess;

class GuiSignalsTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_root = m_temp.path();
        for (const char* sub : { "in", "tmp", "runtime", "config", "logs" })
            fs::create_directories(m_root / sub);
        fs::permissions(m_root / "runtime", fs::perms::owner_all); // Qt wants its runtime folder 0700
    }

    // Starts placescope-gui `args` offscreen, its TMPDIR, XDG folders and output in the test's folder, every
    // stopping signal at its default (a parent that ignores SIGINT would otherwise pass that on).
    std::unique_ptr<ChildProcess> startGui(const std::vector<std::string>& args)
    {
        std::vector<std::string> argv { testing::binaryPath("placescope-gui") };
        argv.insert(argv.end(), args.begin(), args.end());
        testing::SpawnOptions options;
        options.environment = { "QT_QPA_PLATFORM=offscreen", "TMPDIR=" + (m_root / "tmp").string(),
            "XDG_RUNTIME_DIR=" + (m_root / "runtime").string(), "XDG_CONFIG_HOME=" + (m_root / "config").string(),
            "HOME=" + (m_root / "config").string() };
        if (const char* path = std::getenv("PATH"))
            options.environment.push_back(std::string("PATH=") + path);
        options.stdoutPath = (m_root / "logs" / "gui.txt").string();
        options.stderrToStdout = true;
        auto child = std::make_unique<ChildProcess>(argv, options);
        EXPECT_TRUE(child->started());
        return child;
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

    testing::TempDir m_temp { "gui_signals" };
    fs::path m_root;
};

TEST_F(GuiSignalsTest, StoppingSignalRemovesTheTemporaryCopy)
{
    const fs::path input = m_root / "in" / "run.json.gz";
    fs::copy_file(std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_benchmark_simple_add_trace.json.gz", input);
    for (int signal : { SIGINT, SIGTERM, SIGHUP }) {
        SCOPED_TRACE(strsignal(signal));
        auto gui = startGui({ input.string() });
        ASSERT_TRUE(gui->waitUntil([&] { return hasTemporaryCopy(); })) << log();
        ASSERT_TRUE(gui->signal(signal));
        const int status = gui->wait();
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
    const int status = startGui({ trace.string(), "--screenshot", picture.string() })->wait();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status << "\n" << log();
    EXPECT_TRUE(fs::exists(picture));
    EXPECT_EQ(tree(m_root / "in"), std::vector<std::string> { "run.sqlite" });
}

// --screenshot of a file that does not open writes no picture: one line, exit 1 (issue 27).
TEST_F(GuiSignalsTest, ScreenshotOfAFileThatDidNotOpenWritesNothing)
{
    const fs::path notATrace = m_root / "in" / "notes.sqlite";
    std::ofstream(notATrace) << "not a trace";
    const fs::path picture = m_root / "logs" / "shot.png";
    const int status = startGui({ notATrace.string(), "--screenshot", picture.string() })->wait();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status << "\n" << log();
    EXPECT_FALSE(fs::exists(picture));
    EXPECT_NE(log().find("placescope-gui: " + notATrace.string() + ": "), std::string::npos) << log();
}

} // namespace
} // namespace placescope
