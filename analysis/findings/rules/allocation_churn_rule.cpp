// SPDX-License-Identifier: MIT
// Allocation churn: cudaMalloc / cudaFree (and driver equivalents) inside steps after the first one (the first
// step warms the caching allocator up); not judged on traces without steps. cudaFree synchronizes the device, and both
// are slow host calls. Saving: the host time in those calls per step, an upper bound (the implicit syncs may cost
// more).
#include "analysis/findings/rules/rules.h"

#include <algorithm>
#include <unordered_map>

namespace placescope {
namespace {

bool isAllocApi(const std::string& fullName)
{
    const std::string name = apiBaseName(fullName);
    static const char* kNames[] = { "cudaMalloc", "cudaFree", "cuMemAlloc", "cuMemAlloc_v2", "cuMemFree",
        "cuMemFree_v2", "cudaMallocManaged", "cudaMallocAsync", "cudaFreeAsync", "cudaMallocHost", "cudaFreeHost",
        "cudaHostAlloc", "cuMemCreate", "cuMemRelease" };
    for (const char* n : kNames)
        if (name == n)
            return true;
    return false;
}

class AllocationChurnRule final : public FindingRule
{
public:
    std::string_view id() const override { return "memory.churn"; }
    std::string_view description() const override { return "device allocations and frees inside steps"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        // Without iterations there is no steady state to speak of: a single pass is all warm-up (context
        // creation, the caching allocator growing), so churn is not judged.
        if (ctx.steps.source == StepSet::Source::WholeTrace)
            return;
        // Steady state: every step after the first when there are several.
        IntervalList steady = ctx.steps.window;
        if (ctx.steps.count() >= 2) {
            std::vector<Interval> rest;
            for (size_t i = 1; i < ctx.steps.steps.size(); ++i)
                rest.push_back({ ctx.steps.steps[i].startNs, ctx.steps.steps[i].endNs });
            steady = mergeIntervals(std::move(rest));
        }
        std::unordered_map<int64_t, bool> alloc;
        Evidence calls { "cudaMalloc/cudaFree-family calls in steady-state steps" };
        std::vector<EvidenceRange> ex;
        for (const auto& call : ctx.trace.apiCalls) {
            auto [it, inserted] = alloc.emplace(call.nameId, false);
            if (inserted)
                it->second = isAllocApi(ctx.trace.name(call.nameId));
            if (!it->second || !containsPoint(steady, call.startNs))
                continue;
            ++calls.count;
            calls.totalNs += call.endNs - call.startNs;
            ex.push_back({ call.startNs, call.endNs, ctx.trace.name(call.nameId) });
        }
        Evidence segs { "device memory segment allocations/frees in steady-state steps" };
        for (const auto& s : ctx.trace.segments)
            if (containsPoint(steady, s.startNs)) {
                ++segs.count;
                segs.totalBytes += s.bytes;
            }
        if (calls.count + segs.count == 0)
            return;
        Finding f;
        f.ruleId = "memory.churn";
        f.title = "Device memory is allocated and freed inside steps";
        addLongestExamples(calls, std::move(ex));
        if (calls.count)
            f.evidence.push_back(calls);
        if (segs.count)
            f.evidence.push_back(segs);
        int64_t steadySteps = std::max<int64_t>(1, ctx.steps.count() - 1);
        f.saving.perStepMs = static_cast<double>(calls.totalNs) / 1e6 / static_cast<double>(steadySteps);
        int64_t steadyNs = totalLength(steady);
        f.saving.percentOfStep
            = steadyNs > 0 ? 100.0 * static_cast<double>(calls.totalNs) / static_cast<double>(steadyNs) : 0.0;
        f.saving.method = "host time in allocation calls per steady-state step (steps after the first); cudaFree also "
                          "synchronizes the device, which this does not count";
        f.severity = f.saving.percentOfStep >= ctx.options.warnPercent ? Severity::High : Severity::Warning;
        f.summary = std::to_string(calls.count + segs.count)
            + " device allocations/frees happened after warm-up; a caching allocator should reuse memory instead.";
        f.fix = { "avoid torch.cuda.empty_cache() in the loop; keep shapes static (pad variable lengths to buckets); "
                  "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; CUDA Graphs keep a private pool",
            "keep the BFC allocator (do not set TF_GPU_ALLOCATOR=cuda_malloc); static shapes in tf.function to "
            "avoid retracing",
            "keep the CUDA EP arena enabled (enable_mem_arena) with arena_extend_strategy=kSameAsRequested; "
            "bind outputs to preallocated buffers with IOBinding",
            "keep shapes static under jax.jit (pad variable lengths to buckets) so it neither recompiles nor "
            "reallocates; donate_argnums lets outputs reuse input buffers" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makeAllocationChurnRule() { return std::make_unique<AllocationChurnRule>(); }

} // namespace placescope
