// SPDX-License-Identifier: MIT
#include "analysis/findings/finding_rule.h"

#include "analysis/findings/rules/rules.h"

#include <algorithm>
#include <tuple>

namespace placescope {

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::High:
        return "high";
    }
    return "?";
}

std::vector<FrameworkFix> frameworkFixes(const Fix& fix)
{
    return { { "torch", "PyTorch", "pytorch", &fix.pytorch }, { "tf", "TensorFlow", "tensorflow", &fix.tensorflow },
        { "ort", "ONNX Runtime", "onnxruntime", &fix.onnxRuntime }, { "jax", "JAX", "jax", &fix.jax } };
}

void rankFindings(std::vector<Finding>& findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        return std::make_tuple(-a.saving.rankingMs(), -static_cast<int>(a.severity), -a.saving.memoryBytes, a.ruleId)
            < std::make_tuple(-b.saving.rankingMs(), -static_cast<int>(b.severity), -b.saving.memoryBytes, b.ruleId);
    });
}

Severity severityForShare(double percent, double warnPercent, double highPercent)
{
    if (percent >= highPercent)
        return Severity::High;
    if (percent >= warnPercent)
        return Severity::Warning;
    return Severity::Info;
}

double RuleContext::percent(int64_t ns) const
{
    int64_t total = stepTotalNs > 0 ? stepTotalNs : steps.totalNs();
    return total > 0 ? 100.0 * static_cast<double>(ns) / static_cast<double>(total) : 0.0;
}

bool RuleContext::inSteps(const GpuOp& op) const
{
    for (const auto& lane : timeline.lanes)
        if (lane.globalPid == op.globalPid && lane.deviceId == op.deviceId)
            return containsPoint(lane.window, op.startNs);
    return steps.contains(op.startNs);
}

void RuleContext::setTimeSaving(Finding& finding, int64_t savedNsInSteps, std::string method, bool upperBound) const
{
    finding.saving.perStepMs = perStepMs(std::max<int64_t>(0, savedNsInSteps));
    finding.saving.percentOfStep = percent(std::max<int64_t>(0, savedNsInSteps));
    finding.saving.method = std::move(method);
    finding.saving.upperBound = upperBound;
}

void RuleContext::setLaneSaving(
    Finding& finding, const std::vector<int64_t>& nsPerLane, std::string method, bool upperBound) const
{
    int64_t savedNs = 0, stepCount = 0, stepNs = 0;
    for (size_t i = 0; i < nsPerLane.size() && i < timeline.lanes.size(); ++i) {
        int64_t count = 0, duration = 0;
        for (const auto& s : steps.steps)
            if (s.globalPid == timeline.lanes[i].globalPid) {
                ++count;
                duration += s.endNs - s.startNs;
            }
        if (count == 0) {
            count = steps.count();
            duration = steps.totalNs();
        }
        savedNs += std::max<int64_t>(0, nsPerLane[i]);
        stepCount += count;
        stepNs += std::max(duration, totalLength(timeline.lanes[i].window));
    }
    finding.saving.perStepMs
        = stepCount > 0 ? static_cast<double>(savedNs) / 1e6 / static_cast<double>(stepCount) : 0.0;
    finding.saving.percentOfStep
        = stepNs > 0 ? 100.0 * static_cast<double>(savedNs) / static_cast<double>(stepNs) : 0.0;
    finding.saving.method = std::move(method);
    finding.saving.upperBound = upperBound;
}

std::string RuleContext::deviceName() const
{
    return trace.devices.empty() || trace.devices.front().name.empty() ? "GPU" : trace.devices.front().name;
}

std::vector<std::unique_ptr<FindingRule>> makeDefaultRules()
{
    std::vector<std::unique_ptr<FindingRule>> rules;
    rules.push_back(makeGpuIdleRule());
    rules.push_back(makePageableCopyRule());
    rules.push_back(makeSyncCopyRule());
    rules.push_back(makeSmallCopyRule());
    rules.push_back(makeHostRoundTripRule());
    rules.push_back(makeCpuFallbackRule());
    rules.push_back(makeLayoutConversionRule());
    rules.push_back(makeTensorCoreRule());
    rules.push_back(makeLaunchBoundRule());
    rules.push_back(makeMemoryPeakRule());
    rules.push_back(makeAllocationChurnRule());
    rules.push_back(makeFragmentationRule());
    rules.push_back(makeStragglerRule());
    rules.push_back(makeCommOverlapRule());
    return rules;
}

void addLongestExamples(Evidence& evidence, std::vector<EvidenceRange> ranges, size_t max)
{
    size_t keep = std::min(max, ranges.size());
    std::partial_sort(ranges.begin(), ranges.begin() + keep, ranges.end(),
        [](const auto& a, const auto& b) { return a.endNs - a.startNs > b.endNs - b.startNs; });
    ranges.resize(keep);
    evidence.examples = std::move(ranges);
}

} // namespace placescope
