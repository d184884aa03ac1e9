// SPDX-License-Identifier: MIT
// Step detection (recorded, annotation ranges, repeating kernel pattern, whole trace) and interval arithmetic.
#include "analysis/render/report_writer.h"
#include "analysis/trace/intervals.h"
#include "tests/analysis/findings/trace_builder.h"

namespace placescope::testing {
namespace {

TEST(FindingsSteps, IntervalArithmetic)
{
    IntervalList a = mergeIntervals({ { 0, 10 }, { 5, 20 }, { 30, 40 }, { 40, 45 }, { 50, 50 } });
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(totalLength(a), 35);
    IntervalList b = mergeIntervals({ { 15, 35 } });
    EXPECT_EQ(totalLength(intersectIntervals(a, b)), 10);
    EXPECT_EQ(totalLength(subtractIntervals(a, b)), 25);
    EXPECT_EQ(overlapLength(a, 18, 32), 4);
    EXPECT_TRUE(containsPoint(a, 44));
    EXPECT_FALSE(containsPoint(a, 25));
}

TEST(FindingsSteps, NvtxStepRanges)
{
    TraceBuilder t("nvtx");
    for (int n = 0; n < 3; ++n) {
        NvtxEvent e;
        e.start = n * 10 * kMs;
        e.end = e.start + 9 * kMs;
        e.text = "train_step";
        e.globalTid = makeGlobalTid(kPid, kPid);
        t.writer().add(e);
        NvtxEvent inner = e; // nested phases are not steps
        inner.start += kMs;
        inner.end = inner.start + kMs;
        inner.text = "step:forward";
        t.writer().add(inner);
        t.kernel(e.start, e.start + 9 * kMs, "k", e.start);
    }
    auto report = t.analyze();
    EXPECT_EQ(report.stepCount, 3);
    EXPECT_EQ(report.stepSource, std::string(stepSourceName(StepSet::Source::Annotation)));
    // The one step rule: each step runs from the previous step's end (the 1 ms between ranges belongs to the next
    // step), the first from its own start: 9 + 10 + 10 ms over 3 steps; each range outlasts its kernel.
    EXPECT_NEAR(report.meanStepMs, 29.0 / 3.0, 1e-6);
    EXPECT_EQ(report.stepTimeHow, "set by the host");
}

TEST(FindingsSteps, RepeatingKernelPattern)
{
    TraceBuilder t("pattern");
    const char* seq[] = { "embed", "gemm", "relu", "gemm", "relu", "loss" };
    int64_t time = 0;
    for (int n = 0; n < 4; ++n)
        for (const char* k : seq) {
            t.kernel(time, time + 100 * kUs, k, time - kMs);
            time += 150 * kUs;
        }
    auto report = t.analyze();
    EXPECT_EQ(report.stepSource, std::string(stepSourceName(StepSet::Source::KernelPattern)));
    EXPECT_EQ(report.stepCount, 4);
    EXPECT_NE(report.stepDescription.find("every 6 kernels"), std::string::npos) << report.stepDescription;
}

TEST(FindingsSteps, WholeTraceWithoutSteps)
{
    TraceBuilder t("whole");
    t.kernel(0, kMs, "a", 0);
    t.kernel(2 * kMs, 3 * kMs, "b", 0);
    auto report = t.analyze();
    EXPECT_EQ(report.stepCount, 1);
    EXPECT_NEAR(report.meanStepMs, 3.0, 1e-9);
}

TEST(FindingsSteps, EmptyAndCpuOnlyTracesGiveNoFindings)
{
    {
        TraceBuilder t("empty");
        auto report = t.analyze();
        EXPECT_TRUE(report.findings.empty()) << ruleIds(report);
        EXPECT_EQ(report.stepCount, 0);
        EXPECT_FALSE(renderHtmlReport(report).empty());
    }
    TraceBuilder t("cpuonly");
    t.hostOp(0, 5 * kMs, "aten::matmul");
    t.hostOp(5 * kMs, 9 * kMs, "aten::add");
    auto report = t.analyze();
    EXPECT_TRUE(report.findings.empty()) << ruleIds(report);
    EXPECT_TRUE(report.devices.empty());
}

TEST(FindingsSteps, ApiVersionSuffixes)
{
    EXPECT_EQ(apiBaseName("cudaMemcpy_v3020"), "cudaMemcpy");
    EXPECT_EQ(apiBaseName("cuMemAlloc_v2"), "cuMemAlloc");
    EXPECT_EQ(apiBaseName("cudaLaunchKernel"), "cudaLaunchKernel");
    EXPECT_EQ(apiBaseName("my_vx"), "my_vx");
}

} // namespace
} // namespace placescope::testing
