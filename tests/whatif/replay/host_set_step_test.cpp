// SPDX-License-Identifier: MIT
// The bundled V100 sample is host-bound: each ProfilerStep's host range ends 0.2-0.3 ms after the GPU finishes the
// step's work, the GPU is busy about 190 of 345 ms per step, and no CUDA call in it waits for the GPU (the longest
// takes 77 us; worked out from the JSON with a few lines of Python over its kernel and runtime events). So halving
// its fp32 GEMMs must leave the step where it is, and the output must say why. Made GPU-bound by slowing every
// kernel threefold, the same trace's step follows the GPU, and halving the GEMMs then shortens it.
#include "profiler/base/units.h"
#include "profiler/importers/importer.h"
#include "tests/support/temp_dir.h"
#include "tests/whatif/replay/whatif_fixture.h"

#include <cmath>

namespace placescope::testing {
namespace {

class HostSetStep : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        folder = new TempDir("ps_host_set_step");
        path = folder->file("v100.sqlite");
        auto imported = importTraces(
            { std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_v100_rank1of2_memory.json.gz" }, path, ImportOptions {});
        ASSERT_TRUE(imported.isOk()) << imported.status().message();
    }
    static void TearDownTestSuite()
    {
        delete folder;
        folder = nullptr;
    }
    static TempDir* folder;
    static std::string path;
};
TempDir* HostSetStep::folder = nullptr;
std::string HostSetStep::path;

TEST_F(HostSetStep, HalvingTheGemmsOfAHostBoundRunSavesNothingAndSaysWhy)
{
    const WhatIfResult r = runEdits(path, { "kernels:sgemm=x0.5" }).result;
    ASSERT_GT(r.stepCount, 0);
    EXPECT_EQ(r.predicted.steps.setByGpuCount(), 0) << r.predicted.steps.how();
    const int64_t gpuTaken
        = WhatIfResult::perStep(totalNs(r.measuredClassNs) - totalNs(r.predictedClassNs), r.stepCount);
    EXPECT_GT(gpuTaken, 30'000'000) << "about 40 ms of sgemm per step comes off the GPU";
    EXPECT_LT(std::llabs(r.replay.stepNs - r.predicted.stepNs), r.replay.stepNs / 100) << "the step stays";
    const std::string saving = stepSavingText(r);
    EXPECT_NE(saving.find("every step is set by the host"), std::string::npos) << saving;
    EXPECT_NE(saving.find(formatNanoseconds(static_cast<double>(gpuTaken)) + " per step taken off the GPU"),
        std::string::npos)
        << saving;
}

TEST_F(HostSetStep, MadeGpuBoundTheSameTraceFollowsTheGpu)
{
    const WhatIfResult slow = runEdits(path, { "kernels:.=x3" }).result;
    EXPECT_EQ(slow.predicted.steps.setByGpuCount(), static_cast<int64_t>(slow.predicted.steps.steps.size()))
        << slow.predicted.steps.how();
    // GPU-bound: the step is about the GPU's work per step (kernels x3, copies and memsets as they were).
    const double gpuPerStep
        = static_cast<double>(WhatIfResult::perStep(totalNs(slow.predictedClassNs), slow.stepCount));
    EXPECT_NEAR(static_cast<double>(slow.predicted.stepNs), gpuPerStep, 0.10 * gpuPerStep);

    const WhatIfResult halved = runEdits(path, { "kernels:.=x3", "kernels:sgemm=x0.5" }).result;
    const int64_t gemmTaken
        = WhatIfResult::perStep(totalNs(slow.predictedClassNs) - totalNs(halved.predictedClassNs), halved.stepCount);
    const int64_t saving = slow.predicted.stepNs - halved.predicted.stepNs;
    EXPECT_GT(gemmTaken, 100'000'000) << "sgemm x3 is about 240 ms per step; halved, 120 ms comes off";
    // Worked out by hand: a GPU-bound step shrinks by the GPU work taken off it, less what the host then sets.
    EXPECT_GT(saving, gemmTaken / 2) << "saving " << saving << " of " << gemmTaken;
    EXPECT_LE(saving, gemmTaken + gemmTaken / 100);
    EXPECT_EQ(hostSetStepText(halved), "") << "a step that follows the GPU needs no excuse";
}

} // namespace
} // namespace placescope::testing
