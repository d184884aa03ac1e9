// SPDX-License-Identifier: MIT
// The files each traced process leaves in the capture's parts directory, and how the launcher reads them:
//   part-<pid>.sqlite.partial  the process's trace (TraceWriter partial, crash-safe, committed every flush)
//   status-<pid>               one line of counters, rewritten atomically at every flush (the live line)
//   error-<pid>                one line: why this process could not be traced (written once)
// Only the launcher and the injection library use these names.
//
// Free functions; safe to call from any thread (each call touches only its own files).
#pragma once

#include "profiler/base/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope::capture {

struct PartStatus
{
    int64_t pid = 0;
    int64_t events = 0; // rows written so far
    int64_t buffersInFlight = 0; // CUPTI buffers handed out or queued, not yet written
    int64_t droppedRecords = 0; // records CUPTI reported lost so far
    bool done = false; // the process finished its part (normal exit or handled signal)
};

struct PartError
{
    int64_t pid = 0;
    std::string message;
};

// The path TraceWriter is created with; the file on disk is this + ".partial".
std::string partTracePath(const std::string& dir, int64_t pid);
std::vector<std::string> listPartFiles(const std::string& dir); // the .partial files, sorted

Status writeStatusFile(const std::string& dir, const PartStatus& status);
std::vector<PartStatus> readStatusFiles(const std::string& dir);

Status writeErrorFile(const std::string& dir, int64_t pid, const std::string& message);
std::vector<PartError> readErrorFiles(const std::string& dir);

} // namespace placescope::capture
