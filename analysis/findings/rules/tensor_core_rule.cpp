// SPDX-License-Identifier: MIT
// Tensor Cores: on a GPU with compute capability >= 7.0 (TARGET_INFO_GPU), GEMM/convolution kernels that run
// in plain fp32 (SIMT: sgemm, scudnn, f32f32 xmma without tf32) leave the Tensor Cores idle (AMP / TF32 off),
// and fp16/bf16 kernels on the SIMT path (implicit_convolve_sgemm<__half...>) usually mean a channel count that
// is not a multiple of 8; framework ops with such dims (PS_FRAMEWORK_OPS.inputDims) are listed too. Which kernels are
// GEMM/conv is the shared classification (kernel_class.h); which of them use Tensor Cores is read here from the
// name (cuBLAS/cuDNN/CUTLASS naming: h884, s1688, 16816, tf32, bf16, hmma, tensorop mean Tensor Cores).
// Saving: half the fp32 GEMM/conv kernel time, i.e. an assumed 2x speedup (TF32/fp16 peak is 8x fp32 on
// V100/A100; 2x is what typical layer sizes reach), stated as an estimate.
#include "analysis/findings/rules/rules.h"
#include "analysis/trace/kernel_class.h"
#include "profiler/base/name_pattern.h"
#include "profiler/base/units.h"

#include <unordered_map>

namespace placescope {

namespace {

enum class MathKind
{
    None,
    TensorCore,
    Fp32,
    HalfNoTensorCore
};

MathKind mathKind(const std::string& name)
{
    static const NamePattern kTc = *NamePattern::compile(
        R"((?i)h884|h1688|h16816|s884|s1688|s16816|i8816|i16832|hmma|wmma|tensorop|tf32|bf16|f16f16|e4m3|e5m2|gmma|_h[0-9]+gemm|fp16)");
    static const NamePattern kFp32
        = *NamePattern::compile(R"((?i)sgemm|scudnn|f32f32_f32f32|simt|implicit_convolve_sgemm|winograd)");
    if (!isMatrixKernel(name))
        return MathKind::None;
    static const NamePattern kHalf = *NamePattern::compile(R"(__half|\bhalf\b|bfloat16|__nv_bfloat16)");
    if (kTc.search(name))
        return MathKind::TensorCore;
    // fp16/bf16 data in a SIMT kernel: typically a channel count that is not a multiple of 8 (e.g. RGB input).
    if (kHalf.search(name))
        return MathKind::HalfNoTensorCore;
    if (kFp32.search(name))
        return MathKind::Fp32;
    return MathKind::None;
}

bool isGemmOp(const std::string& name)
{
    static const NamePattern kOps = *NamePattern::compile(
        R"(^aten::(mm|addmm|bmm|baddbmm|matmul|linear|conv[123]d|convolution|_convolution|cudnn_convolution)$)");
    return kOps.search(name); // anchored: the whole name
}

// Any dimension of the op's input shapes (besides batch-like first dims of size 1) not a multiple of 8.
bool hasDimNotMultipleOf8(const std::string& dimsJson)
{
    // A hand-rolled digit scan: this runs once per recorded GEMM/conv op (hundreds of thousands in big traces).
    long long value = -1;
    for (size_t i = 0; i <= dimsJson.size(); ++i) {
        char c = i < dimsJson.size() ? dimsJson[i] : ' ';
        if (c >= '0' && c <= '9') {
            value = (value < 0 ? 0 : value) * 10 + (c - '0');
            continue;
        }
        if (value > 8 && value % 8 != 0)
            return true;
        value = -1;
    }
    return false;
}

class TensorCoreRule final : public FindingRule
{
public:
    std::string_view id() const override { return "tensor_cores"; }
    std::string_view description() const override { return "fp32 GEMM/conv on Tensor Core hardware"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        int64_t major = -1;
        std::string gpuName;
        for (const auto& d : ctx.trace.devices)
            if (d.computeMajor > major) {
                major = d.computeMajor;
                gpuName = d.name;
            }
        if (major < 7)
            return; // no Tensor Cores, or the trace does not say
        std::unordered_map<int64_t, MathKind> kinds;
        Evidence fp32 { "fp32 GEMM/convolution kernels not using Tensor Cores" };
        Evidence tc { "GEMM/convolution kernels using Tensor Cores" };
        Evidence half { "fp16/bf16 GEMM/convolution kernels not using Tensor Cores (dims not multiples of 8?)" };
        std::vector<EvidenceRange> ex; // kernels that missed the Tensor Cores
        int64_t inStepFp32Ns = 0;
        for (const auto& op : ctx.trace.gpuOps) {
            if (op.kind != GpuOp::Kind::Kernel)
                continue;
            auto [it, inserted] = kinds.emplace(op.nameId, MathKind::None);
            if (inserted)
                it->second = mathKind(ctx.trace.name(op.nameId));
            if (it->second == MathKind::TensorCore) {
                ++tc.count;
                tc.totalNs += op.durationNs();
            } else if (it->second == MathKind::Fp32 || it->second == MathKind::HalfNoTensorCore) {
                Evidence& e = it->second == MathKind::Fp32 ? fp32 : half;
                ++e.count;
                e.totalNs += op.durationNs();
                ex.push_back({ op.startNs, op.endNs, ctx.trace.name(op.nameId).substr(0, 80) });
                if (ctx.inSteps(op))
                    inStepFp32Ns += op.durationNs();
            }
        }
        Evidence odd { "GEMM/conv ops with dimensions not a multiple of 8 (from recorded input shapes)" };
        std::unordered_map<int64_t, bool> gemmOp;
        for (const auto& r : ctx.trace.hostRanges) {
            if (r.inputDims.empty())
                continue;
            auto [g, inserted] = gemmOp.emplace(r.nameId, false);
            if (inserted)
                g->second = isGemmOp(ctx.trace.name(r.nameId));
            if (!g->second || !hasDimNotMultipleOf8(r.inputDims))
                continue;
            if (odd.count < 5)
                odd.examples.push_back(
                    { r.startNs, r.endNs, ctx.trace.name(r.nameId) + " " + r.inputDims.substr(0, 60) });
            ++odd.count;
            odd.totalNs += r.endNs - r.startNs;
        }
        if (fp32.count + half.count == 0 || ctx.percent(inStepFp32Ns) < ctx.options.reportPercent)
            return;
        Finding f;
        f.ruleId = "tensor_cores";
        f.title = fp32.count ? "fp32 matrix math leaves the Tensor Cores idle"
                             : "Half-precision matrix math misses the Tensor Cores";
        int64_t missCount = fp32.count + half.count, missNs = fp32.totalNs + half.totalNs;
        addLongestExamples(fp32.count ? fp32 : half, std::move(ex));
        if (fp32.count)
            f.evidence.push_back(std::move(fp32));
        if (half.count)
            f.evidence.push_back(std::move(half));
        f.evidence.push_back(std::move(tc));
        if (odd.count)
            f.evidence.push_back(std::move(odd));
        ctx.setTimeSaving(f, inStepFp32Ns / 2,
            "half the fp32 GEMM/conv kernel time per step: an assumed 2x from TF32/fp16 Tensor Cores "
            "(their peak is about 8x fp32; memory-bound layers gain less), not a measurement");
        f.severity = severityForShare(f.saving.percentOfStep, ctx.options.warnPercent, ctx.options.highPercent);
        f.summary = gpuName + " (compute capability " + std::to_string(major) + ".x) has Tensor Cores, but "
            + std::to_string(missCount) + " GEMM/convolution kernels ran without them ("
            + formatNanoseconds(static_cast<double>(missNs))
            + "): fp32 math (AMP/TF32 off) or fp16/bf16 shapes whose channels/features are not multiples of 8.";
        f.fix = { "wrap the forward pass in torch.autocast('cuda', dtype=torch.bfloat16) (or float16 with GradScaler); "
                  "on Ampere+ also torch.backends.cuda.matmul.allow_tf32 = True and torch.backends.cudnn.allow_tf32 = "
                  "True; pad channel/feature dims to multiples of 8",
            "tf.keras.mixed_precision.set_global_policy('mixed_float16'); TF32 is on by default on Ampere "
            "(tf.config.experimental.enable_tensor_float_32_execution(True)); pad dims to multiples of 8",
            "convert the model to fp16 (onnxconverter_common.float16.convert_float_to_float16) or use the "
            "TensorRT EP with trt_fp16_enable=1; the CUDA EP uses TF32 unless use_tf32=0",
            "compute in bfloat16 (dtype=jnp.bfloat16 in Flax modules, or a jmp mixed-precision policy); for fp32 "
            "matmuls jax.default_matmul_precision('tensorfloat32') on Ampere+; pad dims to multiples of 8" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makeTensorCoreRule() { return std::make_unique<TensorCoreRule>(); }

} // namespace placescope
