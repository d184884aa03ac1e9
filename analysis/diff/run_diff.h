// SPDX-License-Identifier: MIT
// RunDiff: two RunProfiles side by side (a: before, b: after). Step time, span, GPU busy and idle by cause, peak
// memory and copies as figures with their deltas; kernels (and one more grouping) by name for the whole trace and
// for the compared steps, sorted by absolute delta, names only in one run marked added or removed; findings
// resolved, new and changed. Steps are paired by position (the first step of each run, the second...), since
// step numbers differ between runs. Pure function; plain data for the renderers (diff_report.h).
#pragma once

#include "analysis/diff/run_profile.h"
#include "analysis/trace/step_band.h"

#include <optional>
#include <string>
#include <vector>

namespace placescope {

// How the two runs' GPUs are paired. By id: GPU 3 with GPU 3. By position: the runs' GPUs in order (by rank, then
// id), the first with the first, so a one-GPU run on GPU 3 compares with a one-GPU run on GPU 1. Auto: by position
// when both runs have as many GPUs and their ids differ, else by id. Whichever pairing differs from by-id is said in
// the diff's notes.
enum class DevicePairing
{
    Auto,
    ById,
    ByPosition
};
bool parseDevicePairing(const std::string& text, DevicePairing& pairing); // "auto", "id" or "position"

struct DiffOptions
{
    std::optional<size_t> step; // compare only this step position (0: the first step of each run)
    bool allSteps = false; // also one table per paired step
    std::optional<DiffGrouping> by; // a grouping besides kernels
    DevicePairing devices = DevicePairing::Auto;
};

enum class Change
{
    Same,
    Changed,
    Added,
    Removed
};
const char* changeName(Change change);

struct DeltaRow
{
    std::string name;
    int64_t countA = 0, countB = 0, nsA = 0, nsB = 0;
    int64_t bytesA = 0, bytesB = 0; // copies only
    int64_t deltaNs() const { return nsB - nsA; }
    Change change() const;
};

struct StepPair
{
    size_t position = 0;
    std::optional<int64_t> numberA, numberB; // recorded step numbers; empty where the run has no such step
    int64_t nsA = 0, nsB = 0;
};

// One compared figure. Figures over the steps are totals over stepsA / stepsB steps (what `analyze --format json`
// prints), read per step (and given a share of the step delta) through perStepA / perStepB; whole-trace figures
// have no steps (stepsA == stepsB == 0).
struct Figure
{
    enum class Unit
    {
        Ns,
        Bytes,
        Count
    };
    std::string section;
    std::string name;
    int64_t a = 0, b = 0;
    Unit unit = Unit::Ns;
    int64_t stepsA = 0, stepsB = 0;

    bool perStep() const { return stepsA > 0 && stepsB > 0; }
    int64_t perStepA() const { return stepsA > 0 ? a / stepsA : a; }
    int64_t perStepB() const { return stepsB > 0 ? b / stepsB : b; }
    int64_t perStepDelta() const { return perStepB() - perStepA(); }
};

struct GroupDiff
{
    DiffGrouping grouping = DiffGrouping::Kernel;
    std::vector<DeltaRow> whole; // every event of each run
    std::vector<DeltaRow> inSteps; // summed over the compared steps
    std::vector<std::vector<DeltaRow>> perStep; // --all-steps: one table per compared step
    GroupTotal outsideA, outsideB; // events in no step
    GroupTotal afterLastA, afterLastB; // of those, after the last step
};

struct FindingDiff
{
    enum class Kind
    {
        Resolved,
        New,
        Changed,
        Unchanged
    };
    Kind kind = Kind::Unchanged;
    std::string ruleId;
    std::string title; // the after-run's title when in both
    // Saving per step as `analyze` ranks it: the replay's simulated saving where the fix maps to an edit, else the
    // rule's estimate (0 where the run lacks the finding); the estimates themselves and which kind each side is.
    double savingMsA = 0, savingMsB = 0;
    double estimatedMsA = 0, estimatedMsB = 0;
    bool simulatedA = false, simulatedB = false;
};
const char* findingKindName(FindingDiff::Kind kind);
// Where each side's saving comes from: "simulated / estimate", "- / simulated" (no such finding in A)...
std::string savingBasis(const FindingDiff& finding);

// One side a whatif prediction, the other a measured run that is not the one it was predicted from: how far the
// prediction was off. Error = predicted - measured, relative to measured (the sign `whatif --compare` uses), for
// the analyzer's mean step, each compared step, the summed kernel time and each class of GPU work.
struct PredictionError
{
    bool predictedIsA = true;
    int64_t predictedNs = 0, measuredNs = 0; // mean step
    struct Step
    {
        size_t position = 0;
        int64_t predictedNs = 0, measuredNs = 0;
    };
    std::vector<Step> steps; // the compared steps
    int64_t kernelPredictedNs = 0, kernelMeasuredNs = 0; // summed kernel time, whole trace
    // Per class of GPU work (analysis/trace/kernel_class.h), in the classification's order, classes neither side
    // has left out: summed over the compared steps (the steps the step error covers), and over the whole trace.
    struct Class
    {
        std::string name;
        int64_t predictedCount = 0, measuredCount = 0;
        int64_t predictedNs = 0, measuredNs = 0; // compared steps
        int64_t wholePredictedNs = 0, wholeMeasuredNs = 0; // whole trace
    };
    std::vector<Class> classes;
    // The prediction's band (analysis/trace/step_band.h) and whether the measured mean step falls inside it.
    StepBand band;
    StepBand measuredBand; // the measured run's own step-to-step variation
    BandVerdict verdict = BandVerdict::Unknown; // judgeMeasured
    bool insideBand() const { return verdict == BandVerdict::Inside; }

    static double relative(int64_t predicted, int64_t measured)
    {
        return measured == 0 ? 0.0 : static_cast<double>(predicted - measured) / static_cast<double>(measured);
    }
};

struct RunDiff
{
    std::string pathA, pathB, gpuA, gpuB, stepSourceA, stepSourceB;
    int64_t stepCountA = 0, stepCountB = 0;
    int64_t meanStepNsA = 0, meanStepNsB = 0; // the analyzer's mean step
    int64_t spanNsA = 0, spanNsB = 0;
    std::vector<StepPair> steps; // every position either run has
    std::vector<size_t> compared; // positions the in-step tables sum over
    int64_t comparedNsA = 0, comparedNsB = 0; // summed step times of the compared steps
    std::vector<Figure> figures;
    std::vector<DeltaRow> copies; // copies and memsets by kind and memory type, whole trace
    GroupDiff kernels;
    GroupDiff classes; // GPU work by class (kernel_class.h): what the error per class is read from
    std::optional<GroupDiff> extra;
    std::vector<FindingDiff> findings;
    std::vector<std::string> notes;
    std::optional<PredictionSource> predictionA, predictionB; // sides that are whatif -o predictions
    std::optional<PredictionError> predictionError;

    int64_t stepDeltaNs() const { return meanStepNsB - meanStepNsA; }
    // delta / step delta (per step figures), or delta / compared steps' delta (in-step rows); NaN when the
    // step time did not move.
    double shareOfStepDelta(int64_t deltaNs) const;
    double shareOfComparedDelta(int64_t deltaNs) const;
};

// Fails when options.step is past the steps of either run.
Result<RunDiff> diffRuns(const RunProfile& a, const RunProfile& b, const DiffOptions& options);

// Rows of two tables matched by name and sorted by absolute time delta, then name (exposed for tests).
std::vector<DeltaRow> diffTables(const GroupTable& a, const GroupTable& b);

} // namespace placescope
