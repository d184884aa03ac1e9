// SPDX-License-Identifier: MIT
// Launch-bound: many kernels shorter than their own launch call (HTA's short-kernel test) while the GPU idles
// waiting for the host (host-bound idle from the device timeline, xprof's kernel-launch threshold 3 %).
// Saving: the smaller of the host-bound idle per step and the launch time of the short kernels beyond ~1 us
// each (what a CUDA Graph replay or fusion costs per kernel).
#include "analysis/findings/rules/rules.h"

#include "profiler/model/global_ids.h"

#include <algorithm>
#include <unordered_map>

namespace placescope {
namespace {

constexpr int64_t kGraphReplayNsPerKernel = 1000;

class LaunchBoundRule final : public FindingRule
{
public:
    std::string_view id() const override { return "launch_bound"; }
    std::string_view description() const override { return "kernels shorter than their launch"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        std::unordered_map<uint64_t, const ApiCall*> launchOf;
        for (const auto& call : ctx.trace.apiCalls)
            if (call.correlationId >= 0)
                launchOf.emplace(
                    TraceData::correlationKey(globalPidOfGlobalTid(call.globalTid), call.correlationId), &call);
        Evidence shortKernels { "kernels shorter than their launch call" };
        int64_t inStepKernels = 0, inStepShort = 0, launchExcessNs = 0;
        std::vector<EvidenceRange> ex;
        for (const auto& op : ctx.trace.gpuOps) {
            if (op.kind != GpuOp::Kind::Kernel)
                continue;
            bool inStep = ctx.inSteps(op);
            inStepKernels += inStep;
            auto it = launchOf.find(TraceData::correlationKey(op.globalPid, op.correlationId));
            if (it == launchOf.end())
                continue;
            int64_t launchNs = it->second->endNs - it->second->startNs;
            if (op.durationNs() >= launchNs)
                continue;
            ++shortKernels.count;
            shortKernels.totalNs += op.durationNs();
            if (ex.size() < 2000)
                ex.push_back({ it->second->startNs, op.endNs, ctx.trace.name(op.nameId).substr(0, 60) });
            if (inStep) {
                ++inStepShort;
                launchExcessNs += std::max<int64_t>(0, launchNs - kGraphReplayNsPerKernel);
            }
        }
        int64_t hostBoundNs = 0, windowNs = 0;
        std::vector<int64_t> perLane;
        for (const auto& lane : ctx.timeline.lanes) {
            hostBoundNs += lane.causeNs[static_cast<int>(IdleCause::HostBound)];
            windowNs += totalLength(lane.window);
            perLane.push_back(lane.causeNs[static_cast<int>(IdleCause::HostBound)]);
        }
        double hostBoundPercent
            = windowNs > 0 ? 100.0 * static_cast<double>(hostBoundNs) / static_cast<double>(windowNs) : 0.0;
        if (inStepKernels == 0 || inStepShort * 2 < inStepKernels || hostBoundPercent < 3.0)
            return;
        Finding f;
        f.ruleId = "launch_bound";
        f.title = "Launch-bound: kernels are shorter than their launches";
        addLongestExamples(shortKernels, std::move(ex));
        f.evidence.push_back(std::move(shortKernels));
        f.evidence.push_back({ "host-bound GPU idle time in the steps", 0, hostBoundNs });
        // Scale the per-lane host-bound idle down to the launch excess when that is smaller.
        if (launchExcessNs < hostBoundNs)
            for (auto& v : perLane)
                v = static_cast<int64_t>(
                    static_cast<double>(v) * static_cast<double>(launchExcessNs) / static_cast<double>(hostBoundNs));
        ctx.setLaneSaving(f, perLane,
            "the smaller of the host-bound GPU idle time and the short kernels' launch time beyond "
            "1 us per kernel (the cost of a CUDA Graph replay), per step");
        f.severity = severityForShare(hostBoundPercent, 3.0, 15.0);
        f.summary = std::to_string(inStepShort) + " of " + std::to_string(inStepKernels)
            + " kernels in the steps ran shorter than their launch call, and the GPU waited for launches "
            + formatPercent(hostBoundPercent) + " of the time.";
        f.fix = { "torch.compile(model, mode='reduce-overhead') (fusion + CUDA Graphs), or capture the step with "
                  "torch.cuda.CUDAGraph; fused optimizers (Adam(fused=True)); larger batches",
            "tf.function(jit_compile=True) so XLA fuses small ops into few kernels; larger batches",
            "session option enable_cuda_graph=1 for the CUDA EP (static shapes, IOBinding); graph optimizations "
            "at ORT_ENABLE_ALL to fuse small ops",
            "jax.jit the whole training step, not its pieces, and lax.scan over repeated layers or steps so one "
            "executable runs many kernels; larger batches" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makeLaunchBoundRule() { return std::make_unique<LaunchBoundRule>(); }

} // namespace placescope
