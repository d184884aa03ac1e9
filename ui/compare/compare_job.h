// SPDX-License-Identifier: MIT
// The work behind File > Compare with...: open both runs as the main window opens one (openAnyTrace: Kineto JSON
// and nsys exports are imported first), then compare them with analysis/diff, the library `placescope diff` runs,
// so the window's table holds the CLI's own rows. Also gathers what the view needs beyond the diff: each run's step
// starts (the timelines align on them) and each kernel name's rows (a table row highlights that kernel's
// instances through the trace's own demangledName ids, not by matching names on the timeline). Runs on a worker
// thread; plain data out, no Qt.
#pragma once

#include "analysis/diff/run_diff.h"
#include "ui/window/open_job.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace placescope::ui {

struct CompareSide
{
    std::string input; // as the user named it
    OpenResult opened; // lanes of the timeline; tracePath is what the diff read
    std::vector<int64_t> stepStartNs; // by step position, trace time
    std::vector<int64_t> stepDurationNs; // by step position
    // Kernel demangled name -> rowids in CUPTI_ACTIVITY_KIND_KERNEL (sorted): the rows a diff row stands for.
    std::unordered_map<std::string, std::vector<uint32_t>> kernelRowsByName;
};

struct CompareResult
{
    std::string error; // empty on success; one line naming the side that failed
    std::shared_ptr<const CompareSide> a, b;
    std::shared_ptr<const RunDiff> diff;
};

// Opens `before` and `after` (imports under tempDir where needed) and diffs them with default DiffOptions, as
// `placescope diff before after` does (`simulate`: as with --simulate, findings get the replay's simulated
// savings). Cancel is checked between the steps.
CompareResult compareRuns(const std::string& before, const std::string& after, const std::string& tempDir,
    bool simulate = false, const CancelToken* cancel = nullptr);

} // namespace placescope::ui
