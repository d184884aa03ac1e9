// SPDX-License-Identifier: MIT
// Edits on framework ops (issue 25): drop:op:NAME removes an op with its CPU time, its calls and their GPU work,
// and every edit says what it matched. Answers worked out by hand, held to 2 %.
#include "tests/analysis/findings/trace_builder.h"
#include "tests/whatif/replay/whatif_fixture.h"

namespace placescope::testing {
namespace {

// Two steps of 700 us. Step k at t0 = 700k us:
//   cudaGetDevice [t0, t0+2]
//   aten::relu [t0+100, t0+130]: launch [t0+110, t0+115] -> relu_kernel [t0+120, t0+620]
//   cudaDeviceSynchronize [t0+200, t0+622], 78 us of CPU, the next step.
void writeReluSteps(TraceBuilder& b)
{
    for (int64_t k = 0; k < 2; ++k) {
        const int64_t t0 = k * 700 * kUs;
        b.api(t0, t0 + 2 * kUs, "cudaGetDevice");
        b.hostOp(t0 + 100 * kUs, t0 + 130 * kUs, "aten::relu", "cpu_op", "[[1024, 1024]]");
        b.kernel(t0 + 120 * kUs, t0 + 620 * kUs, "relu_kernel", t0 + 110 * kUs);
        b.api(t0 + 200 * kUs, t0 + 622 * kUs, "cudaDeviceSynchronize");
        b.step(k, t0, t0 + 700 * kUs);
    }
    ASSERT_TRUE(b.writer().commit().isOk());
}

// drop:op:aten::relu: the launch and the kernel go, and so do the op's 30 us on the host: the sync follows
// cudaGetDevice by its measured 198 us less those 30, at t0+170, has nothing left to wait for (its own 2 us) and
// ends at t0+172; the next step starts 78 us later: a 250 us step.
// drop:relu_kernel (GPU ops only) keeps the op's 25 us of CPU around its launch: the launch call goes to 0 at
// t0+110, the sync starts 85 us after it at t0+195 and ends at t0+197: a 275 us step.
TEST(WhatIfOpEdits, DroppingAnOpRemovesItsCpuTimeToo)
{
    TraceBuilder b("dropop");
    writeReluSteps(b);
    WhatIfRun op = runEdits(b.path(), { "drop:op:aten::relu" });
    ASSERT_EQ(op.result.edits.size(), 1u);
    EXPECT_EQ(op.result.edits[0].matched, 2);
    EXPECT_EQ(op.result.edits[0].matchedWhat, "2 ops, 2 CUDA calls, 2 GPU ops");
    EXPECT_EQ(op.result.replay.stepNs, 700 * kUs);
    EXPECT_NEAR(static_cast<double>(op.result.predicted.stepNs), 250.0 * kUs, 0.02 * 250 * kUs);
    EXPECT_NE(whatIfText(op.result, op.trace).find("matched 2 ops, 2 CUDA calls, 2 GPU ops"), std::string::npos);
    // The CLI's way (the trace loaded for a replay, events from the store) reads the ops for this edit too.
    WhatIfRun cli = runEditsFromStore(b.path(), { "drop:op:aten::relu" });
    EXPECT_EQ(cli.result.predicted.stepNs, op.result.predicted.stepNs);

    WhatIfRun kernels = runEdits(b.path(), { "drop:relu_kernel" });
    EXPECT_EQ(kernels.result.edits[0].matchedWhat, "2 GPU ops");
    EXPECT_NEAR(static_cast<double>(kernels.result.predicted.stepNs), 275.0 * kUs, 0.02 * 275 * kUs);

    WhatIfRun none = runEdits(b.path(), { "drop:op:aten::conv2d" });
    EXPECT_EQ(none.result.edits[0].matched, 0);
    EXPECT_EQ(none.result.predicted.stepNs, none.result.replay.stepNs);
}

} // namespace
} // namespace placescope::testing
