// SPDX-License-Identifier: MIT
// Fragmentation: the framework allocator holds far more memory from the device than it hands out (PyTorch
// [memory] events: Total Reserved vs Total Allocated). Reported when the peak reserved is >= 1.5x the peak
// allocated and the difference is >= 512 MiB. Saving: the bytes held but unused at the peak.
#include "analysis/findings/rules/rules.h"

#include <cstdio>
#include <map>

namespace placescope {
namespace {

class FragmentationRule final : public FindingRule
{
public:
    std::string_view id() const override { return "memory.fragmentation"; }
    std::string_view description() const override { return "reserved memory far above allocated"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        struct Peak
        {
            int64_t reserved = 0, allocated = 0, reservedAt = 0;
        };
        std::map<int64_t, Peak> peaks;
        for (const auto& m : ctx.trace.memory) {
            Peak& p = peaks[m.deviceId];
            if (m.totalReserved > p.reserved) {
                p.reserved = m.totalReserved;
                p.reservedAt = m.startNs;
            }
            if (m.totalAllocated > p.allocated)
                p.allocated = m.totalAllocated;
        }
        for (const auto& [deviceId, p] : peaks) {
            if (p.allocated <= 0 || p.reserved < ctx.options.fragmentationRatio * static_cast<double>(p.allocated)
                || p.reserved - p.allocated < ctx.options.fragmentationMinBytes)
                continue;
            Finding f;
            f.ruleId = "memory.fragmentation";
            f.title = "Reserved memory is far above allocated on GPU " + std::to_string(deviceId);
            f.severity = Severity::Warning;
            char ratio[32];
            std::snprintf(
                ratio, sizeof ratio, "%.1fx", static_cast<double>(p.reserved) / static_cast<double>(p.allocated));
            f.summary = "The allocator reserved up to " + formatBytes(p.reserved)
                + " while tensors never used more than " + formatBytes(p.allocated) + " (" + ratio
                + "): memory is held in cached blocks that do not fit later "
                  "requests.";
            f.evidence.push_back(
                { "peak reserved", 1, 0, p.reserved, { { p.reservedAt, p.reservedAt, "peak reserved" } } });
            f.evidence.push_back({ "peak allocated", 1, 0, p.allocated });
            f.saving.memoryBytes = p.reserved - p.allocated;
            f.saving.upperBound = true;
            f.saving.method = "device memory reserved but not allocated at the peak (peak reserved minus peak "
                              "allocated); no time saving";
            f.fix = { "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (or max_split_size_mb:128); allocate the "
                      "largest buffers first; avoid variable shapes",
                "keep the default BFC allocator with allow_growth off; static shapes in tf.function",
                "arena_extend_strategy=kSameAsRequested and a gpu_mem_limit in the CUDA EP options",
                "keep XLA's default BFC allocator with its preallocation (XLA_PYTHON_CLIENT_ALLOCATOR=platform frees "
                "early but fragments); static shapes under jax.jit" };
            out.push_back(std::move(f));
        }
    }
};

} // namespace

std::unique_ptr<FindingRule> makeFragmentationRule() { return std::make_unique<FragmentationRule>(); }

} // namespace placescope
