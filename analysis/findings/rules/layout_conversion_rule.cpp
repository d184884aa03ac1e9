// SPDX-License-Identifier: MIT
// Layout conversions: cuDNN's nchwToNhwc / nhwcToNchw kernels (it converts when given NCHW but picking an
// NHWC Tensor Core engine), TensorRT Reformat kernels, and transpose kernels. The "layout tax" is their share
// of kernel time. Saving: the conversion kernels' time per step (channels_last end to end removes the cuDNN
// ones; a few stay at the model's input/output; the NHWC kernels may be faster too, so this is no upper bound), or
// the placement engine's layout pass when given.
#include "analysis/findings/rules/rules.h"
#include "analysis/trace/kernel_class.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace placescope {

namespace {

class LayoutConversionRule final : public FindingRule
{
public:
    std::string_view id() const override { return "layout.conversions"; }
    std::string_view description() const override { return "time in layout-conversion and transpose kernels"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        std::unordered_map<int64_t, LayoutConversionKind> kinds;
        Evidence cudnn { "cuDNN layout conversion kernels (nchwToNhwc / nhwcToNchw)" };
        Evidence reformat { "TensorRT Reformat kernels" };
        Evidence transpose { "transpose kernels" };
        std::vector<EvidenceRange> ex[4];
        int64_t kernelNs = 0, inStepKernelNs = 0, inStepConvNs = 0, inStepConvCount = 0;
        for (const auto& op : ctx.trace.gpuOps) {
            if (op.kind != GpuOp::Kind::Kernel)
                continue;
            kernelNs += op.durationNs();
            bool inStep = ctx.inSteps(op);
            if (inStep)
                inStepKernelNs += op.durationNs();
            auto [it, inserted] = kinds.emplace(op.nameId, LayoutConversionKind::None);
            if (inserted)
                it->second = layoutConversionKind(ctx.trace.name(op.nameId));
            if (it->second == LayoutConversionKind::None)
                continue;
            Evidence& e = it->second == LayoutConversionKind::Cudnn ? cudnn
                : it->second == LayoutConversionKind::Reformat      ? reformat
                                                                    : transpose;
            ++e.count;
            e.totalNs += op.durationNs();
            ex[static_cast<int>(it->second)].push_back(
                { op.startNs, op.endNs, ctx.trace.name(op.nameId).substr(0, 80) });
            if (inStep) {
                inStepConvNs += op.durationNs();
                ++inStepConvCount;
            }
        }
        int64_t convNs = cudnn.totalNs + reformat.totalNs + transpose.totalNs;
        if (kernelNs <= 0 || convNs == 0)
            return;
        double share = 100.0 * static_cast<double>(convNs) / static_cast<double>(kernelNs);
        if (share < ctx.options.reportPercent)
            return;
        // Transposes alone are often part of the algorithm (attention, embeddings): only a large share of them
        // suggests a layout problem.
        if (cudnn.count + reformat.count == 0 && share < ctx.options.warnPercent)
            return;
        Finding f;
        f.ruleId = "layout.conversions";
        f.title = "Layout conversions take " + formatPercent(share) + " of kernel time";
        addLongestExamples(cudnn, std::move(ex[1]));
        addLongestExamples(reformat, std::move(ex[2]));
        addLongestExamples(transpose, std::move(ex[3]));
        for (Evidence* e : { &cudnn, &reformat, &transpose })
            if (e->count)
                f.evidence.push_back(std::move(*e));
        f.evidence.push_back({ "all kernels", 0, kernelNs });
        ctx.setTimeSaving(f, inStepConvNs,
            "the conversion kernels' time per step, which channels_last/NHWC end to end removes (a few "
            "conversions may stay at the model's input and output). Not an upper bound: cuDNN's NHWC "
            "kernels are often faster as well (measured on an H100 with an fp16 conv net: conversions "
            "took 11.8 ms of a step, channels_last saved 16.7 ms); PyTorch's tutorial reports 8-35 % "
            "on Volta",
            false);
        if (ctx.estimator) {
            const int64_t steps = std::max<int64_t>(1, ctx.steps.count());
            LayoutQuery q { ctx.options.modelPath, inStepConvNs / steps, inStepConvCount / steps, ctx.deviceName() };
            if (auto est = ctx.estimator->estimateLayout(q)) {
                f.saving.perStepMs = est->savingMsPerStep;
                f.saving.percentOfStep = ctx.percent(static_cast<int64_t>(est->savingMsPerStep * 1e6) * steps);
                f.saving.method = ctx.estimator->name() + ": " + est->explanation;
                f.saving.upperBound = false;
            }
        }
        f.severity = severityForShare(share, ctx.options.warnPercent, 15.0);
        char buf[200];
        std::snprintf(buf, sizeof buf,
            "%lld layout-conversion/transpose kernels ran for %s, %s of all kernel time (%s).",
            static_cast<long long>(cudnn.count + reformat.count + transpose.count),
            formatNanoseconds(static_cast<double>(convNs)).c_str(), formatPercent(share).c_str(),
            formatNanoseconds(static_cast<double>(kernelNs)).c_str());
        f.summary = buf;
        if (cudnn.count)
            f.summary += " cuDNN converts NCHW tensors to NHWC to use its Tensor Core engines and back afterwards.";
        f.fix = { "model = model.to(memory_format=torch.channels_last) and input = input.to(memory_format="
                  "torch.channels_last), with AMP (torch.autocast) so cuDNN picks NHWC kernels without converting",
            "use data_format='channels_last' (NHWC, TensorFlow's default) for Conv/Pool layers on GPU; with "
            "mixed precision the Grappler layout optimizer then needs no transposes",
            "export the model in NHWC or enable the CUDA EP's prefer_nhwc=1 provider option; for TensorRT keep "
            "adjacent layers in one format (kHWC8 with fp16) to avoid Reformat layers",
            "write convolutions channels-last (lax.conv_general_dilated with dimension_numbers=('NHWC', 'HWIO', "
            "'NHWC'), 'NDHWC' in 3-D; flax.linen.Conv is channels-last already) so XLA does not transpose around each "
            "one; with bfloat16 it then uses NHWC Tensor Core kernels directly" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makeLayoutConversionRule() { return std::make_unique<LayoutConversionRule>(); }

} // namespace placescope
