// SPDX-License-Identifier: MIT
// Many small host<->device copies per step: each pays the fixed cost of a transfer (launch + latency), so
// batching them into one buffer saves all but one of those costs. Saving: the small copies' time in the
// steps minus one batched copy per step and direction (the shortest small copy's time as the fixed cost plus
// the bytes at the best bandwidth of the larger copies in that direction, else 10 GB/s).
#include "analysis/findings/rules/rules.h"

#include "profiler/model/cuda_enums.h"

#include <algorithm>

namespace placescope {
namespace {

// 10 GB/s: a conservative PCIe figure used when the trace has no large copy in that direction to measure.
constexpr double kAssumedBytesPerNs = 10.0;

class SmallCopyRule final : public FindingRule
{
public:
    std::string_view id() const override { return "copies.small"; }
    std::string_view description() const override { return "many small copies that should be batched"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        Finding f;
        int64_t savedNs = 0, totalCount = 0;
        for (CopyKind kind : { CopyKind::HtoD, CopyKind::DtoH }) {
            Evidence e { "copies " + std::string(copyKindShortName(kind)) + " of at most "
                + formatBytes(ctx.options.smallCopyBytes) };
            int64_t inStepNs = 0, inStepBytes = 0, inStepCount = 0, minNs = INT64_MAX;
            double bestBw = 0.0; // bytes/ns
            std::vector<EvidenceRange> ex;
            for (const auto& op : ctx.trace.gpuOps) {
                if (op.kind != GpuOp::Kind::Memcpy || op.copyKind != static_cast<int64_t>(kind))
                    continue;
                if (op.durationNs() > 0 && op.bytes > ctx.options.smallCopyBytes)
                    bestBw = std::max(bestBw, static_cast<double>(op.bytes) / static_cast<double>(op.durationNs()));
                if (op.bytes > ctx.options.smallCopyBytes)
                    continue;
                ++e.count;
                e.totalNs += op.durationNs();
                e.totalBytes += op.bytes;
                ex.push_back({ op.startNs, op.endNs, formatBytes(op.bytes) });
                if (ctx.inSteps(op)) {
                    ++inStepCount;
                    inStepNs += op.durationNs();
                    inStepBytes += op.bytes;
                    minNs = std::min(minNs, op.durationNs());
                }
            }
            int64_t steps = std::max<int64_t>(1, ctx.steps.count());
            if (inStepCount < ctx.options.smallCopyMinCount * steps)
                continue;
            if (bestBw <= 0)
                bestBw = kAssumedBytesPerNs;
            int64_t batchedNs = steps * minNs + static_cast<int64_t>(static_cast<double>(inStepBytes) / bestBw);
            savedNs += std::max<int64_t>(0, inStepNs - batchedNs);
            totalCount += e.count;
            addLongestExamples(e, std::move(ex));
            f.evidence.push_back(std::move(e));
        }
        if (f.evidence.empty() || savedNs <= 0)
            return;
        f.ruleId = "copies.small";
        f.title = "Many small copies should be batched";
        ctx.setTimeSaving(f, savedNs,
            "device time of the small copies in the steps minus one batched copy per step and direction "
            "(fixed cost = the shortest small copy, plus the bytes at the best bandwidth measured on larger copies, or "
            "10 GB/s when there are none)");
        f.severity = severityForShare(f.saving.percentOfStep, ctx.options.warnPercent, ctx.options.highPercent);
        f.summary = std::to_string(totalCount) + " copies of at most " + formatBytes(ctx.options.smallCopyBytes)
            + " each; every one pays the fixed cost of a transfer.";
        f.fix = { "stack small tensors into one pinned buffer (torch.cat / a flat tensor) and copy once; keep "
                  "constants on the GPU instead of re-creating them each step (torch.tensor(..., device='cuda'))",
            "batch scalars into one tensor before the step; create constants inside tf.function so they live on "
            "the device",
            "concatenate small inputs into one input, or bind them once with IOBinding and reuse the binding",
            "put small arrays in one pytree or one stacked array and jax.device_put it once; create constants inside "
            "the jitted function so they stay on the device" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makeSmallCopyRule() { return std::make_unique<SmallCopyRule>(); }

} // namespace placescope
