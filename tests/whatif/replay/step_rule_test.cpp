// SPDX-License-Identifier: MIT
// The one step rule (analysis/trace/step_times.h) in the replay: a step lasts until the later of its host range and
// the GPU work launched in it, so a GPU edit shortens a GPU-bound step and not a host-bound one. Each trace is made
// for the case and its answer worked out by hand in the comments; every prediction is held to 2 % of that answer, and
// `analyze` must give the same measured step as the replay.
#include "tests/analysis/findings/trace_builder.h"
#include "tests/whatif/replay/whatif_fixture.h"

#include <cmath>

namespace placescope::testing {
namespace {

// Within 2 % of the hand answer.
void expectNear(int64_t actualNs, double expectedNs, const char* what)
{
    EXPECT_LE(std::abs(static_cast<double>(actualNs) - expectedNs), 0.02 * expectedNs)
        << what << ": " << actualNs << " ns, worked out by hand " << expectedNs << " ns";
}

// The step `analyze` reports for the file (committing what the builder holds).
double analyzedStepNs(TraceBuilder& b) { return b.analyze().meanStepMs * 1e6; }

// (a) GPU-bound, no sync: 4 host steps of 2.5 ms, each launching one 10 ms sgemm at 100 us into the step; the host
// has launched every step by 10 ms, while the GPU runs them back to back from 110 us (10 us launch latency):
// kernel k = [110 us + 10k ms, 10.11 ms + 10k ms]. Every step ends with its kernel: ends 10.11, 20.11, 30.11,
// 40.11 ms; times 10.11, 10, 10, 10 ms (mean 10.0275 ms). sgemm x0.5: kernel k = [110 us + 5k, 5.11 + 5k] ms,
// still after each host range's end (2.5k + 2.5 ms): times 5.11, 5, 5, 5 ms, mean 5.0275 ms: the steady step halves.
TEST(StepRule, GpuBoundStepFollowsTheGpu)
{
    TraceBuilder b("rule_gpu_bound");
    for (int k = 0; k < 4; ++k) {
        const int64_t t0 = k * 2500 * kUs;
        b.kernel(110 * kUs + k * 10 * kMs, 10110 * kUs + k * 10 * kMs, "volta_sgemm_128x64_nn", t0 + 100 * kUs);
        b.step(k, t0, t0 + 2500 * kUs);
    }
    const double analyzed = analyzedStepNs(b); // (writes the file)
    WhatIfRun run = runEdits(b.path(), { "kernels:sgemm=x0.5" });
    expectNear(run.result.measured.stepNs, 10.0275 * kMs, "measured");
    EXPECT_EQ(run.result.replay.stepNs, run.result.measured.stepNs);
    expectNear(run.result.predicted.stepNs, 5.0275 * kMs, "predicted");
    ASSERT_EQ(run.result.predicted.steps.steps.size(), 4u);
    for (size_t k = 1; k < 4; ++k)
        expectNear(run.result.predicted.steps.steps[k].durationNs, 5.0 * kMs, "steady step");
    EXPECT_EQ(run.result.measured.steps.how(), "set by the GPU");
    EXPECT_EQ(run.result.predicted.steps.how(), "set by the GPU");
    expectNear(static_cast<int64_t>(analyzed), static_cast<double>(run.result.measured.stepNs), "analyze");
}

// (b) Host-bound: 4 host steps of 20 ms, each launching a 5 ms kernel 1 ms in ([1.01, 6.01] ms into the step). Every
// range outlasts its kernel: the step is the host's 20 ms, and halving the kernel saves nothing.
TEST(StepRule, HostBoundStepIgnoresAFasterGpu)
{
    TraceBuilder b("rule_host_bound");
    for (int k = 0; k < 4; ++k) {
        const int64_t t0 = k * 20 * kMs;
        b.kernel(t0 + 1010 * kUs, t0 + 6010 * kUs, "volta_sgemm_128x64_nn", t0 + 1 * kMs);
        b.step(k, t0, t0 + 20 * kMs);
    }
    const double analyzed = analyzedStepNs(b); // (writes the file)
    WhatIfRun run = runEdits(b.path(), { "kernels:sgemm=x0.5" });
    expectNear(run.result.measured.stepNs, 20.0 * kMs, "measured");
    expectNear(run.result.predicted.stepNs, 20.0 * kMs, "predicted");
    EXPECT_EQ(run.result.predicted.stepNs, run.result.replay.stepNs);
    EXPECT_EQ(run.result.predicted.steps.how(), "set by the host");
    expectNear(static_cast<int64_t>(analyzed), static_cast<double>(run.result.measured.stepNs), "analyze");
}

// (c) A sync per step: 5 ms of CPU, launch [5000, 5005] us, kernel [5010, 15010] us, cudaDeviceSynchronize
// [5020, 15012] us (wakes 2 us after the kernel), 8 us of CPU to the step's end: step = 5 ms host + 10 ms GPU +
// 20 us = 15.02 ms. Halving the kernel: it ends at 10010 us, the sync at 10012, the step at 10020 us: saves half the
// GPU time (5 ms).
TEST(StepRule, SyncedStepIsHostPlusGpu)
{
    TraceBuilder b("rule_synced");
    for (int k = 0; k < 4; ++k) {
        const int64_t t0 = k * 15020 * kUs;
        b.kernel(t0 + 5010 * kUs, t0 + 15010 * kUs, "volta_sgemm_128x64_nn", t0 + 5000 * kUs);
        b.api(t0 + 5020 * kUs, t0 + 15012 * kUs, "cudaDeviceSynchronize");
        b.step(k, t0, t0 + 15020 * kUs);
    }
    const double analyzed = analyzedStepNs(b); // (writes the file)
    WhatIfRun run = runEdits(b.path(), { "kernels:sgemm=x0.5" });
    expectNear(run.result.measured.stepNs, 15020.0 * kUs, "measured");
    expectNear(run.result.predicted.stepNs, 10020.0 * kUs, "predicted");
    EXPECT_EQ(run.result.predicted.steps.how(), "set by the host");
    expectNear(static_cast<int64_t>(analyzed), static_cast<double>(run.result.measured.stepNs), "analyze");
}

// (d) CPU after the step's last CUDA call counts: launch [1000, 1005] us, kernel [1010, 5010] us, sync
// [1020, 5012] us, then 5988 us of CPU (framework ops, the optimizer's Python) to the range's end at 11 ms. Halving the
// kernel ends the sync at 3012 us; the CPU tail keeps its length: step 3012 + 5988 = 9000 us (11 ms measured).
TEST(StepRule, CpuTailAfterTheLastCudaCallCounts)
{
    TraceBuilder b("rule_cpu_tail");
    for (int k = 0; k < 4; ++k) {
        const int64_t t0 = k * 11 * kMs;
        b.kernel(t0 + 1010 * kUs, t0 + 5010 * kUs, "volta_sgemm_128x64_nn", t0 + 1000 * kUs);
        b.api(t0 + 1020 * kUs, t0 + 5012 * kUs, "cudaDeviceSynchronize");
        b.hostOp(t0 + 5012 * kUs, t0 + 11 * kMs, "Optimizer.step#SGD.step", "user_annotation");
        b.step(k, t0, t0 + 11 * kMs);
    }
    const double analyzed = analyzedStepNs(b); // (writes the file)
    WhatIfRun run = runEdits(b.path(), { "kernels:sgemm=x0.5" });
    expectNear(run.result.measured.stepNs, 11000.0 * kUs, "measured");
    expectNear(run.result.predicted.stepNs, 9000.0 * kUs, "predicted");
    expectNear(static_cast<int64_t>(analyzed), static_cast<double>(run.result.measured.stepNs), "analyze");
}

// The first step is edited like the others: 4 steps of 10 ms, each loading its batch for 4 ms (a DataLoader range
// from the step's start), then launch [4000, 4005] us, kernel [4010, 5010] us, sync [4020, 5012] us and CPU to the
// step's end. input=x0.5 takes 2 ms off every step, the first included (its first call starts 2 ms earlier; the
// step's start stays): the last step ends at 32 ms, mean 8 ms. Were the first call pinned to its measured start, the
// mean would be 8.5 ms. (Where a step ends inside a gap the edit shrank, the boundary is placed in proportion, so
// single steps differ; their sum, first start to last end, does not.)
TEST(StepRule, InputEditShortensTheFirstStepToo)
{
    TraceBuilder b("rule_first_step");
    for (int k = 0; k < 4; ++k) {
        const int64_t t0 = k * 10 * kMs;
        b.hostOp(t0, t0 + 4 * kMs, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation");
        b.kernel(t0 + 4010 * kUs, t0 + 5010 * kUs, "volta_sgemm_128x64_nn", t0 + 4000 * kUs);
        b.api(t0 + 4020 * kUs, t0 + 5012 * kUs, "cudaDeviceSynchronize");
        b.step(k, t0, t0 + 10 * kMs);
    }
    const double analyzed = analyzedStepNs(b); // (writes the file)
    WhatIfRun run = runEdits(b.path(), { "input=x0.5" });
    ASSERT_EQ(run.result.edits.size(), 1u);
    EXPECT_EQ(run.result.edits[0].matched, 4); // the first call's 4 ms before it, and the 3 gaps after
    expectNear(run.result.measured.stepNs, 10.0 * kMs, "measured");
    expectNear(run.result.predicted.stepNs, 8.0 * kMs, "predicted");
    expectNear(static_cast<int64_t>(analyzed), static_cast<double>(run.result.measured.stepNs), "analyze");
}

// The rule itself: a step that ends with GPU work launched in it ends there; the time is the gap between step ends.
TEST(StepRule, TimesAreGapsBetweenStepEnds)
{
    std::vector<StepTime> steps = { { 1, 7, 0, 10, 25 }, { 2, 7, 10, 20, 30 }, { 3, 7, 20, 40, 35 } };
    const StepTimes times = timeSteps(steps, true);
    ASSERT_EQ(times.steps.size(), 3u);
    EXPECT_EQ(times.steps[0].endNs, 25); // the GPU's end
    EXPECT_EQ(times.steps[0].durationNs, 25); // the first step: from its own start
    EXPECT_EQ(times.steps[1].durationNs, 5); // 30 - 25
    EXPECT_EQ(times.steps[2].endNs, 40); // the host's end
    EXPECT_EQ(times.steps[2].durationNs, 10);
    EXPECT_EQ(times.meanNs(), 40 / 3);
    EXPECT_EQ(times.how(), "set by the GPU in 2 of 3 steps, by the host in 1");
}

} // namespace
} // namespace placescope::testing
