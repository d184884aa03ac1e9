// SPDX-License-Identifier: MIT
// One child process a test starts, signals and waits on by its state, never by time alone: wait() blocks until the
// child ends, waitUntil() polls a condition while the child lives and gives up as soon as it has ended, and
// waitUntilStopped() waits for a child that stopped itself (SIGSTOP at a point the test named). A generous safety
// limit only turns a hang into a failed test (the child killed) instead of a test run that never ends; no result
// depends on it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace placescope::testing {

struct SpawnOptions
{
    std::string stdinPath; // empty: inherited
    std::string stdoutPath; // empty: inherited
    std::string stderrPath; // empty: inherited
    bool stderrToStdout = false; // stderr into stdoutPath's file
    std::vector<std::string> environment; // NAME=value each; empty: this process's environment
};

class ChildProcess
{
public:
    // Runs argv[0] (a path, not looked up in PATH) with SIGINT, SIGTERM, SIGHUP and SIGQUIT at their defaults and no
    // signal blocked, whatever this process ignores or blocks. started() says whether it ran.
    explicit ChildProcess(const std::vector<std::string>& argv, const SpawnOptions& options = {});
    ~ChildProcess(); // a child still running is killed and reaped
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    bool started() const { return m_pid > 0; }
    pid_t pid() const { return m_pid; }
    // Sends `signal`; false when the child has already been reaped or the kill failed.
    bool signal(int signal);

    // Blocks until the child ends: its wait status (WIFEXITED, WIFSIGNALED...), or -1 when it could not start or ran
    // past the safety limit (then killed).
    int wait();
    // Polls `ready` while the child runs: true once it holds; false when the child ended first (wait() then returns
    // at once) or the safety limit passed.
    bool waitUntil(const std::function<bool()>& ready);
    // Waits until the child is stopped by a signal (it raised SIGSTOP itself); false when it ended instead.
    bool waitUntilStopped();
    // Lets a stopped child go on.
    bool resume();
    // Whether the running child has a handler installed for `signal` (/proc/<pid>/status SigCgt): the state to wait
    // for before a signal that it should catch.
    bool catches(int signal) const;
    // Whether the child has a child of its own (running or not yet reaped).
    bool hasChildren() const;

    static constexpr std::chrono::seconds kSafetyLimit { 300 };

private:
    pid_t m_pid = -1;
    bool m_reaped = false;
    int m_status = -1;
};

// The exit code of a wait status, or -1 when the child did not exit normally.
int exitCodeOf(int waitStatus);
// The signal that ended the child, or 0 when it exited.
int signalOf(int waitStatus);

} // namespace placescope::testing
