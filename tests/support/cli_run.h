// SPDX-License-Identifier: MIT
// The one way tests run a built program as a user would: arguments passed as they are (no shell, so no quoting),
// stdout and stderr captured through files, the exit code. runPlacescope runs PLACESCOPE_BIN_DIR/placescope;
// startPlacescope/finishPlacescope let a test run several at once (two imports racing for one output).
#pragma once

#include "tests/support/child_process.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace placescope::testing {

struct CliRun
{
    int exitCode = -1; // -1: did not exit normally (a signal) or could not start
    int signal = 0; // the signal that ended it, if one did
    std::string out;
    std::string err;
};

// The built binary `name` (placescope, placescope-gui, ...).
std::string binaryPath(const std::string& name);
std::string readFile(const std::filesystem::path& path);

// Runs `argv` (argv[0] a path) to its end; stdout and stderr go through files in `logs` (a folder of the test's own;
// empty: a temporary one), `stdinPath` feeds stdin when given.
CliRun runProgram(
    const std::vector<std::string>& argv, const std::filesystem::path& logs = {}, const std::string& stdinPath = {});

// Runs placescope with `args`, behind `prefix` (e.g. setpriv ... to run as another user).
CliRun runPlacescope(const std::vector<std::string>& args, const std::filesystem::path& logs = {},
    const std::vector<std::string>& prefix = {});

// placescope started, not yet waited for: its stdout and stderr go to logs/out<slot> and logs/err<slot>.
struct StartedRun
{
    std::unique_ptr<ChildProcess> child;
    std::filesystem::path logs;
    int slot = 0;
};
StartedRun startPlacescope(const std::vector<std::string>& args, const std::filesystem::path& logs, int slot = 0,
    const std::vector<std::string>& prefix = {});
CliRun finishPlacescope(StartedRun& run);

// A failed run as the CLI promises it: the expected exit code and one line on stderr that says `contains` (a gtest
// expectation).
void expectOneLineError(const CliRun& r, int exitCode, const std::string& contains);

} // namespace placescope::testing
