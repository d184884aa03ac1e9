// SPDX-License-Identifier: MIT
// CaptureRunner: what `placescope capture` does. It runs the program with the injection library in its
// environment (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH, the PLACESCOPE_CAPTURE_* settings), keeps a live
// line on stderr from the parts' status files, forwards SIGINT/SIGTERM that were sent to the launcher alone,
// waits for the program and its traced children, merges their parts into one trace, and prints a summary.
// When nothing could be traced it prints one line naming the cause, writes no trace and fails; the program
// itself always runs to its end untouched. The exit code is the program's own whenever the program failed.
//
// Not thread-safe; one run per process (it installs signal handlers for its duration).
#pragma once

#include "profiler/capture/capture_config.h"

#include <cstdio>
#include <string>
#include <vector>

namespace placescope::capture {

// Exit codes of the launcher when the program itself succeeded.
inline constexpr int kExitNoTrace = 3; // nothing could be traced (no driver, another profiler...)
inline constexpr int kExitMergeFailed = 4; // parts written, but no trace could be made of them
inline constexpr int kExitUsage = 2; // bad options, missing tracer library
inline constexpr int kExitCannotRun = 127; // the program could not be started

struct CaptureRequest
{
    std::vector<std::string> command; // the program and its arguments
    std::string outputPath;
    uint32_t kinds = kDefaultKinds;
    int64_t bufferBytes = 8 << 20;
    double delaySeconds = 0;
    double durationSeconds = 0; // 0: until the program ends
    std::string injectLibraryPath;
    std::string torchMemoryTrace; // --torch-memory: Kineto JSON the program writes (empty: none)
    FILE* log = stderr;
    bool liveLine = true; // redraw a status line (only when `log` is a terminal)
    bool quiet = false; // --quiet: no status line, summary or warning; failures still print
};

// Runs the whole capture; returns the exit code for the launcher's process.
int runCapture(const CaptureRequest& request);

// Where the injection library sits next to an installed or built `placescope` (<bin>/../lib), unless
// PLACESCOPE_INJECT_LIBRARY names it.
std::string defaultInjectLibraryPath();

} // namespace placescope::capture
