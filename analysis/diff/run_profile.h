// SPDX-License-Identifier: MIT
// RunProfile: everything the diff compares, measured on one run with the functions the other commands use, so a
// side of the diff reads exactly as `placescope stats` and `placescope analyze` print that run:
//   - profiler/stats' computeTraceStats (span, kernels by name, copies by kind and memory type, GPU busy time);
//   - the findings' analyzeTraceData (steps, mean step, busy and idle by cause per device, memory curves, findings);
//   - event groups per step (event_groups.h) over the same steps (detectSteps): kernels by name, GPU work by class.
// The findings carry the analyzer's estimated savings and, with a simulator, the replay's simulated ones (what
// `analyze` reports). Pure function of the file; each call opens its own connection, so the two sides of a diff can
// be profiled on two threads.
#pragma once

#include "analysis/diff/event_groups.h"
#include "analysis/findings/analyzer.h"
#include "profiler/stats/trace_stats.h"

#include <optional>
#include <string>
#include <vector>

namespace placescope {

struct ProfileOptions
{
    bool shortNames = false; // kernels grouped by shortName (template arguments, versions dropped)
    std::optional<DiffGrouping> extra; // a grouping beyond kernels (--by op|annotation|stream)
    // Gives findings the what-if replay's simulated savings, as `placescope analyze` does (the CLI and the GUI pass
    // whatif's ReplaySavingSimulator); null: the rules' estimates only.
    const SavingSimulator* simulator = nullptr;
};

// What `whatif -o` recorded in a predicted trace's PS_META (prediction, predicted_from, predicted_edits); a measured
// run has none.
struct PredictionSource
{
    std::string from; // the measured run's file name
    std::string edits; // the edits as whatif understood them
    double stepSpread = -1.0; // the band of the predicted step (StepBand::spread); < 0: unknown
};

struct RunProfile
{
    std::string path;
    TraceStats stats; // every kernel name (topKernels = 0)
    AnalysisReport analysis;
    std::vector<int64_t> stepNumbers; // by position
    std::vector<int64_t> stepDurationNs; // by position
    std::vector<int64_t> stepStartNs; // by position, trace time
    EventGroups kernels; // per step; the whole-trace kernel table is stats.kernels
    EventGroups classes; // every GPU op by class of work (kernel_class.h), for the prediction error per class
    std::optional<EventGroups> extra;
    std::optional<PredictionSource> prediction; // set for a whatif -o prediction

    std::string gpuName() const;
    int64_t meanStepNs() const; // the analyzer's mean step (what `analyze` prints)
};

Result<RunProfile> profileRun(const std::string& path, const ProfileOptions& options);

} // namespace placescope
