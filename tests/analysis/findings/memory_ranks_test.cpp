// SPDX-License-Identifier: MIT
// Memory and multi-rank rules on purpose-made traces: peak near capacity, fragmentation, allocation churn
// (and its absence without steps), stragglers and exposed communication.
#include "tests/analysis/findings/trace_builder.h"

namespace placescope::testing {
namespace {

const char* kGemm = "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16";

TEST(FindingsRules, MemoryPeakAndFragmentation)
{
    TraceBuilder t("memory");
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    t.step(0, 0, 10 * kMs);
    t.kernel(0, 10 * kMs, kGemm, 0);
    t.memory(kMs, 4LL << 30, 10LL << 30);
    t.memory(2 * kMs, 5LL << 30, 38LL << 30);
    t.memory(3 * kMs, 3LL << 30, 38LL << 30, -1024);
    auto report = t.analyze();
    const Finding* peak = findRule(report, "memory.peak");
    ASSERT_NE(peak, nullptr) << ruleIds(report);
    EXPECT_EQ(peak->evidence[0].totalBytes, 38LL << 30);
    const Finding* frag = findRule(report, "memory.fragmentation");
    ASSERT_NE(frag, nullptr) << ruleIds(report);
    EXPECT_EQ(frag->saving.memoryBytes, 33LL << 30);
    ASSERT_EQ(report.memory.size(), 1u);
    EXPECT_EQ(report.memory[0].capacityBytes, 40LL << 30);
}

TEST(FindingsRules, AllocationChurnOnlyAfterWarmup)
{
    for (bool steady : { false, true }) {
        TraceBuilder t(steady ? "churn" : "warmup");
        for (int n = 0; n < 3; ++n) {
            t.step(n, n * 10 * kMs, (n + 1) * 10 * kMs);
            t.kernel(n * 10 * kMs, (n + 1) * 10 * kMs, kGemm, n * 10 * kMs - kMs);
        }
        t.api(kMs, 2 * kMs, "cudaMalloc"); // warm-up in step 0
        if (steady) {
            t.api(12 * kMs, 12 * kMs + 300 * kUs, "cudaFree");
            t.api(22 * kMs, 22 * kMs + 100 * kUs, "cudaMalloc");
        }
        auto report = t.analyze();
        const Finding* f = findRule(report, "memory.churn");
        if (!steady) {
            EXPECT_EQ(f, nullptr) << ruleIds(report);
            continue;
        }
        ASSERT_NE(f, nullptr) << ruleIds(report);
        EXPECT_EQ(f->evidence[0].count, 2);
        EXPECT_NEAR(f->saving.perStepMs, 0.2, 1e-9);
    }
}

TEST(FindingsRules, NoChurnVerdictWithoutSteps)
{
    // One pass with no iteration structure: allocations are warm-up, not churn.
    TraceBuilder t("nosteps");
    t.kernel(0, 10 * kMs, kGemm, 0);
    t.api(kMs, 2 * kMs, "cudaMalloc");
    t.api(3 * kMs, 4 * kMs, "cudaFree");
    auto report = t.analyze();
    EXPECT_EQ(findRule(report, "memory.churn"), nullptr) << ruleIds(report);
    ASSERT_FALSE(report.notes.empty());
    EXPECT_NE(report.notes[0].find("no steps found"), std::string::npos);
}

TEST(FindingsRules, StragglerAndExposedCommunication)
{
    TraceBuilder t("ranks");
    t.process(100, 0);
    t.process(200, 1);
    for (int n = 0; n < 2; ++n) {
        int64_t s = n * 10 * kMs;
        for (int64_t pid : { 100, 200 }) {
            int64_t compute = pid == 100 ? 5 * kMs : 8 * kMs;
            t.step(n, s, s + 10 * kMs, pid);
            t.kernel(s, s + compute, kGemm, s - kMs, 5 * kUs, pid, pid / 100 - 1);
            t.kernel(s + compute, s + 10 * kMs, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", s - kMs,
                5 * kUs, pid, pid / 100 - 1, 20);
        }
    }
    auto report = t.analyze();
    const Finding* s = findRule(report, "multi_rank.straggler");
    ASSERT_NE(s, nullptr) << ruleIds(report);
    EXPECT_NE(s->title.find("rank 1"), std::string::npos) << s->title;
    EXPECT_NEAR(s->saving.perStepMs, 1.5, 1e-9);
    const Finding* c = findRule(report, "multi_rank.comm_overlap");
    ASSERT_NE(c, nullptr) << ruleIds(report);
    // Exposed: 5 ms (rank 0) + 2 ms (rank 1) per step, averaged over the two GPUs.
    EXPECT_NEAR(c->saving.perStepMs, 3.5, 1e-9);
    EXPECT_EQ(report.devices.size(), 2u);
}

} // namespace
} // namespace placescope::testing
