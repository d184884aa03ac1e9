// SPDX-License-Identifier: MIT
// Each rule on a purpose-made trace (written with the real TraceWriter): the finding appears with the figures
// worked out by hand, and a healthy trace gives none.
#include "tests/analysis/findings/trace_builder.h"

namespace placescope::testing {
namespace {

const char* kGemm = "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16";
const char* kElementwise = "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float>>()";

// A healthy step: a pinned 8 MB input copy, then kernels back to back, all launched 1 ms ahead.
void healthyStep(TraceBuilder& t, int64_t number, int64_t s)
{
    t.step(number, s, s + 10 * kMs);
    t.copy(s, s + 400 * kUs, CopyKind::HtoD, 8 << 20, MemKind::Pinned);
    for (int i = 0; i < 96; ++i) {
        int64_t k0 = s + 400 * kUs + i * 100 * kUs;
        t.kernel(k0, k0 + 100 * kUs, i % 2 ? kGemm : kElementwise, k0 - kMs);
    }
}

TEST(FindingsRules, HealthyTraceHasNoFindings)
{
    TraceBuilder t("healthy");
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    for (int n = 0; n < 5; ++n)
        healthyStep(t, n, kMs + n * 10 * kMs);
    t.memory(kMs, 10LL << 30, 11LL << 30);
    t.memory(30 * kMs, 12LL << 30, 13LL << 30);
    auto report = t.analyze();
    EXPECT_TRUE(report.findings.empty()) << ruleIds(report);
    EXPECT_EQ(report.stepCount, 5);
    ASSERT_EQ(report.devices.size(), 1u);
    EXPECT_EQ(report.devices[0].idleNs, 0);
    EXPECT_EQ(report.kernelCount, 480);
}

TEST(FindingsRules, InputBoundIdle)
{
    TraceBuilder t("input");
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    for (int n = 0; n < 4; ++n) {
        int64_t s = n * 10 * kMs;
        t.step(n, s, s + 10 * kMs);
        t.hostOp(s, s + 4 * kMs, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation");
        for (int i = 0; i < 60; ++i) {
            int64_t k0 = s + 4 * kMs + 10 * kUs + i * 99833; // 60 kernels fill the rest of the step
            t.kernel(k0, std::min(k0 + 99833, s + 10 * kMs), kGemm, i == 0 ? s + 4 * kMs : k0 - 20 * kUs);
        }
    }
    auto report = t.analyze();
    const Finding* f = findRule(report, "gpu_idle.input_bound");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    // Steps 1-3 each start with 4 ms of loading while the GPU waits (step 0's wait is before the first op).
    EXPECT_NEAR(f->saving.perStepMs, 3 * 4.0 / 4, 0.01);
    EXPECT_EQ(f->severity, Severity::High);
    EXPECT_EQ(f->evidence[0].count, 3);
    EXPECT_EQ(findRule(report, "gpu_idle.sync_wait"), nullptr);
    EXPECT_FALSE(f->fix.pytorch.empty());
    EXPECT_NE(f->fix.pytorch.find("num_workers"), std::string::npos);
}

TEST(FindingsRules, SyncWaitIdle)
{
    TraceBuilder t("sync");
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    for (int n = 0; n < 4; ++n) {
        int64_t s = n * 10 * kMs;
        t.step(n, s, s + 10 * kMs);
        for (int i = 0; i < 60; ++i)
            t.kernel(s + i * 100 * kUs, s + (i + 1) * 100 * kUs, kGemm, s + i * 100 * kUs - 20 * kUs);
        t.api(s + 500 * kUs, s + 6 * kMs + 5 * kUs, "cudaStreamSynchronize");
    }
    auto report = t.analyze();
    const Finding* f = findRule(report, "gpu_idle.sync_wait");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    // Gaps of 4 ms after steps 0-2; the next launch returns 15 us before its kernel: 3.985 ms host-late each.
    EXPECT_NEAR(f->saving.perStepMs, 3 * 3.985 / 4, 0.01);
    EXPECT_EQ(findRule(report, "gpu_idle.host_bound"), nullptr);
    EXPECT_EQ(findRule(report, "gpu_idle.input_bound"), nullptr);
}

TEST(FindingsRules, HostBoundAndLaunchBound)
{
    TraceBuilder t("launch");
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    for (int n = 0; n < 3; ++n) {
        int64_t s = n * kMs;
        t.step(n, s, s + kMs);
        for (int i = 0; i < 40; ++i) {
            int64_t launch = s + i * 25 * kUs;
            t.kernel(launch + 22 * kUs, launch + 27 * kUs, kElementwise, launch, 20 * kUs);
        }
    }
    auto report = t.analyze();
    const Finding* host = findRule(report, "gpu_idle.host_bound");
    ASSERT_NE(host, nullptr) << ruleIds(report);
    EXPECT_EQ(host->severity, Severity::High);
    const Finding* launch = findRule(report, "launch_bound");
    ASSERT_NE(launch, nullptr) << ruleIds(report);
    EXPECT_EQ(launch->evidence[0].count, 120);
    EXPECT_GT(launch->saving.perStepMs, 0.0);
    EXPECT_LE(launch->saving.perStepMs, host->saving.perStepMs + 1e-9);
}

TEST(FindingsRules, PageableCopies)
{
    TraceBuilder t("pageable");
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    for (int n = 0; n < 2; ++n) {
        int64_t s = n * 20 * kMs;
        t.step(n, s, s + 20 * kMs);
        for (int i = 0; i < 5; ++i) // 4 MB in 2 ms each: 2.1 GB/s
            t.copy(s + i * 2 * kMs, s + (i + 1) * 2 * kMs, CopyKind::HtoD, 4 << 20, MemKind::Pageable);
        t.kernel(s + 10 * kMs, s + 20 * kMs, kGemm, s);
    }
    auto report = t.analyze();
    const Finding* f = findRule(report, "copies.pageable");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    EXPECT_EQ(f->evidence[0].count, 10);
    EXPECT_EQ(f->evidence[0].totalBytes, 10LL * (4 << 20));
    // No pinned copies to measure: assumed twice the pageable bandwidth, so each copy saves half its time (5 ms per
    // step), and the host no longer waits in the copy calls (5 calls of 5 us per step: 25 us, issue 25).
    EXPECT_NEAR(f->saving.perStepMs, 5.025, 0.001);
    EXPECT_NEAR(f->saving.percentOfStep, 25.125, 0.01);
}

TEST(FindingsRules, SynchronousCopiesAndSmallHtoDExcluded)
{
    TraceBuilder t("synccopy");
    t.step(0, 0, 10 * kMs);
    t.kernel(0, kMs, kGemm, 0);
    // Host blocked 3 ms for a 1 ms DtoH copy; a 4 KB synchronous HtoD is below nsys's 64 KB cut.
    t.copy(2 * kMs, 3 * kMs, CopyKind::DtoH, 1 << 20, MemKind::Pinned, "cudaMemcpy", 0, 3 * kMs);
    t.copy(
        5 * kMs, 5 * kMs + 10 * kUs, CopyKind::HtoD, 4096, MemKind::Pinned, "cudaMemcpy", 4 * kMs, 5 * kMs + 20 * kUs);
    auto report = t.analyze();
    const Finding* f = findRule(report, "copies.synchronous");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    EXPECT_EQ(f->evidence[0].count, 1);
    EXPECT_NEAR(f->saving.perStepMs, 2.0, 1e-6);
}

TEST(FindingsRules, SmallCopies)
{
    TraceBuilder t("small");
    for (int n = 0; n < 2; ++n) {
        int64_t s = n * 10 * kMs;
        t.step(n, s, s + 10 * kMs);
        for (int i = 0; i < 20; ++i)
            t.copy(s + i * 100 * kUs, s + i * 100 * kUs + 10 * kUs, CopyKind::HtoD, 1000, MemKind::Pinned);
        t.kernel(s + 2 * kMs, s + 10 * kMs, kGemm, s);
    }
    auto report = t.analyze();
    const Finding* f = findRule(report, "copies.small");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    EXPECT_EQ(f->evidence[0].count, 40);
    // 20 x 10 us per step, batched: one 10 us copy + 20 KB at the assumed 10 GB/s (2 us).
    EXPECT_NEAR(f->saving.perStepMs, 0.200 - 0.010 - 0.002, 1e-6);
}

void roundTrip(TraceBuilder& t, bool withHostOp)
{
    t.step(0, 0, 10 * kMs);
    t.kernel(0, kMs, kGemm, 0);
    t.copy(kMs, kMs + 100 * kUs, CopyKind::DtoH, 1 << 20, MemKind::Pinned);
    if (withHostOp)
        t.hostOp(kMs + 150 * kUs, kMs + 650 * kUs, "aten::nonzero");
    t.copy(kMs + 700 * kUs, kMs + 800 * kUs, CopyKind::HtoD, 1 << 20, MemKind::Pinned);
    t.kernel(kMs + 800 * kUs, 10 * kMs, kGemm, kMs + 790 * kUs);
}

TEST(FindingsRules, CpuFallbackBetweenCopies)
{
    TraceBuilder t("fallback");
    roundTrip(t, true);
    auto report = t.analyze();
    const Finding* f = findRule(report, "placement.cpu_fallback");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    EXPECT_EQ(findRule(report, "copies.host_round_trip"), nullptr);
    EXPECT_NE(f->summary.find("aten::nonzero"), std::string::npos);
    // Both copies (0.2 ms) plus the GPU idle between them (0.6 ms).
    EXPECT_NEAR(f->saving.perStepMs, 0.8, 1e-6);
}

TEST(FindingsRules, HostRoundTripWithoutHostCompute)
{
    TraceBuilder t("roundtrip");
    roundTrip(t, false);
    auto report = t.analyze();
    const Finding* f = findRule(report, "copies.host_round_trip");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    EXPECT_EQ(findRule(report, "placement.cpu_fallback"), nullptr);
    EXPECT_EQ(f->evidence[0].count, 1);
    EXPECT_NEAR(f->saving.perStepMs, 0.8, 1e-6);
    EXPECT_NE(f->fix.pytorch.find("dlpack"), std::string::npos);
}

TEST(FindingsRules, OrtCpuNodesInCudaSession)
{
    TraceBuilder t("ort");
    t.step(0, 0, 10 * kMs);
    t.kernel(0, 10 * kMs, kGemm, 0);
    // As the ORT profile importer writes them: device from the provider, Memcpy nodes as ort_memcpy.
    t.hostOp(
        0, kMs, "Conv_0", "ort_node", {}, R"({"op_name":"Conv","provider":"CUDAExecutionProvider","device":"GPU"})");
    t.hostOp(kMs, 3 * kMs, "NonMaxSuppression_7", "ort_node", {},
        R"({"op_name":"NonMaxSuppression","provider":"CPUExecutionProvider","device":"CPU"})");
    t.hostOp(3 * kMs, 3 * kMs + 50 * kUs, "Memcpy_token_3", "ort_node", {},
        R"({"op_name":"Add","provider":"CUDAExecutionProvider","device":"GPU"})"); // a name is not a kind
    t.hostOp(4 * kMs, 4 * kMs + 50 * kUs, "Memcpy_1", "ort_memcpy", {},
        R"({"op_name":"MemcpyToHost","provider":"CUDAExecutionProvider","device":"GPU","copy_kind":"DtoH"})");
    auto report = t.analyze();
    const Finding* f = findRule(report, "placement.cpu_fallback");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    EXPECT_EQ(f->evidence[0].count, 1); // the CPU node
    EXPECT_EQ(f->evidence[1].count, 1); // MemcpyToHost
    EXPECT_NEAR(f->saving.perStepMs, 2.05, 1e-6);
    EXPECT_EQ(f->saving.proposedEdit, "op:NonMaxSuppression_7=gpu");
}

TEST(FindingsRules, OrtCpuOnlySessionIsNoFallback)
{
    TraceBuilder t("ort_cpu");
    t.step(0, 0, 10 * kMs);
    t.kernel(0, 10 * kMs, kGemm, 0);
    t.hostOp(kMs, 3 * kMs, "NonMaxSuppression_7", "ort_node", {},
        R"({"op_name":"NonMaxSuppression","provider":"CPUExecutionProvider","device":"CPU"})");
    auto report = t.analyze();
    EXPECT_EQ(findRule(report, "placement.cpu_fallback"), nullptr) << ruleIds(report);
}

TEST(FindingsRules, LayoutConversionShare)
{
    TraceBuilder t("layout");
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    t.step(0, 0, 10 * kMs);
    t.kernel(0, 100 * kUs, "void cudnn::ops::nchwToNhwcKernel<__half, __half, float, false, true>()", 0);
    t.kernel(100 * kUs, 800 * kUs, "sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize", 0);
    t.kernel(800 * kUs, 850 * kUs, "void cudnn::ops::nhwcToNchwKernel<__half, __half, float, true, false>()", 0);
    t.kernel(850 * kUs, 900 * kUs, "void onnxruntime::cuda::TransposeImpl<float>()", 0);
    t.kernel(900 * kUs, 1000 * kUs, kElementwise, 0);
    auto report = t.analyze();
    const Finding* f = findRule(report, "layout.conversions");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    EXPECT_EQ(f->evidence[0].count, 2);
    EXPECT_EQ(f->evidence[0].totalNs, 150 * kUs);
    EXPECT_EQ(f->evidence[1].count, 1); // the transpose
    EXPECT_NEAR(f->saving.perStepMs, 0.2, 1e-9);
    // The report's layout share (the text, HTML and JSON header) is the finding's: conversions and the transpose.
    EXPECT_EQ(report.layoutKernelCount, 3);
    EXPECT_EQ(report.layoutKernelNs, 200 * kUs);
    EXPECT_NE(f->title.find("20 %"), std::string::npos) << f->title;
}

TEST(FindingsRules, TensorCoresUnusedOnlyWhereTheyExist)
{
    for (int major : { 8, 6 }) {
        TraceBuilder t("tc" + std::to_string(major));
        t.gpu(0, major == 8 ? "NVIDIA A100-SXM4-40GB" : "Tesla P100", 16LL << 30, major);
        t.step(0, 0, 10 * kMs);
        t.kernel(0, 4 * kMs, "volta_sgemm_128x64_nn", 0);
        t.kernel(4 * kMs, 6 * kMs, kGemm, 0);
        t.kernel(6 * kMs, 10 * kMs, "void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false>()", 0);
        t.hostOp(0, 10 * kUs, "aten::mm", "cpu_op", "[[1000, 30], [30, 1001]]");
        auto report = t.analyze();
        const Finding* f = findRule(report, "tensor_cores");
        if (major == 6) {
            EXPECT_EQ(f, nullptr);
            continue;
        }
        ASSERT_NE(f, nullptr) << ruleIds(report);
        EXPECT_EQ(f->evidence[0].count, 2);
        EXPECT_EQ(f->evidence[0].totalNs, 8 * kMs);
        EXPECT_EQ(f->evidence[1].count, 1);
        ASSERT_EQ(f->evidence.size(), 3u);
        EXPECT_EQ(f->evidence[2].count, 1); // aten::mm with 30 and 1001
        EXPECT_NEAR(f->saving.perStepMs, 4.0, 1e-9);
    }
}

TEST(FindingsRules, GpuWorkLaggingTheHostStepCounts)
{
    // The host's step ends at 10 ms, but the GPU runs the step's work until 16 ms.
    TraceBuilder t("lag");
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    t.step(0, 0, 10 * kMs);
    t.kernel(kMs, 12 * kMs, kGemm, 0);
    t.kernel(12 * kMs, 16 * kMs, "void cudnn::engines_precompiled::nchwToNhwcKernel<float>()", 9 * kMs);
    auto report = t.analyze();
    const Finding* f = findRule(report, "layout.conversions");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    EXPECT_NEAR(f->saving.perStepMs, 4.0, 1e-9);
    ASSERT_EQ(report.devices.size(), 1u);
    EXPECT_EQ(report.devices[0].windowNs, 15 * kMs);
}

// An engine that answers every question with fixed figures, to check that the rules use what it says.
class FixedEstimator final : public PlacementEstimator
{
public:
    std::string name() const override { return "test engine"; }
    std::optional<EngineEstimate> estimateLayout(const LayoutQuery& q) const override
    {
        lastLayout = q;
        return EngineEstimate { 0.25, "layout pass says so" };
    }
    std::optional<EngineEstimate> estimateFallback(const FallbackQuery& q) const override
    {
        lastFallback = q;
        return EngineEstimate { 0.5, "min-cut says so" };
    }
    mutable LayoutQuery lastLayout;
    mutable FallbackQuery lastFallback;
};

TEST(FindingsRules, PlacementEngineEstimatesReplaceTraceEstimates)
{
    TraceBuilder t("engine");
    roundTrip(t, true);
    t.kernel(10 * kMs, 11 * kMs, "void cudnn::ops::nchwToNhwcKernel<float>()", 9 * kMs);
    t.kernel(11 * kMs, 20 * kMs, kGemm, 9 * kMs);
    t.step(1, 10 * kMs, 20 * kMs);
    FixedEstimator engine;
    AnalysisOptions options;
    options.modelPath = "model.onnx";
    auto report = t.analyze(options, &engine);
    const Finding* layout = findRule(report, "layout.conversions");
    ASSERT_NE(layout, nullptr) << ruleIds(report);
    EXPECT_DOUBLE_EQ(layout->saving.perStepMs, 0.25);
    EXPECT_EQ(layout->saving.method, "test engine: layout pass says so");
    EXPECT_EQ(engine.lastLayout.modelPath, "model.onnx");
    EXPECT_EQ(engine.lastLayout.conversionNsPerStep, kMs / 2); // 1 ms over 2 steps
    const Finding* fallback = findRule(report, "placement.cpu_fallback");
    ASSERT_NE(fallback, nullptr) << ruleIds(report);
    EXPECT_DOUBLE_EQ(fallback->saving.perStepMs, 0.5);
    EXPECT_FALSE(fallback->saving.upperBound);
    ASSERT_EQ(engine.lastFallback.opNames.size(), 1u);
    EXPECT_EQ(engine.lastFallback.opNames[0], "aten::nonzero");
    EXPECT_EQ(engine.lastFallback.copyBytesPerStep, (1 << 20) / 2);
}

TEST(FindingsRules, RankedBySaving)
{
    TraceBuilder t("ranked");
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    t.step(0, 0, 20 * kMs);
    t.step(1, 20 * kMs, 40 * kMs);
    for (int n = 0; n < 2; ++n) {
        int64_t s = n * 20 * kMs;
        t.copy(s, s + 4 * kMs, CopyKind::HtoD, 8 << 20, MemKind::Pageable);
        t.kernel(s + 4 * kMs, s + 8 * kMs, "volta_sgemm_128x64_nn", s);
        t.kernel(s + 8 * kMs, s + 20 * kMs, kGemm, s);
    }
    auto report = t.analyze();
    ASSERT_GE(report.findings.size(), 2u) << ruleIds(report);
    for (size_t i = 1; i < report.findings.size(); ++i)
        EXPECT_GE(report.findings[i - 1].saving.perStepMs, report.findings[i].saving.perStepMs);
    for (const auto& f : report.findings) {
        EXPECT_FALSE(f.saving.method.empty()) << f.ruleId;
        EXPECT_FALSE(
            f.fix.pytorch.empty() || f.fix.tensorflow.empty() || f.fix.onnxRuntime.empty() || f.fix.jax.empty())
            << f.ruleId;
    }
}

} // namespace
} // namespace placescope::testing
