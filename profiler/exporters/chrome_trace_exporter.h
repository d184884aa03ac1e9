// SPDX-License-Identifier: MIT
// Chrome trace (JSON) export: a trace file -> the Trace Event Format that Perfetto UI and chrome://tracing open,
// in the dialect PyTorch's profiler (Kineto) writes, so our Kineto importer reads it back.
//   GPU:  kernels/memcpys/memsets/syncs as complete ("X") events, pid = device index (process "GPU n"),
//         tid = stream id (thread "stream N").
//   Host: CUDA API calls, framework ops, NVTX ranges (X) and marks (i) on pid/tid of their process/thread.
//   Memory: "[memory]" instants as Kineto writes them, plus counter ("C") tracks of allocated/reserved bytes.
//   Flows: launch -> GPU activity arrows (s/f, bp "e"), from PS_FLOWS or from correlation ids.
// Timestamps are microseconds with three decimals (ns precision). Events stream out as they are read from the
// trace (no document in memory); the file is written beside the target and renamed when complete, so a
// failed or cancelled export leaves no file. Thread-safety: one call per SqliteDb.
#pragma once

#include "profiler/base/progress.h"
#include "profiler/base/status.h"
#include "profiler/store/sqlite_db.h"

#include <cstdint>
#include <string>

namespace placescope {

struct ChromeExportOptions
{
    ProgressFn progress; // events written, events to write
    const CancelToken* cancel = nullptr;
};

struct ChromeExportSummary
{
    uint64_t events = 0; // trace events written (metadata included)
    uint64_t bytes = 0;
};

Result<ChromeExportSummary> exportChromeTrace(
    SqliteDb& trace, const std::string& outputPath, const ChromeExportOptions& options = {});

} // namespace placescope
