// SPDX-License-Identifier: MIT
// op:NAME=gpu on a host op between a DtoH copy and an HtoD copy of the same size (a CPU fallback, issue 28): the
// round trip goes with the op, whose measured host time runs as a kernel on the GPU (whatif/move_op_round_trip.h).
// The CPU-fallback finding's simulated saving is this edit's. Answers worked out by hand.
#include "analysis/findings/analyzer.h"
#include "profiler/importers/importer.h"
#include "tests/analysis/findings/trace_builder.h"
#include "tests/whatif/replay/whatif_fixture.h"
#include "whatif/replay_saving_simulator.h"

#include <filesystem>
#include <unistd.h>

namespace placescope::testing {
namespace {

int64_t busyOf(const WhatIfResult& r, const std::string& lane, bool predicted)
{
    for (const LaneBusy& l : r.lanes)
        if (l.label == lane)
            return predicted ? l.predictedNs : l.measuredNs;
    ADD_FAILURE() << "no lane " << lane;
    return -1;
}

// One step [0, 900 us], one thread, one stream:
//   launch [0, 5] -> kernel A [10, 300]
//   cudaMemcpy DtoH [20, 312] (blocking) -> copy [300, 310], 4 KiB
//   aten::nonzero on the host [320, 520]
//   cudaMemcpyAsync HtoD [530, 540] -> copy [545, 555], 4 KiB
//   launch [550, 555] -> kernel B [560, 900]
// op:aten::nonzero=gpu: the DtoH call and both copies go; the HtoD call follows the launch by its measured 218 us
// less the op's 200 at 23 us and launches the op's kernel, 200 us (its host time, speedup 1), queued after A:
// [300, 500]; the last launch follows 10 us later and B runs after the op's kernel: [500, 840]. The host range of
// the step ends 345 us after the last call (at 393 us): the GPU sets the step, 840 us, 60 us less (the copies' 20
// and the GPU's 240 idle, less the op's 200 now on the GPU).
void writeFallbackStep(TraceBuilder& b)
{
    b.kernel(10 * kUs, 300 * kUs, "kernel_a", 0);
    b.copy(300 * kUs, 310 * kUs, CopyKind::DtoH, 4096, MemKind::Pageable, "cudaMemcpy", 20 * kUs, 312 * kUs);
    b.hostOp(320 * kUs, 520 * kUs, "aten::nonzero");
    b.copy(545 * kUs, 555 * kUs, CopyKind::HtoD, 4096, MemKind::Pinned, "cudaMemcpyAsync", 530 * kUs, 540 * kUs);
    b.kernel(560 * kUs, 900 * kUs, "kernel_b", 550 * kUs);
    b.step(0, 0, 900 * kUs);
}

TEST(WhatIfRoundTripMove, TheRoundTripGoesWithTheOp)
{
    TraceBuilder b("roundtrip_move");
    writeFallbackStep(b);
    ASSERT_TRUE(b.writer().commit().isOk());
    WhatIfRun run = runEdits(b.path(), { "op:aten::nonzero=gpu" });
    ASSERT_EQ(run.result.edits.size(), 1u);
    EXPECT_EQ(run.result.edits[0].matched, 1) << run.result.edits[0].how;
    EXPECT_NE(run.result.edits[0].how.find("2 copies, 8.00 KiB"), std::string::npos) << run.result.edits[0].how;
    EXPECT_EQ(run.result.replay.stepNs, 900 * kUs);
    EXPECT_EQ(run.result.predicted.stepNs, 840 * kUs);
}

// analyze: the CPU-fallback finding proposes the edit, and its simulated saving is the 60 us above.
TEST(WhatIfRoundTripMove, TheFallbackFindingShowsTheSimulatedSaving)
{
    TraceBuilder b("roundtrip_finding");
    writeFallbackStep(b);
    ReplaySavingSimulator simulator;
    AnalysisOptions options;
    options.simulator = &simulator;
    AnalysisReport report = b.analyze(options);
    const Finding* f = findRule(report, "placement.cpu_fallback");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    EXPECT_EQ(f->saving.proposedEdit, "op:aten::nonzero=gpu");
    ASSERT_TRUE(f->saving.simulated);
    EXPECT_EQ(f->saving.simulatedEdit, "op:aten::nonzero=gpu");
    EXPECT_DOUBLE_EQ(f->saving.simulatedMs, 0.060);
}

// The TF BERT V100 step (tests/data/traces/tf_bert_v100_step_excerpt.xplane.pb). Identity_2:Identity ran on the host
// on thread 20 (tid 487892) at [1929446162, 1929449348] ns, between five 6144/16 B DtoH copies (stream 136) and five
// HtoD copies (stream 135). The next HtoD its thread launched is correlation 313 (call [1929471275, 1929483055], copy
// 4256 ns, 6144 B); the pairing gives that copy the 6144 B DtoH of correlation 258 (copy 3616 ns; its call
// [1928432591, 1928443988], 11397 ns). Worked out from the imported tables with sqlite3:
//   stream 135 loses 4256 ns, stream 136 3616 ns, thread 20 the 11397 ns of the DtoH's call; stream 134 (665
//   kernels) gains the op's kernel: 3186 ns of host time at speedup 1, raised to the GPU's 5 us launch overhead.
// The step does not change: thread 19 launched every kernel and the GPU ran them back to back while thread 20 made the
// round trip, so the round trip was off the step's critical path (the GPU's 5 us more fit in the slack before the step
// ends). Identity_2's other occurrence, on thread 3 at 1926.7 ms, has no round trip around it and is moved the plain
// way (its inputs up, the host waits for its result), which costs thread 3 time but not the step.
TEST(WhatIfRoundTripMove, TensorFlowBertRoundTripIsOffTheCriticalPath)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ps_roundtrip_bert_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "run.sqlite").string();
    auto imported = importTraces(
        { std::string(PLACESCOPE_DATA_DIR) + "/traces/tf_bert_v100_step_excerpt.xplane.pb" }, path, ImportOptions {});
    ASSERT_TRUE(imported.isOk()) << imported.status().message();
    WhatIfRun run = runEdits(path, { "op:Identity_2:Identity=gpu" });
    const WhatIfResult& r = run.result;
    ASSERT_EQ(r.edits.size(), 1u);
    EXPECT_EQ(r.edits[0].matched, 2) << r.edits[0].how;
    EXPECT_NE(r.edits[0].how.find("round trip around 1 occurrence(s) removed (2 copies, 12.00 KiB"), std::string::npos)
        << r.edits[0].how;
    EXPECT_EQ(busyOf(r, "GPU 4 stream 135", false) - busyOf(r, "GPU 4 stream 135", true), 4256);
    EXPECT_EQ(busyOf(r, "GPU 4 stream 136", false) - busyOf(r, "GPU 4 stream 136", true), 3616);
    EXPECT_EQ(busyOf(r, "thread 20", false) - busyOf(r, "thread 20", true), 11397);
    EXPECT_EQ(busyOf(r, "GPU 4 stream 134", true) - busyOf(r, "GPU 4 stream 134", false), 5000);
    EXPECT_EQ(r.replay.stepNs, 19865491);
    EXPECT_EQ(r.predicted.stepNs, r.replay.stepNs);
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace placescope::testing
