// SPDX-License-Identifier: MIT
// Runs the built `placescope` binary (PLACESCOPE_BIN_DIR) as a user would, for the CLI tests: arguments passed as
// they are (no shell, so no quoting), stdout and stderr captured through files in a folder of the test's own.
// startPlacescope/finishPlacescope let a test run several at once (two imports racing for one output).
#pragma once

#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace placescope::testing {

struct CliRun
{
    int exitCode = -1; // -1: did not exit normally (a signal) or could not start
    std::string out;
    std::string err;
};

inline std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// Starts placescope with `args`, behind `prefix` (e.g. setpriv ... to run as another user); its stdout and stderr go
// to logs/out<slot> and logs/err<slot>.
inline pid_t startPlacescope(const std::vector<std::string>& args, const std::filesystem::path& logs, int slot = 0,
    const std::vector<std::string>& prefix = {})
{
    std::vector<std::string> argv = prefix;
    argv.push_back(std::string(PLACESCOPE_BIN_DIR) + "/placescope");
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> raw;
    for (std::string& a : argv)
        raw.push_back(a.data());
    raw.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string out = (logs / ("out" + std::to_string(slot))).string();
    const std::string err = (logs / ("err" + std::to_string(slot))).string();
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = -1;
    const int spawned = posix_spawn(&pid, raw[0], &actions, nullptr, raw.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    EXPECT_EQ(spawned, 0) << raw[0];
    return spawned == 0 ? pid : -1;
}

inline CliRun finishPlacescope(pid_t pid, const std::filesystem::path& logs, int slot = 0)
{
    CliRun run;
    int status = 0;
    if (pid > 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status))
        run.exitCode = WEXITSTATUS(status);
    run.out = readFile(logs / ("out" + std::to_string(slot)));
    run.err = readFile(logs / ("err" + std::to_string(slot)));
    return run;
}

inline CliRun runPlacescope(const std::vector<std::string>& args, const std::filesystem::path& logs,
    const std::vector<std::string>& prefix = {})
{
    return finishPlacescope(startPlacescope(args, logs, 0, prefix), logs, 0);
}

// A failed run as the CLI promises it: the expected exit code and one line on stderr that says `contains`.
inline void expectOneLineError(const CliRun& r, int exitCode, const std::string& contains)
{
    EXPECT_EQ(r.exitCode, exitCode) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(contains), std::string::npos) << r.err;
}

} // namespace placescope::testing
