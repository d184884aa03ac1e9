// SPDX-License-Identifier: MIT
// `placescope capture` end to end on a machine without a GPU (what CI and this project's build machine are):
// the program runs to its end, the launcher prints one line naming the cause, writes no trace, leaves no parts
// folder, and exits with the program's code when the program failed, else non-zero.
#include "profiler/capture/capture_runner.h"
#include "test_support.h"
#include "tests/support/cli_run.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <fstream>

namespace placescope::capture {
namespace {

using namespace testing;
namespace fs = std::filesystem;

bool driverWithGpu()
{
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver)
        return false;
    auto init = reinterpret_cast<int (*)(unsigned)>(dlsym(driver, "cuInit"));
    auto count = reinterpret_cast<int (*)(int*)>(dlsym(driver, "cuDeviceGetCount"));
    int devices = 0;
    return init && count && init(0) == 0 && count(&devices) == 0 && devices > 0;
}

class CaptureCliTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = m_temp.path();
        m_trace = (m_dir / "run.sqlite").string();
    }

    // Runs placescope with `args` (its output captured outside the test's folder); returns the exit code, 128 + the
    // signal when one ended it.
    int run(const std::vector<std::string>& args)
    {
        const placescope::testing::CliRun r = placescope::testing::runPlacescope(args);
        m_stderr = r.err;
        return r.signal != 0 ? 128 + r.signal : r.exitCode;
    }
    int lines() const { return static_cast<int>(std::count(m_stderr.begin(), m_stderr.end(), '\n')); }
    // Nothing but what the test put there: no trace, no .partial, no parts folder.
    bool dirIsEmpty() const { return fs::is_empty(m_dir); }

    TempDir m_temp { "capture" };
    fs::path m_dir;
    std::string m_trace;
    std::string m_stderr;
};

TEST_F(CaptureCliTest, ProgramWithoutCudaGivesOneLineAndNoTrace)
{
    EXPECT_EQ(run({ "capture", "-o", m_trace, "--", "true" }), kExitNoTrace) << m_stderr;
    EXPECT_EQ(m_stderr.rfind("placescope capture: no trace written: ", 0), 0u) << m_stderr;
    EXPECT_EQ(lines(), 1) << m_stderr;
    if (!dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
        EXPECT_NE(m_stderr.find("no NVIDIA driver"), std::string::npos) << m_stderr;
    }
    EXPECT_TRUE(dirIsEmpty());
}

TEST_F(CaptureCliTest, FailingProgramsExitCodeIsKept)
{
    EXPECT_EQ(run({ "capture", "-o", m_trace, "--", "sh", "-c", "exit 5" }), 5) << m_stderr;
    EXPECT_EQ(lines(), 1) << m_stderr;
    EXPECT_NE(m_stderr.find("no trace written: sh exited with status 5"), std::string::npos) << m_stderr;
    EXPECT_TRUE(dirIsEmpty());
    EXPECT_EQ(run({ "capture", "-o", m_trace, "--", "sh", "-c", "kill -9 $$" }), 128 + 9) << m_stderr;
    EXPECT_NE(m_stderr.find("no trace written: sh was killed by signal 9"), std::string::npos) << m_stderr;
    EXPECT_TRUE(dirIsEmpty());
}

// A program that exits 3 itself is named as the one that failed: 3 is also the capture's own "no trace" code, and
// the message read as "no GPU" alone (issue 15). A program that succeeded keeps the plain cause.
TEST_F(CaptureCliTest, AProgramExiting3IsNotTakenForTheCapturesOwnFailure)
{
    EXPECT_EQ(run({ "capture", "-o", m_trace, "--", "sh", "-c", "exit 3" }), 3) << m_stderr;
    EXPECT_EQ(lines(), 1) << m_stderr;
    EXPECT_NE(
        m_stderr.find("sh exited with status 3 (capture exits with it) and nothing was traced; "), std::string::npos)
        << m_stderr;
    EXPECT_TRUE(dirIsEmpty());
    EXPECT_EQ(run({ "capture", "-o", m_trace, "--", "true" }), kExitNoTrace) << m_stderr;
    EXPECT_EQ(m_stderr.find("exited with status"), std::string::npos) << m_stderr;
}

TEST_F(CaptureCliTest, ProgramThatDoesNotExistOrBadOptions)
{
    EXPECT_EQ(run({ "capture", "-o", m_trace, "--", "/nonexistent/program" }), kExitCannotRun);
    EXPECT_NE(m_stderr.find("cannot run /nonexistent/program"), std::string::npos) << m_stderr;
    EXPECT_EQ(run({ "capture", "-o", m_trace, "--kinds", "kernel,bogus", "--", "true" }), kExitUsage);
    EXPECT_NE(m_stderr.find("bogus"), std::string::npos) << m_stderr;
    EXPECT_EQ(run({ "capture", "-o", (m_dir / "no/such/dir/x.sqlite").string(), "--", "true" }), kExitUsage);
    EXPECT_EQ(run({ "capture", "-o", m_trace, "--buffer-mb", "0", "--", "true" }), kExitUsage);
    EXPECT_TRUE(dirIsEmpty());
}

// The injection library itself, loaded and initialized as the driver would: without a driver CUPTI refuses,
// the library says why through the parts folder, and the launcher prints that one line.
TEST_F(CaptureCliTest, InjectionWithoutADriverReportsCuptisRefusal)
{
    std::string host = std::string(PLACESCOPE_BIN_DIR) + "/fake_cuda_host";
    int code = run({ "capture", "-o", m_trace, "--", host, "0" });
    if (driverWithGpu()) { // CUPTI works: a trace with no GPU work
        EXPECT_EQ(code, 0) << m_stderr;
        EXPECT_TRUE(fs::exists(m_trace));
        return;
    }
    EXPECT_EQ(code, kExitNoTrace) << m_stderr;
    EXPECT_NE(m_stderr.find("CUPTI"), std::string::npos) << m_stderr;
    EXPECT_EQ(lines(), 1) << m_stderr;
    EXPECT_TRUE(dirIsEmpty());
    EXPECT_EQ(run({ "capture", "-o", m_trace, "--", host, "9" }), 9) << m_stderr;
    EXPECT_EQ(lines(), 1) << m_stderr;
    EXPECT_TRUE(dirIsEmpty());
}

TEST_F(CaptureCliTest, InjectionLibraryPathIsFoundNextToTheBinary)
{
    setenv("PLACESCOPE_INJECT_LIBRARY", "/somewhere/libx.so", 1);
    EXPECT_EQ(defaultInjectLibraryPath(), "/somewhere/libx.so");
    unsetenv("PLACESCOPE_INJECT_LIBRARY");
    EXPECT_TRUE(fs::exists(std::string(PLACESCOPE_BIN_DIR) + "/../lib/libplacescope_inject.so"));
}

} // namespace
} // namespace placescope::capture
