// SPDX-License-Identifier: MIT
// Inputs that never end or are no file at all, given where a trace goes: `import /dev/zero`, `import -` fed from
// /dev/zero and a FIFO fed without end were copied into the temporary folder until it was full; now each is one
// line from its first bytes. A trace command (stats, whatif, export) on /dev/zero said "no such trace file", on a
// file it may not read SQLite's "unable to open database file"; now they say what it is.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace placescope::testing {
namespace {

namespace fs = std::filesystem;

const char kNotATrace[] = "is not a trace (expected PyTorch profiler JSON";

TEST(EndlessInputCli, DevZeroIsRefusedFromItsHead)
{
    TempDir dir("endless_zero");
    expectOneLineError(runPlacescope({ "import", "/dev/zero", "-o", dir.file("z.sqlite") }, dir.path()), 1,
        "/dev/zero " + std::string(kNotATrace));
    const CliRun fromStdin
        = runProgram({ binaryPath("placescope"), "import", "-", "-o", dir.file("z.sqlite") }, dir.path(), "/dev/zero");
    expectOneLineError(fromStdin, 1, "stdin " + std::string(kNotATrace));
    EXPECT_FALSE(fs::exists(dir / "z.sqlite"));
}

TEST(EndlessInputCli, AnEndlessFifoIsRefusedFromItsHead)
{
    TempDir dir("endless_fifo");
    const std::string fifo = dir.file("endless.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    ::signal(SIGPIPE, SIG_IGN); // the feeder learns the reader left from EPIPE
    std::thread feeder([fifo] {
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
        const std::string line(4096, 'y');
        while (fd >= 0 && ::write(fd, line.data(), line.size()) > 0) { }
        if (fd >= 0)
            ::close(fd);
    });
    const CliRun r = runPlacescope({ "import", fifo, "-o", dir.file("f.sqlite") }, dir.path());
    feeder.join(); // ends only once placescope has closed the FIFO
    expectOneLineError(r, 1, fifo + " " + kNotATrace);
    EXPECT_FALSE(fs::exists(dir / "f.sqlite"));
}

// A stream that is valid for as long as it runs (a real gzipped trace sent again and again: gzip members one after
// another are one gzip stream) was copied into the temporary folder until it was full. The copy stops while the
// folder still has its reserve; the reserve is set above any free room here, so the first check refuses it.
TEST(EndlessInputCli, AnEndlessValidGzipStreamStopsBeforeTheTemporaryFolderIsFull)
{
    TempDir dir("endless_gzip");
    const std::string fifo = dir.file("endless.json.gz");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    ::signal(SIGPIPE, SIG_IGN);
    const std::string member
        = readFile(std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_benchmark_simple_add_trace.json.gz");
    std::thread feeder([fifo, member] {
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
        while (fd >= 0 && ::write(fd, member.data(), member.size()) > 0) { }
        if (fd >= 0)
            ::close(fd);
    });
    ::setenv("PLACESCOPE_SPOOL_RESERVE_BYTES", "4611686018427387904", 1); // 4 EiB: more than any folder has free
    const CliRun r = runPlacescope({ "import", fifo, "-o", dir.file("g.sqlite") }, dir.path());
    ::unsetenv("PLACESCOPE_SPOOL_RESERVE_BYTES");
    feeder.join();
    expectOneLineError(r, 1, fifo + " did not end before the temporary folder ");
    EXPECT_NE(r.err.find("give the trace as a file, or set TMPDIR to a folder with more room"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir / "g.sqlite"));
}

TEST(EndlessInputCli, ATraceCommandOnADeviceSaysItIsNoFile)
{
    TempDir dir("endless_device");
    for (const std::vector<std::string>& args :
        { std::vector<std::string> { "stats", "/dev/zero" }, { "whatif", "/dev/zero" }, { "analyze", "/dev/zero" },
            { "export", "/dev/zero", "-o", dir.file("z.json") } }) {
        expectOneLineError(runPlacescope(args, dir.path()), 1,
            "/dev/zero is not a regular file (a device, pipe or socket); a trace is a file: to read a stream, "
            "`placescope import /dev/zero -o trace.sqlite` first");
    }
    EXPECT_FALSE(fs::exists(dir / "z.json"));
    expectOneLineError(
        runPlacescope({ "stats", dir.path().string() }, dir.path()), 1, " is a directory, not a trace file");
}

// As root, run as nobody (setpriv), who may not read a file of mode 0000.
TEST(EndlessInputCli, AnUnreadableTraceSaysPermissionDenied)
{
    TempDir dir("unreadable_trace");
    fs::permissions(dir.path(),
        fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec | fs::perms::group_read
            | fs::perms::group_exec);
    const std::string source = std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_benchmark_simple_add_trace.json.gz";
    ASSERT_EQ(runPlacescope({ "import", source, "-o", dir.file("run.sqlite"), "-q" }, dir.path()).exitCode, 0);
    fs::permissions(dir / "run.sqlite", fs::perms::none);
    std::vector<std::string> prefix;
    if (::geteuid() == 0)
        prefix = { "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups" };
    const CliRun r = runPlacescope({ "stats", dir.file("run.sqlite") }, {}, prefix);
    expectOneLineError(r, 1, "cannot read " + dir.file("run.sqlite") + ": Permission denied");
}

} // namespace
} // namespace placescope::testing
