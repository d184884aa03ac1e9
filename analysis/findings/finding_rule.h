// SPDX-License-Identifier: MIT
// FindingRule: one advisor rule (one file each in analysis/findings/rules/). A rule reads the shared
// RuleContext (loaded trace, detected steps, device timeline, thresholds, optional placement engine) and
// appends zero or more Findings. Rules are stateless: evaluate() is const and may run concurrently.
#pragma once

#include "analysis/findings/finding.h"
#include "analysis/findings/placement_estimator.h"
#include "analysis/trace/copy_round_trips.h"
#include "analysis/trace/device_timeline.h"
#include "analysis/trace/step_detector.h"
#include "analysis/trace/trace_data.h"
#include "profiler/base/units.h" // formatBytes, formatPercent, for the rules

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace placescope {

// Thresholds, with the tool each default comes from (reference/analysis_ui.md).
struct AnalysisOptions
{
    double reportPercent = 1.0; // below this share of the step a time finding is not reported
    double warnPercent = 5.0; // xprof input-bound / TB plugin DataLoader: 5 %
    double highPercent = 20.0; // xprof: >= 20 % highly input-bound
    int64_t syncCopyMinHtoDBytes = 65536; // nsys cuda_memcpy_sync ignores HtoD <= 64 KB
    int64_t smallCopyBytes = 65536; // copies at or below this are latency-dominated
    int64_t smallCopyMinCount = 16; // per step
    int64_t roundTripWindowNs = kRoundTripWindowNs; // DtoH -> HtoD of the same size (analysis/trace/copy_round_trips.h)
    double memoryPeakPercent = 90.0; // TB plugin: peak > 90 % of totalGlobalMem
    double fragmentationRatio = 1.5; // reserved / allocated at peak reserved
    int64_t fragmentationMinBytes = 512LL << 20;
    double commExposedPercent = 10.0; // TB plugin: communication > 10 % of step
    double stragglerPercent = 10.0; // a rank this much slower than the median
    std::string modelPath;
    const class SavingSimulator* simulator = nullptr; // gives findings simulated savings (whatif)
};

struct RuleContext
{
    const TraceData& trace;
    const StepSet& steps;
    const DeviceTimeline& timeline;
    const AnalysisOptions& options;
    const PlacementEstimator* estimator = nullptr;
    // Summed step time used for "% of step": the host's steps, stretched when the GPU runs the steps' work for
    // longer than the host's step ranges last (a GPU-bound run queues ahead). 0: the host's steps.
    int64_t stepTotalNs = 0;

    double perStepMs(int64_t ns) const { return steps.perStepMs(ns); }
    double percent(int64_t ns) const;
    bool inSteps(int64_t ns) const { return steps.contains(ns); }
    // For GPU ops: inside its GPU's analysed window (the steps, extended to GPU work launched in a step that
    // ran after the host had moved on).
    bool inSteps(const GpuOp& op) const;
    // Fills saving.perStepMs / percentOfStep from a total inside the steps.
    void setTimeSaving(Finding& finding, int64_t savedNsInSteps, std::string method, bool upperBound = true) const;
    // Same for a figure summed per GPU lane: divided by the steps of each lane's process (all steps when the
    // steps are not per process), so multi-GPU and multi-rank traces give a per-GPU, per-step figure.
    void setLaneSaving(
        Finding& finding, const std::vector<int64_t>& nsPerLane, std::string method, bool upperBound = true) const;
    std::string deviceName() const; // first GPU's name, or "GPU"
};

class FindingRule
{
public:
    virtual ~FindingRule() = default;
    virtual std::string_view id() const = 0;
    virtual std::string_view description() const = 0;
    virtual void evaluate(const RuleContext& context, std::vector<Finding>& out) const = 0;
};

// Every built-in rule, in a fixed order.
std::vector<std::unique_ptr<FindingRule>> makeDefaultRules();

// Helpers shared by rules (percents, sizes and times: profiler/base/units.h).
// Keeps the `max` longest ranges as evidence examples.
void addLongestExamples(Evidence& evidence, std::vector<EvidenceRange> ranges, size_t max = 5);

} // namespace placescope
