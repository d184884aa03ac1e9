// SPDX-License-Identifier: MIT
#include "analysis/findings/analyzer.h"

#include "analysis/trace/kernel_class.h"
#include "profiler/stats/trace_stats.h"

#include <algorithm>
#include <climits>
#include <map>
#include <unordered_map>

namespace placescope {

namespace {

void summarizeKernels(const TraceData& trace, AnalysisReport& report)
{
    std::unordered_map<int64_t, TopKernel> byName;
    std::unordered_map<int64_t, bool> isLayout;
    for (const auto& op : trace.gpuOps) {
        if (op.kind == GpuOp::Kind::Memcpy)
            ++report.memcpyCount;
        if (op.kind == GpuOp::Kind::Memset)
            ++report.memsetCount;
        if (op.kind != GpuOp::Kind::Kernel)
            continue;
        ++report.kernelCount;
        report.kernelNs += op.durationNs();
        auto& k = byName[op.nameId];
        ++k.count;
        k.totalNs += op.durationNs();
        auto [it, inserted] = isLayout.emplace(op.nameId, false);
        if (inserted)
            it->second = layoutConversionKind(trace.name(op.nameId)) != LayoutConversionKind::None;
        if (it->second) {
            ++report.layoutKernelCount;
            report.layoutKernelNs += op.durationNs();
        }
    }
    for (auto& [id, k] : byName) {
        k.name = trace.name(id);
        report.topKernels.push_back(std::move(k));
    }
    std::sort(report.topKernels.begin(), report.topKernels.end(),
        [](const auto& a, const auto& b) { return a.totalNs > b.totalNs; });
    if (report.topKernels.size() > 10)
        report.topKernels.resize(10);
}

void memoryCurves(const TraceData& trace, AnalysisReport& report)
{
    std::map<int64_t, std::vector<const MemorySample*>> byDevice;
    for (const auto& m : trace.memory)
        byDevice[m.deviceId].push_back(&m);
    constexpr size_t kPoints = 400;
    for (const auto& [deviceId, samples] : byDevice) {
        MemoryCurve curve;
        curve.deviceId = deviceId;
        if (const GpuDevice* d = trace.device(deviceId))
            curve.capacityBytes = d->totalMemoryBytes;
        size_t per = std::max<size_t>(1, (samples.size() + kPoints - 1) / kPoints);
        for (size_t i = 0; i < samples.size(); i += per) {
            MemoryPoint p { samples[i]->startNs, 0, 0 };
            for (size_t j = i; j < std::min(samples.size(), i + per); ++j) {
                p.allocated = std::max(p.allocated, samples[j]->totalAllocated);
                p.reserved = std::max(p.reserved, samples[j]->totalReserved);
            }
            curve.points.push_back(p);
        }
        report.memory.push_back(std::move(curve));
    }
}

} // namespace

std::string opPlacementText(const OpPlacement& p)
{
    return "host " + withThousands(p.hostOps) + " of " + withThousands(p.hostOps + p.deviceOps) + " ops ("
        + formatPercent(p.hostOpPercent()) + "), " + formatNanoseconds(static_cast<double>(p.hostOpNs))
        + " on the host; device " + withThousands(p.deviceOps) + " (" + formatPercent(100.0 - p.hostOpPercent()) + "), "
        + formatNanoseconds(static_cast<double>(p.deviceOpNs)) + " of GPU time";
}

std::string opPlacementLine(const OpPlacement& p)
{
    return "TensorFlow op placement (xprof's overview: share of ops): " + opPlacementText(p);
}

std::string opPlacementMeaning()
{
    return "As xprof's overview counts it: a TF op is on the device when GPU work is linked to it, else on the host; "
           "the percentages are of ops.";
}

std::string traceFramework(const AnalysisReport& report)
{
    if (report.sourceFormat == "kineto_json")
        return "torch";
    if (report.sourceFormat == "onnxruntime_profile")
        return "ort";
    if (report.sourceFormat == "xplane" || report.sourceFormat == "tensorboard_trace_json")
        return report.tfOpPlacement ? "tf" : "jax";
    return {};
}

AnalysisReport analyzeTraceData(
    const TraceData& trace, const AnalysisOptions& options, const PlacementEstimator* estimator)
{
    AnalysisReport report;
    report.sourceFormat = trace.sourceFormat;
    report.tfOpPlacement = tensorFlowOpPlacement(trace);
    // The trace's first event of any kind the app's timeline draws (GPU ops, API calls, framework and NVTX ranges,
    // GPU annotations, memory samples), so an example's "at T" here is the app's "T after the trace's first event".
    int64_t first = INT64_MAX;
    auto earliest = [&first](const auto& sorted) {
        if (!sorted.empty())
            first = std::min(first, sorted.front().startNs);
    };
    earliest(trace.gpuOps);
    earliest(trace.apiCalls);
    earliest(trace.hostRanges);
    earliest(trace.gpuAnnotations);
    earliest(trace.memory);
    report.originNs = first == INT64_MAX ? 0 : first;
    report.gpuName = trace.devices.empty() ? std::string() : trace.devices.front().name;
    StepSet steps = detectSteps(trace);
    DeviceTimeline timeline = DeviceTimeline::build(trace, steps);
    report.stepSource = std::string(stepSourceName(steps.source));
    report.stepDescription = steps.description;
    report.stepCount = steps.count();
    // The one step rule (analysis/trace/step_times.h): a step lasts until the later of its host range and the GPU
    // work launched in it, so a GPU-bound run has the GPU's step time, as whatif and critical-path print it.
    int64_t stepTotalNs = steps.times.totalNs();
    report.meanStepMs = steps.count() ? static_cast<double>(steps.times.meanNs()) / 1e6 : 0.0;
    report.stepTimeHow = steps.times.how();

    for (const auto& lane : timeline.lanes) {
        DeviceBreakdown d;
        d.label = lane.label;
        d.windowNs = totalLength(lane.window);
        d.computeNs = totalLength(lane.computeBusy);
        d.commNs = totalLength(subtractIntervals(lane.commBusy, lane.computeBusy));
        d.copyOnlyNs = totalLength(lane.busy) - totalLength(mergeIntervals([&] {
            std::vector<Interval> k(lane.computeBusy.begin(), lane.computeBusy.end());
            k.insert(k.end(), lane.commBusy.begin(), lane.commBusy.end());
            return k;
        }()));
        d.idleNs = d.windowNs - totalLength(lane.busy);
        for (int c = 0; c < kIdleCauseCount; ++c)
            d.idleCauseNs[c] = lane.causeNs[c];
        d.utilization = lane.utilization;
        d.bucketStartNs = lane.bucketStartNs;
        d.bucketNs = lane.bucketNs;
        report.devices.push_back(std::move(d));
    }
    summarizeKernels(trace, report);
    memoryCurves(trace, report);
    if (steps.source == StepSet::Source::WholeTrace)
        report.notes.push_back("no steps found (no ProfilerStep / NVTX step ranges, no repeating kernel pattern): "
                               "figures cover the whole trace, warm-up included; profile several iterations for "
                               "steady-state figures");
    if (trace.devices.empty())
        report.notes.push_back("the trace has no device properties (TARGET_INFO_GPU): the Tensor Core and memory "
                               "capacity checks were skipped");
    if (!options.modelPath.empty() && !estimator)
        report.notes.push_back("--model was given but no placement engine is built in: layout and CPU-fallback "
                               "savings are estimated from the trace alone");

    RuleContext ctx { trace, steps, timeline, options, estimator, stepTotalNs };
    for (const auto& rule : makeDefaultRules())
        rule->evaluate(ctx, report.findings);
    if (options.simulator)
        report.allFixes = options.simulator->simulate(trace, steps, report.findings);
    rankFindings(report.findings);
    return report;
}

Result<AnalysisReport> analyzeTrace(SqliteDb& db, const AnalysisOptions& options, const PlacementEstimator* estimator)
{
    PLACESCOPE_ASSIGN_OR_RETURN(TraceData trace, TraceData::load(db));
    return analyzeTrace(db, trace, options, estimator);
}

Result<AnalysisReport> analyzeTrace(
    SqliteDb& db, const TraceData& trace, const AnalysisOptions& options, const PlacementEstimator* estimator)
{
    AnalysisReport report = analyzeTraceData(trace, options, estimator);
    // The top-kernel table is the same one `placescope stats` prints (profiler/stats), so both agree.
    PLACESCOPE_ASSIGN_OR_RETURN(KernelSummary summary, kernelSummary(db, 10));
    report.topKernels.clear();
    for (const auto& row : summary.rows)
        report.topKernels.push_back({ row.name, row.time.count, row.time.totalNs });
    return report;
}

} // namespace placescope
