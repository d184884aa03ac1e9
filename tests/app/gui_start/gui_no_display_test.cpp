// SPDX-License-Identifier: MIT
// placescope-gui started with no display to open (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM unset; an X display
// nobody serves) aborted with Qt's plugin messages, exit 134. Now: one line that says so, exit 1. With a platform
// that loads (offscreen), --version still prints and exits 0: the held start-up messages do not get in the way.
#include "tests/support/child_process.h"
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace placescope::testing {
namespace {

struct GuiRun
{
    int status = -1;
    std::string output; // stdout and stderr
};

GuiRun runGui(const std::vector<std::string>& args, const std::vector<std::string>& environment)
{
    TempDir dir("gui_start");
    std::vector<std::string> argv { binaryPath("placescope-gui") };
    argv.insert(argv.end(), args.begin(), args.end());
    SpawnOptions options;
    options.environment = environment;
    options.environment.push_back("HOME=" + dir.path().string());
    options.environment.push_back("XDG_RUNTIME_DIR=" + dir.path().string());
    if (const char* path = std::getenv("PATH"))
        options.environment.push_back(std::string("PATH=") + path);
    options.stdoutPath = dir.file("out.txt");
    options.stderrToStdout = true;
    ChildProcess child(argv, options);
    GuiRun run;
    run.status = child.wait();
    run.output = readFile(dir / "out.txt");
    return run;
}

void expectNoDisplayLine(const GuiRun& run, const std::string& reason)
{
    EXPECT_EQ(exitCodeOf(run.status), 1) << "signal " << signalOf(run.status) << ": " << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
    EXPECT_EQ(run.output.rfind("placescope-gui: cannot open a display (", 0), 0u) << run.output;
    EXPECT_NE(run.output.find(reason), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("or render with --screenshot out.png\n"), std::string::npos) << run.output;
}

TEST(GuiStart, NoDisplayIsOneLineAndExitOne) { expectNoDisplayLine(runGui({}, {}), "could not connect to display"); }

TEST(GuiStart, AnUnreachableXDisplayIsOneLineAndExitOne)
{
    // Display 99 of a host name that cannot resolve: no X server answers.
    expectNoDisplayLine(runGui({}, { "DISPLAY=placescope-no-such-host.invalid:99" }), "could not connect to display");
}

TEST(GuiStart, APlatformThatLoadsStillStarts)
{
    const GuiRun run = runGui({ "--version" }, { "QT_QPA_PLATFORM=offscreen" });
    EXPECT_EQ(exitCodeOf(run.status), 0) << run.output;
    EXPECT_NE(run.output.find("placescope-gui"), std::string::npos) << run.output;
}

} // namespace
} // namespace placescope::testing
