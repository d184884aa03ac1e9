// SPDX-License-Identifier: MIT
// Runs one measured step of a benchmark in a forked child, so its wall time and peak RSS are its own and not the
// sum of everything the bench process did before (bench/common/best_of_rounds.h repeats them).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace placescope::bench {

struct ChildRun
{
    bool ok = false;
    double seconds = 0;
    int64_t peakBytes = 0; // the child's peak RSS
};

// Runs `body` in a forked child (its exit code says success) and measures wall time and the child's peak RSS.
inline ChildRun runInChild(const std::function<int()>& body)
{
    std::fflush(nullptr); // else the child inherits unwritten output, which it may write again
    auto start = std::chrono::steady_clock::now();
    pid_t pid = fork();
    if (pid == 0)
        _exit(body());
    ChildRun run;
    if (pid < 0)
        return run;
    int status = 0;
    rusage usage {};
    if (wait4(pid, &status, 0, &usage) != pid)
        return run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.peakBytes = static_cast<int64_t>(usage.ru_maxrss) * 1024; // Linux reports KiB
    run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return run;
}

} // namespace placescope::bench
