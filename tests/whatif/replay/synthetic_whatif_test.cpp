// SPDX-License-Identifier: MIT
// What-if on purpose-made traces whose predictions are worked out by hand in the comments.
#include "tests/analysis/findings/trace_builder.h"
#include "tests/whatif/replay/whatif_fixture.h"

#include "placement/cost/device_table.h"
#include "placement/cost/link_model.h"
#include "placement/cost/op_work.h"
#include "placement/cost/roofline.h"
#include "whatif/prediction_file.h"
#include "whatif/replay_saving_simulator.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace placescope::testing {
namespace {

// Three steps of 420 us on one thread and one stream. Step k starts at t0 = 420k us:
//   launch A [t0, t0+5]   -> kernel "nchwToNhwc" [t0+10, t0+110]   (launched onto an idle stream: 10 us latency)
//   launch B [t0+10, t0+15] -> kernel "gemm" [t0+110, t0+410]       (queued behind A)
//   cudaDeviceSynchronize [t0+20, t0+412]                           (waits for B; wakes 2 us after it)
//   8 us of CPU, then the next step.
// Measured: step 420 us; span = the last step's end (its 8 us of CPU after the last sync count) = 1260 us.
void writeSyncedSteps(TraceBuilder& b)
{
    for (int k = 0; k < 3; ++k) {
        const int64_t t0 = k * 420 * kUs;
        b.kernel(t0 + 10 * kUs, t0 + 110 * kUs, "nchwToNhwcKernel", t0);
        b.kernel(t0 + 110 * kUs, t0 + 410 * kUs, "gemm_128x128", t0 + 10 * kUs);
        b.api(t0 + 20 * kUs, t0 + 412 * kUs, "cudaDeviceSynchronize");
        b.step(k, t0, t0 + 420 * kUs);
    }
    ASSERT_TRUE(b.writer().commit().isOk());
}

TEST(WhatIfSynthetic, ReplayReproducesTheMeasuredRun)
{
    TraceBuilder b("replay");
    writeSyncedSteps(b);
    WhatIfRun run = runEdits(b.path(), {});
    EXPECT_EQ(run.result.stepCount, 3);
    EXPECT_EQ(run.result.measured.stepNs, 420 * kUs);
    EXPECT_EQ(run.result.measured.spanNs, 1260 * kUs);
    EXPECT_EQ(run.result.replay.stepNs, 420 * kUs);
    EXPECT_EQ(run.result.replay.spanNs, 1260 * kUs);
    EXPECT_EQ(run.result.predicted.stepNs, run.result.replay.stepNs); // no edit: predicted = replay
    EXPECT_EQ(run.result.quality.hostWaits, 3);
    EXPECT_EQ(run.result.quality.launchFloorNs, 10 * kUs);
}

// no-sync: each sync takes its own cost (2 us: no call of its name returned at once), so the host runs ahead: its
// step ranges last 20 + 2 + 8 = 30 us (launch A to the next launch A). The GPU runs the kernels back to back: A0 [10,
// 110], B0 [110, 410], A1 [410, 510], ... B2 ends at 1210 us = the span. The step follows the GPU (the one step rule:
// it ends with the GPU work launched in it): ends at 410, 810, 1210 us, times 410, 400, 400 us, mean 1210 / 3 us.
TEST(WhatIfSynthetic, RemovingTheSyncFreesTheHost)
{
    TraceBuilder b("nosync");
    writeSyncedSteps(b);
    WhatIfRun run = runEdits(b.path(), { "no-sync" });
    ASSERT_EQ(run.result.edits.size(), 1u);
    EXPECT_EQ(run.result.edits[0].matched, 3);
    EXPECT_EQ(run.result.predicted.stepNs, 1210 * kUs / 3);
    EXPECT_EQ(run.result.predicted.steps.how(), "set by the GPU");
    EXPECT_EQ(run.result.predicted.spanNs, 1210 * kUs);
}

// kernels:gemm=x0.5: B takes 150 us, ends at t0 + 260, the sync at t0 + 262, the next step starts 8 us later:
// step 270 us, span 540 + 270 = 810 us (to the last step's end).
TEST(WhatIfSynthetic, HalvingAKernel)
{
    TraceBuilder b("halve");
    writeSyncedSteps(b);
    WhatIfRun run = runEdits(b.path(), { "kernels:gemm=x0.5" });
    EXPECT_EQ(run.result.edits[0].matched, 3);
    EXPECT_EQ(run.result.predicted.stepNs, 270 * kUs);
    EXPECT_EQ(run.result.predicted.spanNs, 810 * kUs);
}

// drop:nchwToNhwc: A and its launch go (the launch call takes 0); launch B starts 5 us into the step (its measured
// gap), B starts 10 us (the launch floor) after it at t0 + 15 and ends at t0 + 315; the sync ends at t0 + 317 and
// the next step starts at t0 + 325: step 325 us, span 650 + 325 = 975 us (to the last step's end).
TEST(WhatIfSynthetic, DroppingAConversionKernel)
{
    TraceBuilder b("drop");
    writeSyncedSteps(b);
    WhatIfRun run = runEdits(b.path(), { "drop:nchwToNhwc" });
    EXPECT_EQ(run.result.edits[0].matched, 3);
    EXPECT_EQ(run.result.predicted.stepNs, 325 * kUs);
    EXPECT_EQ(run.result.predicted.spanNs, 975 * kUs);
}

TEST(WhatIfSynthetic, EditsCombine)
{
    TraceBuilder b("combine");
    writeSyncedSteps(b);
    // Without the sync and with half the gemm: the GPU runs A, B back to back: 3 x (100 + 150) = 750 us from 10 us;
    // the steps follow it (ends 260, 510, 760 us): mean 760 / 3 us.
    WhatIfRun run = runEdits(b.path(), { "no-sync", "kernels:gemm=x0.5" });
    EXPECT_EQ(run.result.predicted.stepNs, 760 * kUs / 3);
    EXPECT_EQ(run.result.predicted.spanNs, 760 * kUs);
}

TEST(WhatIfSynthetic, AnEditThatMatchesNothingSaysSoAndChangesNothing)
{
    TraceBuilder b("nomatch");
    writeSyncedSteps(b);
    WhatIfRun run = runEdits(b.path(), { "drop:no_such_kernel", "pinned" });
    ASSERT_EQ(run.result.edits.size(), 2u);
    for (const EditOutcome& e : run.result.edits) {
        EXPECT_EQ(e.matched, 0) << e.text;
        EXPECT_NE(e.how.find("matched nothing"), std::string::npos) << e.how;
    }
    EXPECT_EQ(run.result.predicted.stepNs, run.result.replay.stepNs);
    EXPECT_EQ(run.result.predicted.spanNs, run.result.replay.spanNs);
}

TEST(WhatIfSynthetic, MalformedEditsAreOneLineErrors)
{
    for (const char* text :
        { "bogus", "kernels:gemm", "kernels:gemm=xfast", "launch=x-1", "drop:(", "op:relu=tpu", "no-sync:a**",
            "kernels:(?<=x)y=x2", "workers=0", "workers=257", "workers= 3", "workers=2x", "workers=-1", "workers=" }) {
        auto edit = parseEdit(text);
        ASSERT_FALSE(edit.isOk()) << text;
        EXPECT_EQ(edit.status().message().find('\n'), std::string::npos) << edit.status().message();
    }
    EXPECT_TRUE(parseEdit("kernels:a=b=x2").isOk()); // the factor follows the last '='
    EXPECT_TRUE(parseEdit("no-sync:cudaStreamSynchronize").isOk());
    ASSERT_TRUE(parseEdit("workers=256").isOk());
    EXPECT_EQ(parseEdit("workers=4")->factor, 4.0);
}

// Regexes that made std::regex recurse once per character of a 200 kB kernel name (SIGSEGV in whatif and the app)
// or backtrack for minutes: each answers, and matches what it says. Three kernels carry the huge name.
TEST(WhatIfSynthetic, AnyRegexOnAHugeKernelNameAnswers)
{
    TraceBuilder b("huge_name");
    const std::string huge = "void at::native::gemm_kernel<" + std::string(200000, 'a') + ">";
    for (int k = 0; k < 3; ++k)
        b.kernel(k * kMs + 10 * kUs, k * kMs + 500 * kUs, huge, k * kMs);
    ASSERT_TRUE(b.writer().commit().isOk());
    const std::vector<std::pair<std::string, int64_t>> cases = { { "kernels:.*=x0.5", 3 }, { "kernels:(a|b)*=x0.5", 3 },
        { "kernels:(a*)*b=x0.5", 0 }, { "kernels:(a|aa)*c$=x0.5", 0 }, { "drop:.*gemm.*", 3 } };
    for (const auto& [text, matched] : cases) {
        WhatIfRun run = runEdits(b.path(), { text });
        ASSERT_EQ(run.result.edits.size(), 1u) << text;
        EXPECT_EQ(run.result.edits[0].matched, matched) << text;
    }
}

// The critical path of the replay: per step, launch A's 5 us... the GPU chain decides: the sync's end waits for B,
// B waits for A on its stream, A for its launch. Kernels make up 300 + 100 us of each step's 420.
TEST(WhatIfSynthetic, CriticalPathGoesThroughTheWaitedKernels)
{
    TraceBuilder b("path");
    writeSyncedSteps(b);
    WhatIfRun run = runEdits(b.path(), {}, 1);
    const CriticalPath& path = run.result.replayPath;
    // Step 1 runs [420, 840] us; its last work is the sync ending at 832 us.
    EXPECT_EQ(path.startNs, 420 * kUs);
    EXPECT_EQ(path.endNs, 832 * kUs);
    EXPECT_EQ(path.categoryNs[static_cast<size_t>(PathCategory::Kernel)], 400 * kUs);
    EXPECT_EQ(path.categoryNs[static_cast<size_t>(PathCategory::Sync)], 2 * kUs);
    EXPECT_EQ(path.categoryNs[static_cast<size_t>(PathCategory::Launch)], 10 * kUs);
    int64_t sum = 0;
    for (int64_t ns : path.categoryNs)
        sum += ns;
    EXPECT_EQ(sum, path.lengthNs());
}

TEST(WhatIfSynthetic, AStepThatDoesNotExistIsAnError)
{
    TraceBuilder b("nostep");
    writeSyncedSteps(b);
    auto db = openTrace(b.path());
    ASSERT_TRUE(db.isOk());
    auto trace = TraceData::load(*db);
    ASSERT_TRUE(trace.isOk());
    WhatIfOptions options;
    options.criticalPathStep = 9;
    auto result = runWhatIf(*trace, detectSteps(*trace), options);
    ASSERT_FALSE(result.isOk());
    EXPECT_NE(result.status().message().find("step 9"), std::string::npos);
}

// No steps recorded: the whole trace is one step, from the first GPU work's start to the last GPU work's end (the
// window detectSteps and `analyze` use): 10 -> 230 us.
TEST(WhatIfSynthetic, ATraceWithoutSteps)
{
    TraceBuilder b("wholetrace");
    b.kernel(10 * kUs, 110 * kUs, "gemm", 0);
    b.api(20 * kUs, 112 * kUs, "cudaDeviceSynchronize");
    b.kernel(130 * kUs, 230 * kUs, "gemm", 120 * kUs);
    b.api(125 * kUs, 232 * kUs, "cudaDeviceSynchronize");
    ASSERT_TRUE(b.writer().commit().isOk());
    WhatIfRun run = runEdits(b.path(), { "kernels:gemm=x0.5" });
    EXPECT_EQ(run.result.stepCount, 1);
    EXPECT_EQ(run.result.measured.stepNs, 220 * kUs);
    EXPECT_EQ(run.result.replay.stepNs, 220 * kUs);
    // gemm 50 us: [10, 60], sync ends 62; the next launch starts 8 us after the sync ended (120 - 112), at 70, its
    // kernel 10 us later (launch latency) at 80, to 130: 10 -> 130 us.
    EXPECT_EQ(run.result.predicted.stepNs, 120 * kUs);
    EXPECT_EQ(run.result.predicted.steps.how(), "GPU time (no host step ranges)");
}

// Two ranks in one trace. Rank 0's gemm takes 500 us, rank 1's 100 us; both then run an all-reduce that ends when
// rank 0 arrives + 100 us: at 610 us on both. Halving the gemms: rank 0 arrives at 260, so rank 1's all-reduce
// (which started at 60) ends at 360, not 60 + its measured 500 us.
TEST(WhatIfSynthetic, CollectivesWaitForTheLastRank)
{
    TraceBuilder b("ranks");
    b.process(100, 0);
    b.process(200, 1);
    b.kernel(10 * kUs, 510 * kUs, "gemm", 0, 5 * kUs, 100);
    b.kernel(510 * kUs, 610 * kUs, "ncclKernel_AllReduce_RING_LL_Sum_float", 6 * kUs, 5 * kUs, 100);
    b.kernel(10 * kUs, 110 * kUs, "gemm", 0, 5 * kUs, 200);
    b.kernel(110 * kUs, 610 * kUs, "ncclKernel_AllReduce_RING_LL_Sum_float", 6 * kUs, 5 * kUs, 200);
    ASSERT_TRUE(b.writer().commit().isOk());
    WhatIfRun run = runEdits(b.path(), { "kernels:gemm=x0.5" });
    EXPECT_EQ(run.result.quality.collectives, 1);
    EXPECT_EQ(run.result.replay.spanNs, run.result.measured.spanNs);
    const ReplayGraph& g = run.result.predictedGraph;
    int checked = 0;
    for (size_t id = 0; id < g.tasks.size(); ++id)
        if (g.tasks[id].communication) {
            EXPECT_EQ(run.result.predictedSchedule.end[id], 360 * kUs) << g.lanes[g.tasks[id].lane].label;
            ++checked;
        }
    EXPECT_EQ(checked, 2);
}

// Pageable copies made pinned: the call no longer waits for its copy, and the copy takes the pinned link's time.
TEST(WhatIfSynthetic, PinnedCopiesStopBlockingTheHost)
{
    TraceBuilder b("pinned");
    for (int k = 0; k < 2; ++k) {
        const int64_t t0 = k * 1000 * kUs;
        // A 64 MB pageable HtoD copy: the call [t0, t0 + 900] returns when the copy [t0 + 10, t0 + 898] ends.
        b.copy(t0 + 10 * kUs, t0 + 898 * kUs, CopyKind::HtoD, 64 << 20, MemKind::Pageable, "cudaMemcpyAsync", t0,
            t0 + 900 * kUs);
        b.kernel(t0 + 905 * kUs, t0 + 995 * kUs, "gemm", t0 + 901 * kUs);
        b.step(k, t0, t0 + 1000 * kUs);
    }
    ASSERT_TRUE(b.writer().commit().isOk());
    WhatIfRun run = runEdits(b.path(), { "pinned" });
    EXPECT_EQ(run.result.replay.stepNs, 1000 * kUs);
    EXPECT_EQ(run.result.edits[0].matched, 2);
    // The builtin PCIe 4 x16 link (no pinned copies to fit): 64 MiB at 24 GB/s + 10 us = D = 2806.2 us, longer than
    // the pageable copy here; the host is freed but the GPU work is later. The copy's predicted length says so.
    // The step follows the GPU (the one step rule): copy 0 [10, 10 + D], gemm 0 90 us after it, copy 1 and gemm 1
    // queued behind: the steps end at 10 + D + 90 and 10 + 2 (D + 90) us, mean 5 + D + 90 us: longer than measured.
    const double copyUs = 10.0 + (64 << 20) / 24000.0;
    EXPECT_NEAR(static_cast<double>(run.result.predicted.stepNs), (5.0 + copyUs + 90.0) * 1000, 1000.0);
    EXPECT_EQ(run.result.predicted.steps.how(), "set by the GPU");
    const ReplayGraph& g = run.result.predictedGraph;
    for (size_t id = 0; id < g.tasks.size(); ++id)
        if (g.tasks[id].kind == TaskKind::Memcpy) {
            EXPECT_EQ(run.result.predictedSchedule.end[id] - run.result.predictedSchedule.start[id],
                std::llround((10.0 + (64 << 20) / 24000.0) * 1000));
        }
}

TEST(WhatIfSynthetic, PredictedTraceFileHoldsThePredictionAndNeverTheInput)
{
    TraceBuilder b("file");
    writeSyncedSteps(b);
    WhatIfRun run = runEdits(b.path(), { "drop:nchwToNhwc" });
    const std::string out = (b.dir() / "predicted.sqlite").string();
    ASSERT_TRUE(writePredictedTrace(b.path(), out, run.result).isOk());
    auto db = openTrace(out);
    ASSERT_TRUE(db.isOk()) << db.status().message();
    EXPECT_EQ(db->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").value(), 3);
    EXPECT_EQ(db->queryInt("SELECT COUNT(*) FROM PS_META WHERE key = 'predicted_edits' AND value = 'drop:nchwToNhwc'")
                  .value(),
        1);
    // The file's own steps give the predicted step back.
    EXPECT_EQ(db->queryInt("SELECT CAST(AVG(end - start) AS INTEGER) FROM PS_STEPS").value(), 325 * kUs);
    WhatIfRun reread = runEdits(out, {});
    EXPECT_EQ(reread.result.measured.stepNs, 325 * kUs);
    EXPECT_EQ(reread.result.measured.spanNs, 975 * kUs);
    // -o equal to the input is refused and leaves the input as it was.
    auto input = openTrace(b.path());
    const int64_t before = input->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").value();
    Status same = writePredictedTrace(b.path(), b.path(), run.result);
    EXPECT_FALSE(same.isOk());
    EXPECT_EQ(input->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").value(), before);
}

// op:aten::relu=cpu on one step [0, 700 us]: relu [100, 130] launches a 500 us kernel (launch [110, 115]); the host
// syncs [200, 622]; the step ends 78 us later. Moved to the CPU, the launch call becomes the op's CPU work (inputs
// down, relu, output up: `cost`), the kernel goes, the sync has nothing to wait for (its own 2 us): the step is
// 110 + cost + 85 + 2 + 78 us. The cost is the cost model's, computed here the way the edit documents it.
TEST(WhatIfSynthetic, MovingAnOpToTheCpu)
{
    TraceBuilder b("moveop");
    b.hostOp(100 * kUs, 130 * kUs, "aten::relu", "cpu_op", "[[1024, 1024]]");
    b.kernel(120 * kUs, 620 * kUs, "relu_kernel", 110 * kUs);
    b.api(200 * kUs, 622 * kUs, "cudaDeviceSynchronize");
    b.step(0, 0, 700 * kUs);
    ASSERT_TRUE(b.writer().commit().isOk());

    auto table = DeviceTable::builtin();
    ASSERT_TRUE(table.isOk());
    const DeviceSpec host = table->device("host").value();
    const LinkFit pcie = PcieModel::fromSpec(table->link("gen4_x16").value()).link(true, true);
    ModelGraph graph;
    for (const char* name : { "in0", "out" }) {
        ModelValue value;
        value.name = name;
        value.shape = { 1024, 1024 };
        value.shapeKnown = true;
        value.dtype = "float32";
        value.bytes = 4 << 20;
        graph.values.push_back(value);
    }
    graph.values.back().producer = 0;
    ModelOp relu;
    relu.name = relu.type = "aten::relu";
    relu.inputs = { 0 };
    relu.outputs = { 1 };
    graph.ops.push_back(relu);
    // rooflineUs counts the host's 2 us dispatch overhead once (it used to be added twice, issue 25).
    const double costUs = pcie.transferUs(4 << 20) + rooflineUs(opWork(graph, 0), host) + pcie.transferUs(4 << 20);
    EXPECT_DOUBLE_EQ(host.launchOverheadUs, 2.0);

    WhatIfRun run = runEdits(b.path(), { "op:aten::relu=cpu" });
    ASSERT_EQ(run.result.edits.size(), 1u);
    EXPECT_EQ(run.result.edits[0].matched, 1) << run.result.edits[0].how;
    EXPECT_EQ(run.result.replay.stepNs, 700 * kUs);
    EXPECT_EQ(run.result.predicted.stepNs, (110 + 85 + 2 + 78) * kUs + std::llround(costUs * 1e3));
    // The op is already on the GPU: moving it there matches nothing.
    WhatIfRun same = runEdits(b.path(), { "op:aten::relu=gpu" });
    EXPECT_EQ(same.result.edits[0].matched, 0);
    EXPECT_EQ(same.result.predicted.stepNs, same.result.replay.stepNs);
}

// --compare: the prediction beside a run measured after the change. Against the run before, the no-sync prediction
// (steps set by the GPU: 1210 / 3 us, RemovingTheSyncFreesTheHost) is (403.333 - 420) / 420 off; against its own
// predicted file, not at all.
TEST(WhatIfSynthetic, ComparingAPredictionWithAMeasuredRun)
{
    TraceBuilder b("compare");
    writeSyncedSteps(b);
    WhatIfRun run = runEdits(b.path(), { "no-sync" });
    ASSERT_TRUE(compareWithMeasured(run.result, run.trace, detectSteps(run.trace)).isOk());
    ASSERT_TRUE(run.result.comparison.has_value());
    EXPECT_EQ(run.result.comparison->measured.stepNs, 420 * kUs);
    EXPECT_DOUBLE_EQ(run.result.comparison->stepError, (403333.0 - 420000.0) / 420000.0);
    const std::string predicted = (b.dir() / "predicted.sqlite").string();
    ASSERT_TRUE(writePredictedTrace(b.path(), predicted, run.result).isOk());
    WhatIfRun after = runEdits(predicted, {});
    ASSERT_TRUE(compareWithMeasured(run.result, after.trace, detectSteps(after.trace)).isOk());
    EXPECT_EQ(run.result.comparison->measured.stepNs, 1210 * kUs / 3);
    EXPECT_EQ(run.result.comparison->stepError, 0.0);
    EXPECT_EQ(run.result.comparison->spanError, 0.0);
    EXPECT_NE(whatIfText(run.result, run.trace).find("measured after"), std::string::npos);
}

// analyze and whatif give one number for a fix: each simulated finding's saving is whatif's for its edit, and the
// report's all-fixes step is whatif's with every edit.
TEST(WhatIfSynthetic, AnalyzeShowsTheReplaysSavingForEachFix)
{
    TraceBuilder b("analyze");
    writeSyncedSteps(b);
    ReplaySavingSimulator simulator;
    AnalysisOptions options;
    options.simulator = &simulator;
    auto db = openTrace(b.path());
    ASSERT_TRUE(db.isOk());
    auto analyzed = analyzeTrace(*db, options);
    ASSERT_TRUE(analyzed.isOk()) << analyzed.status().message();
    const AnalysisReport& report = *analyzed;
    ASSERT_TRUE(report.allFixes.has_value());
    int simulated = 0;
    for (const Finding& f : report.findings) {
        if (!f.saving.simulated)
            continue;
        ++simulated;
        const auto candidates = editsForRule(f.ruleId);
        ASSERT_NE(std::find(candidates.begin(), candidates.end(), f.saving.simulatedEdit), candidates.end())
            << f.ruleId;
        WhatIfRun run = runEdits(b.path(), { f.saving.simulatedEdit });
        EXPECT_DOUBLE_EQ(
            f.saving.simulatedMs, static_cast<double>(run.result.replay.stepNs - run.result.predicted.stepNs) / 1e6)
            << f.ruleId;
    }
    EXPECT_GT(simulated, 0) << ruleIds(report);
    WhatIfRun all = runEdits(b.path(), report.allFixes->edits);
    EXPECT_EQ(report.allFixes->predictedStepNs, all.result.predicted.stepNs);
    EXPECT_EQ(report.allFixes->replayStepNs, 420 * kUs);
    // The conversion kernels are the finding here: dropping them gives the 325 us step of DroppingAConversionKernel.
    const Finding* layout = findRule(report, "layout.conversions");
    ASSERT_NE(layout, nullptr) << ruleIds(report);
    EXPECT_TRUE(layout->saving.simulated);
    EXPECT_DOUBLE_EQ(layout->saving.simulatedMs, 0.095);
}

} // namespace
} // namespace placescope::testing
