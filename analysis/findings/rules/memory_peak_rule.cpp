// SPDX-License-Identifier: MIT
// Peak device memory near capacity (PyTorch TB plugin: > 90 % of totalGlobalMem): the run is one larger batch
// or one fragmentation spike away from out-of-memory. Peak from the framework allocator's reserved memory
// (PS_MEMORY_EVENTS) or, without it, from the cudaMalloc/cudaFree segment events. No time saving; the
// finding reports the headroom in bytes.
#include "analysis/findings/rules/rules.h"

#include <algorithm>
#include <map>

namespace placescope {
namespace {

class MemoryPeakRule final : public FindingRule
{
public:
    std::string_view id() const override { return "memory.peak"; }
    std::string_view description() const override { return "peak device memory near capacity"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        std::map<int64_t, std::pair<int64_t, int64_t>> peak; // device -> bytes, time
        for (const auto& m : ctx.trace.memory) {
            int64_t v = std::max(m.totalReserved, m.totalAllocated);
            auto& p = peak[m.deviceId];
            if (v > p.first)
                p = { v, m.startNs };
        }
        if (peak.empty()) {
            std::map<int64_t, int64_t> live;
            for (const auto& s : ctx.trace.segments) {
                int64_t& l = live[s.deviceId];
                l += s.isFree ? -s.bytes : s.bytes;
                auto& p = peak[s.deviceId];
                if (l > p.first)
                    p = { l, s.startNs };
            }
        }
        for (const auto& [deviceId, p] : peak) {
            const GpuDevice* dev = ctx.trace.device(deviceId);
            if (!dev || dev->totalMemoryBytes <= 0)
                continue;
            double percent = 100.0 * static_cast<double>(p.first) / static_cast<double>(dev->totalMemoryBytes);
            if (percent < ctx.options.memoryPeakPercent)
                continue;
            Finding f;
            f.ruleId = "memory.peak";
            f.title
                = "Peak memory is " + formatPercent(percent) + " of GPU " + std::to_string(deviceId) + "'s capacity";
            f.severity = percent >= 97.0 ? Severity::High : Severity::Warning;
            f.summary = "Peak " + formatBytes(p.first) + " of " + formatBytes(dev->totalMemoryBytes) + " on "
                + dev->name + ": little headroom for larger batches or fragmentation (out-of-memory risk).";
            f.evidence.push_back(
                { "peak reserved/allocated memory", 1, 0, p.first, { { p.second, p.second, "peak" } } });
            f.saving.memoryBytes = 0;
            f.saving.method = "no time saving: this is a risk, not lost time; headroom left is "
                + formatBytes(dev->totalMemoryBytes - p.first);
            f.saving.upperBound = false;
            f.fix = { "activation checkpointing (torch.utils.checkpoint), AMP (halves activations), smaller batch with "
                      "gradient accumulation; PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation",
                "mixed precision policy, tf.recompute_grad for checkpointing, smaller batch; "
                "tf.config.experimental.set_memory_growth only hides the peak",
                "gpu_mem_limit and arena_extend_strategy=kSameAsRequested in the CUDA EP options; fp16 model",
                "jax.checkpoint (remat) around blocks, bfloat16 activations, donate_argnums in jax.jit so updated "
                "parameters reuse their buffers; a smaller batch with gradient accumulation (optax.MultiSteps)" };
            out.push_back(std::move(f));
        }
    }
};

} // namespace

std::unique_ptr<FindingRule> makeMemoryPeakRule() { return std::make_unique<MemoryPeakRule>(); }

} // namespace placescope
