// SPDX-License-Identifier: MIT
#include "tests/support/cli_run.h"

#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace placescope::testing {

std::string binaryPath(const std::string& name) { return std::string(PLACESCOPE_BIN_DIR) + "/" + name; }

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

namespace {

std::unique_ptr<ChildProcess> spawnLogged(
    const std::vector<std::string>& argv, const std::filesystem::path& logs, int slot, const std::string& stdinPath)
{
    SpawnOptions options;
    options.stdinPath = stdinPath;
    options.stdoutPath = (logs / ("out" + std::to_string(slot))).string();
    options.stderrPath = (logs / ("err" + std::to_string(slot))).string();
    return std::make_unique<ChildProcess>(argv, options);
}

CliRun collect(ChildProcess& child, const std::filesystem::path& logs, int slot)
{
    CliRun run;
    const int status = child.wait();
    run.exitCode = exitCodeOf(status);
    run.signal = signalOf(status);
    run.out = readFile(logs / ("out" + std::to_string(slot)));
    run.err = readFile(logs / ("err" + std::to_string(slot)));
    return run;
}

std::vector<std::string> placescopeArgv(const std::vector<std::string>& args, const std::vector<std::string>& prefix)
{
    std::vector<std::string> argv = prefix;
    argv.push_back(binaryPath("placescope"));
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

} // namespace

CliRun runProgram(const std::vector<std::string>& argv, const std::filesystem::path& logs, const std::string& stdinPath)
{
    std::unique_ptr<TempDir> own;
    if (logs.empty())
        own = std::make_unique<TempDir>("run_logs");
    const std::filesystem::path folder = logs.empty() ? own->path() : logs;
    std::unique_ptr<ChildProcess> child = spawnLogged(argv, folder, 0, stdinPath);
    EXPECT_TRUE(child->started()) << argv.front();
    return collect(*child, folder, 0);
}

CliRun runPlacescope(
    const std::vector<std::string>& args, const std::filesystem::path& logs, const std::vector<std::string>& prefix)
{
    return runProgram(placescopeArgv(args, prefix), logs);
}

StartedRun startPlacescope(const std::vector<std::string>& args, const std::filesystem::path& logs, int slot,
    const std::vector<std::string>& prefix)
{
    StartedRun run { spawnLogged(placescopeArgv(args, prefix), logs, slot, {}), logs, slot };
    EXPECT_TRUE(run.child->started());
    return run;
}

CliRun finishPlacescope(StartedRun& run) { return collect(*run.child, run.logs, run.slot); }

void expectOneLineError(const CliRun& r, int exitCode, const std::string& contains)
{
    EXPECT_EQ(r.exitCode, exitCode) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(contains), std::string::npos) << r.err;
}

} // namespace placescope::testing
