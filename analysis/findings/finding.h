// SPDX-License-Identifier: MIT
// Finding: one thing wrong in a run, as the analyzer reports it. A rule (finding_rule.h) fills these; the
// report writers (analysis/render/) print them. Plain data, copyable, no thread-safety concerns.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace placescope {

enum class Severity
{
    Info = 0,
    Warning = 1,
    High = 2
};
std::string_view severityName(Severity severity);

// A group of events that shows the problem: what they are, how many, how long in total, and a few example
// time ranges (the largest) so a person can find them on the timeline.
struct EvidenceRange // startNs < 0: a label without a time (e.g. an op name with its count)
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    std::string label;
};

struct Evidence
{
    Evidence() = default;
    Evidence(std::string what_, int64_t count_ = 0, int64_t totalNs_ = 0, int64_t totalBytes_ = 0,
        std::vector<EvidenceRange> examples_ = {})
        : what(std::move(what_))
        , count(count_)
        , totalNs(totalNs_)
        , totalBytes(totalBytes_)
        , examples(std::move(examples_))
    { }

    std::string what; // "pageable HtoD copies", "GPU idle gaps while the host waited in a sync"
    int64_t count = 0;
    int64_t totalNs = 0; // summed duration of the events (0 when not a duration)
    int64_t totalBytes = 0; // summed bytes (copies, memory), 0 when not relevant
    std::vector<EvidenceRange> examples;
};

// The estimated saving per step, and how it was estimated (always filled: a saving is a claim).
struct Saving
{
    double perStepMs = 0.0;
    double percentOfStep = 0.0;
    int64_t memoryBytes = 0; // memory findings save bytes, not time
    bool upperBound = true;
    std::string method; // one or two sentences: which events, which assumption
    // From the what-if replay (whatif), when the fix maps to an edit: the replayed step minus the step
    // predicted with `simulatedEdit` applied. Findings are ranked by it where it exists.
    bool simulated = false;
    double simulatedMs = 0.0;
    std::string simulatedEdit;
    // The edit that applies this finding's fix, when the rule knows what it targets (op:NAME=gpu for the op of a
    // CPU fallback); empty: the simulator's edit for the rule, if it has one.
    std::string proposedEdit;
    // The band of the simulation: how much the run's steady-state steps vary (coefficient of variation, see
    // whatif/step_band.h); < 0 where unknown (fewer than two steady steps).
    double simulatedStepSpread = -1.0;
    // Why the simulation found less than the GPU time the edit takes off, when the replay knows (a host-set step).
    std::string simulatedWhy;
    // The simulation is past the rule's own upper bound: one of the two counts something the other does not.
    bool simulatedAboveBound() const
    {
        return simulated && upperBound && perStepMs > 0 && simulatedMs > perStepMs * 1.001 + 1e-6;
    }
    // Ranked by the simulated saving, except where it passes the rule's bound: then by the bound, so that no
    // finding goes first on a figure its own estimate contradicts.
    double rankingMs() const { return !simulated ? perStepMs : simulatedAboveBound() ? perStepMs : simulatedMs; }
};

struct Fix
{
    std::string pytorch;
    std::string tensorflow;
    std::string onnxRuntime;
    std::string jax;
};

// One framework's fix as every report and the app name it.
struct FrameworkFix
{
    std::string_view id; // "torch", "tf", "ort", "jax": as traceFramework and the placement panel name frameworks
    std::string_view label; // "PyTorch", "TensorFlow", "ONNX Runtime", "JAX"
    std::string_view jsonKey; // "pytorch", "tensorflow", "onnxruntime", "jax"
    const std::string* text;
};

// The fixes in the one order the text, Markdown, HTML and JSON reports print them (the app puts the trace's own
// framework first); a framework added here reaches them all.
std::vector<FrameworkFix> frameworkFixes(const Fix& fix);

struct Finding
{
    std::string ruleId; // "gpu_idle.input_bound", "copies.pageable"...
    std::string title;
    Severity severity = Severity::Info;
    std::string summary; // one paragraph with the key figures
    std::vector<Evidence> evidence;
    Saving saving;
    Fix fix;
};

// Ranks findings: largest per-step saving first (simulated where simulated, else the estimate), then severity, then
// memory saved, then rule id (stable).
void rankFindings(std::vector<Finding>& findings);

// Severity from a share of the step: >= highPercent -> High, >= warnPercent -> Warning, else Info.
Severity severityForShare(double percent, double warnPercent, double highPercent);

} // namespace placescope
