// SPDX-License-Identifier: MIT
// What-if on a measured run: builds the run's ReplayGraph, replays it unedited (which must give back the measured
// run before any prediction is believed), applies the edits to a copy and replays that. Every figure the CLI,
// the reports and the GUI show for a what-if comes from runWhatIf, and its text and JSON from the functions below.
#pragma once

#include "analysis/trace/kernel_class.h"
#include "analysis/trace/step_detector.h"
#include "analysis/trace/trace_data.h"
#include "whatif/critical_path.h"
#include "whatif/replay_accuracy.h"
#include "whatif/run_signature.h"
#include "whatif/step_band.h"
#include "whatif/whatif_edit.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace placescope {

struct RunFigures
{
    int64_t stepNs = 0; // mean step time by the one step rule (analysis/trace/step_times.h)
    StepTimes steps; // each step's time; steps.how() says what set it (the host ranges or the GPU work)
    int64_t spanNs = 0; // first step's start to the end of the last work launched inside the steps or of the last
                        // step (CPU work after its last CUDA call)
};

struct LaneBusy
{
    std::string label;
    int64_t measuredNs = 0, replayNs = 0, predictedNs = 0; // busy time of the span's work on the lane
};

// GPU busy time of the span's work per class of GPU work (kernel_class.h), indexed by GpuWorkClass.
using ClassTimes = std::array<int64_t, kGpuWorkClassCount>;
// All classes together: the span's GPU busy time.
inline int64_t totalNs(const ClassTimes& times)
{
    int64_t total = 0;
    for (int64_t ns : times)
        total += ns;
    return total;
}

struct WhatIfOptions
{
    std::vector<WhatIfEdit> edits;
    int64_t criticalPathStep = -1; // step number whose critical path is reported; -1: the whole span
};

// A prediction checked against the run measured after the change was made (`whatif --compare after.sqlite`).
struct MeasuredComparison
{
    int64_t stepCount = 0;
    RunFigures measured; // of the other run, by the same step and span rules
    double stepError = 0; // (predicted - measured) / measured
    double spanError = 0;
    ClassTimes measuredClassNs {}; // of the other run's span work
    StepBand measuredBand; // how the run after's own steps vary
    BandVerdict verdict = BandVerdict::Unknown; // judgeMeasured
    // The measured step is within the predicted step's band (WhatIfResult::band).
    bool insideBand() const { return verdict == BandVerdict::Inside; }
    std::vector<std::string> notComparable; // ways the two runs differ (comparabilityWarnings); empty: comparable
};

struct WhatIfResult
{
    std::string stepSource;
    int64_t stepCount = 0;
    RunFigures measured, replay, predicted;
    std::vector<EditOutcome> edits;
    std::vector<LaneBusy> lanes;
    ClassTimes measuredClassNs {}, predictedClassNs {}; // the span's work by class of GPU work
    CriticalPath replayPath, predictedPath;
    ReplayQuality quality;
    std::vector<std::string> accuracyNotes; // why the replay differs from the measured run, where it does
    StepBand band; // how much the measured run's steps vary: the band of every predicted step
    RunSignature signature; // the run's GPUs and kernels, to tell whether a run measured after is comparable
    // The prediction itself, for a predicted trace file.
    ReplayGraph predictedGraph;
    ReplaySchedule predictedSchedule;
    // Tasks of predictedGraph from this index on were added by an edit (workers=N's loading, a moved op's kernel):
    // the measured run had no such work.
    size_t measuredTaskCount = 0;
    std::optional<MeasuredComparison> comparison; // set by compareWithMeasured

    double replayStepError() const { return relativeError(replay.stepNs, measured.stepNs); }
    double replaySpanError() const { return relativeError(replay.spanNs, measured.spanNs); }
    static double relativeError(int64_t value, int64_t reference)
    {
        return reference == 0 ? 0.0 : static_cast<double>(value - reference) / static_cast<double>(reference);
    }
    // Per step, as the step error compares them: a class's span time over the run's steps (the whole span where the
    // run has none).
    static int64_t perStep(int64_t ns, int64_t steps) { return steps > 0 ? ns / steps : ns; }
};

// A measured run's graph and its unedited replay, built once and asked for as many predictions as needed
// (analyze simulates each finding's fix on one model). Keeps a reference to the trace, which must outlive it.
class WhatIfModel
{
public:
    // Errors: a graph with a cycle.
    static Result<WhatIfModel> build(const TraceData& trace, const StepSet& steps);
    // The same, with the events read from `db` when `trace` was loaded without them (TraceParts::ForReplay).
    static Result<WhatIfModel> build(SqliteDb& db, const TraceData& trace, const StepSet& steps);
    // Errors: a step number that does not exist. The first keeps the model for more predictions; the second edits
    // the model's own graph instead of a copy (a single prediction, in half the memory).
    Result<WhatIfResult> predict(const WhatIfOptions& options) const&;
    Result<WhatIfResult> predict(const WhatIfOptions& options) &&;

    const RunFigures& measured() const { return m_measured; }
    const RunFigures& replayed() const { return m_replay; }
    const StepBand& band() const { return m_band; }
    RunSignature signature() const { return runSignature(*m_trace, m_graph); }
    ClassTimes measuredClasses() const; // the span's work by class of GPU work, as measured

private:
    WhatIfModel(const TraceData& trace, ReplayGraph graph, ReplaySchedule replay);
    Result<WhatIfResult> measuredPart(const WhatIfOptions& options) const;
    Status predictedPart(const WhatIfOptions& options, ReplayGraph predicted, WhatIfResult& result) const;

    const TraceData* m_trace;
    ReplayGraph m_graph;
    ReplaySchedule m_schedule;
    RunFigures m_measured, m_replay;
    StepBand m_band;
};

// What a what-if on the trace in `db` needs of TraceData, and its steps (detectSteps): every part when an edit reads
// framework ops (input, op:, drop:op:), else TraceParts::ForReplay (the GPU ops are read for the step rules only when
// the trace has no recorded or annotated steps, and let go after).
Result<TraceData> loadForWhatIf(SqliteDb& db, const std::vector<WhatIfEdit>& edits, StepSet* steps);

// Fills result.comparison from the run measured after the change (its steps and span by the same rules).
Status compareWithMeasured(WhatIfResult& result, const TraceData& after, const StepSet& afterSteps);
Status compareWithMeasured(WhatIfResult& result, SqliteDb& after);

// WhatIfModel::build + predict. The trace is only read.
Result<WhatIfResult> runWhatIf(const TraceData& trace, const StepSet& steps, const WhatIfOptions& options);
Result<WhatIfResult> runWhatIf(
    SqliteDb& db, const TraceData& trace, const StepSet& steps, const WhatIfOptions& options);

std::string whatIfText(const WhatIfResult& result, const TraceData& trace);
// "saving 4.20 ms per step (7.6 % of the replayed step)", "slower by ...", "no change in step time": the CLI's and
// the app's wording of the predicted saving.
std::string stepSavingText(const WhatIfResult& result);
// Why a GPU edit moved a host-set step by little or nothing (the answer users doubt most: "AMP saves nothing?"), with
// the GPU time it took per step and what would help instead; empty when a step follows the GPU, the edit took no
// GPU time, or the step shrank by more than a tenth of it.
std::string hostSetStepText(const WhatIfResult& result);
// "cross-stream edges: 3 recorded (...), 1 inferred (...)": which waits between streams the replay read from the
// trace and which it guessed.
std::string crossStreamEdgesText(const ReplayQuality& quality);
// "host waits: 12 bound to the GPU work they wait for (...), 3 DataLoader waits bound to a loader thread's work":
// which blocked time the replay takes as a wait that moves with what it waits for, and which it keeps as work.
std::string hostWaitsText(const ReplayQuality& quality);
// "the unedited replay gives the measured step back within 0.3 %, inside the 5 % accuracy limit ..." or "... 12 %
// off, past the 5 % accuracy limit: ...": the CLI's and the app's words for kReplayAccuracyLimit.
std::string replayAccuracyText(const WhatIfResult& result);
// "predicted 118 ms, steps of this run vary +-6 % (111 ms to 125 ms)".
std::string predictedStepText(const WhatIfResult& result);
std::string whatIfJson(const WhatIfResult& result, const TraceData& trace);
// `placescope critical-path`: the replay's critical path only.
std::string criticalPathText(const WhatIfResult& result, const TraceData& trace);
std::string criticalPathJson(const WhatIfResult& result, const TraceData& trace);

} // namespace placescope
