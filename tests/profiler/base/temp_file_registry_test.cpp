// SPDX-License-Identifier: MIT
// A command stopped by a signal removes the temporary file it was writing, and nothing else: each case runs in a
// forked child that installs the handlers and is then stopped, as `placescope import` is by Ctrl-C or kill.
#include "profiler/base/output_file.h"
#include "profiler/base/temp_file_registry.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sys/wait.h>
#include <unistd.h>

namespace placescope {
namespace {

namespace fs = std::filesystem;

class TempFileRegistryTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path()
            / ("ps_temp_registry_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    // Runs `body` in a child with the handlers installed, then stops it with `signal`; returns the signal it died of
    // (0 if it did not die of one).
    int stoppedChild(const std::function<void()>& body, int signal)
    {
        pid_t pid = fork();
        if (pid == 0) {
            removeTempFilesOnSignals();
            body();
            std::raise(signal);
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    }

    std::vector<std::string> files() const
    {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(m_dir))
            names.push_back(entry.path().filename().string());
        return names;
    }

    fs::path m_dir;
};

TEST_F(TempFileRegistryTest, AStoppedWriterLeavesNothing)
{
    const std::string out = (m_dir / "out.sqlite").string();
    for (int signal : { SIGINT, SIGTERM, SIGHUP, SIGPIPE }) {
        EXPECT_EQ(stoppedChild(
                      [&] {
                          auto file = OutputFile::create(out);
                          if (!file.isOk())
                              _exit(3);
                          std::ofstream(file->tempPath()) << "half a trace";
                          std::ofstream(file->tempPath() + "-wal") << "its log";
                          std::raise(signal);
                      },
                      signal),
            signal);
        EXPECT_TRUE(files().empty()) << "signal " << signal << " left " << (files().empty() ? "" : files().front());
    }
}

TEST_F(TempFileRegistryTest, ACommittedOutputStays)
{
    const std::string out = (m_dir / "out.txt").string();
    EXPECT_EQ(stoppedChild([&] { (void)writeFileAtomically(out, "done\n"); }, SIGTERM), SIGTERM);
    EXPECT_EQ(files(), std::vector<std::string> { "out.txt" });
}

TEST_F(TempFileRegistryTest, AReleasedPartStaysForItsFinisher)
{
    const std::string out = (m_dir / "out.sqlite").string();
    EXPECT_EQ(stoppedChild(
                  [&] {
                      auto file = OutputFile::create(out);
                      if (!file.isOk())
                          _exit(3);
                      std::ofstream(file->tempPath()) << "a flushed part";
                      file->release(); // the capture's crash-safe part: another process finishes it
                  },
                  SIGTERM),
        SIGTERM);
    EXPECT_EQ(files().size(), 1u);
}

} // namespace
} // namespace placescope
