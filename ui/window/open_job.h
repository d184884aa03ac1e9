// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/findings/analyzer.h"
#include "profiler/base/progress.h"
#include "profiler/stats/trace_stats.h"
#include "ui/core/op_summary.h"
#include "ui/core/trace_data.h"

#include <memory>
#include <optional>
#include <string>

namespace placescope::ui {

// What a background open produces: the lanes, and the stats and findings when they could be computed.
struct OpenResult
{
    std::string error; // empty on success
    std::string inputPath; // the file the user opened (the title names it, never the temp copy)
    std::string tracePath; // the Placescope trace actually read (a temp file for imported inputs)
    std::string traceGpuName; // the GPU its TARGET_INFO_GPU row names (placement can cost "from-trace"); empty if none
    std::shared_ptr<const LoadedTrace> trace;
    std::optional<TraceStats> stats;
    std::optional<AnalysisReport> findings;
    std::vector<OpSummaryRow> opSummary; // empty when the trace has no framework ops
    std::shared_ptr<const TraceData> reportData; // what the findings read, kept for the Reports panel; null if unread
    double loadSeconds = 0;
};

// Opens a Placescope trace or imports a Kineto JSON / nsys SQLite input into a temp trace under tempDir,
// then loads it. Runs on a worker thread (own SQLite connections); progress is (done, total) per mille.
OpenResult openAnyTrace(
    const std::string& input, const std::string& tempDir, const ProgressFn& progress, const CancelToken* cancel);

} // namespace placescope::ui
