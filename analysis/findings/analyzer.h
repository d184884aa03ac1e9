// SPDX-License-Identifier: MIT
// Analyzer: loads a trace, finds its steps, builds the device timeline, runs every rule and ranks the
// findings by estimated saving; also gathers the figures the reports plot (time breakdown per device,
// utilization over time, memory curve, top kernels, layout-conversion share). One call, no shared state.
#pragma once

#include "analysis/findings/finding_rule.h"
#include "analysis/findings/saving_simulator.h"
#include "analysis/trace/tf_op_placement.h"

#include <string>
#include <vector>

namespace placescope {

struct DeviceBreakdown
{
    std::string label;
    int64_t windowNs = 0, computeNs = 0, commNs = 0, copyOnlyNs = 0, idleNs = 0;
    int64_t idleCauseNs[kIdleCauseCount] = { 0, 0, 0, 0 };
    std::vector<double> utilization; // per bucket, -1 outside the window
    int64_t bucketStartNs = 0, bucketNs = 0;
};

struct TopKernel
{
    std::string name;
    int64_t count = 0;
    int64_t totalNs = 0;
};

struct MemoryPoint
{
    int64_t timeNs = 0;
    int64_t allocated = 0;
    int64_t reserved = 0;
};

struct MemoryCurve
{
    int64_t deviceId = 0;
    int64_t capacityBytes = 0;
    std::vector<MemoryPoint> points; // downsampled, keeps each bucket's maximum
};

// What every report and the app say when no rule's threshold was crossed.
inline constexpr const char* kNoFindingsText = "No findings: nothing in this trace crossed a rule's threshold.";
// What they say in place of the GPU sections when the trace has no kernel, copy or memset (a CPU-only profile).
inline constexpr const char* kNoGpuWorkText
    = "No GPU work in this trace (no kernel, copy or memset: a CPU-only profile): the GPU sections are left out.";

struct AnalysisReport
{
    std::string traceName;
    int64_t originNs = 0; // earliest event: reports print example times relative to it
    std::string sourceFormat;
    std::string gpuName;
    std::string stepSource;
    std::string stepDescription;
    int64_t stepCount = 0;
    double meanStepMs = 0.0; // the one step rule's mean (analysis/trace/step_times.h)
    std::string stepTimeHow; // "set by the GPU (5 of 5 steps ...)": what set the step time
    int64_t kernelCount = 0, kernelNs = 0, memcpyCount = 0, memsetCount = 0;
    bool hasGpuWork() const { return kernelCount + memcpyCount + memsetCount > 0; }
    // Layout-conversion kernels as the layout finding counts them (layoutConversionKind: cuDNN nchwToNhwc /
    // nhwcToNchw, TensorRT reformat, transposes), whole trace: the header's share is the finding's.
    int64_t layoutKernelCount = 0, layoutKernelNs = 0;
    std::optional<OpPlacement> tfOpPlacement; // TensorFlow traces: host vs device ops, whole trace
    std::vector<DeviceBreakdown> devices;
    std::vector<TopKernel> topKernels;
    std::vector<MemoryCurve> memory;
    std::vector<std::string> notes;
    std::vector<Finding> findings;
    std::optional<AllFixesPrediction> allFixes; // with a SavingSimulator: every simulated fix applied together
};

// The framework that wrote the trace, as the fixes and the app name it: "torch" (Kineto), "ort" (an ONNX Runtime
// profile), "tf" (XPlane or TensorBoard with TensorFlow ops), "jax" (XPlane or TensorBoard without them: XLA driven
// from Python, as jax.profiler writes it); empty where the format does not say (nsys, a capture).
std::string traceFramework(const AnalysisReport& report);

// "host 453 of 1,120 ops (40 %), 1.86 ms on the host; device 667 (60 %), 14.8 ms of GPU time": TensorFlow's op
// placement in the one wording of the text and HTML reports.
std::string opPlacementText(const OpPlacement& placement);
// The text report's line, which the app's findings dock shows too: "TensorFlow op placement (xprof's overview:
// share of ops): " + opPlacementText.
std::string opPlacementLine(const OpPlacement& placement);
// What the figure counts, in one sentence: the HTML and Markdown reports print it under the figure, the app as its
// tooltip.
std::string opPlacementMeaning();

// Runs all default rules on an open trace. `estimator` may be null. The top kernels come from profiler/stats'
// kernelSummary (the table `placescope stats` prints).
Result<AnalysisReport> analyzeTrace(
    SqliteDb& db, const AnalysisOptions& options, const PlacementEstimator* estimator = nullptr);
// Same with the trace already loaded from `db` (the caller reads it for more than the findings).
Result<AnalysisReport> analyzeTrace(SqliteDb& db, const TraceData& trace, const AnalysisOptions& options,
    const PlacementEstimator* estimator = nullptr);
// Same on already loaded data (tests).
AnalysisReport analyzeTraceData(
    const TraceData& trace, const AnalysisOptions& options, const PlacementEstimator* estimator = nullptr);

} // namespace placescope
