// SPDX-License-Identifier: MIT
// Real before/after pairs: one small CNN trained on the CPU, traced before and after one change each
// (scripts/make_cpu_pairs.py; tests/data/traces/SOURCES.md). Each "after" is predicted from its "before" with the
// edit that makes the change, and the prediction is held twice:
//   - to an answer worked out by hand from the "before" trace's own ranges (read with SQL here, not through the
//     replay), within 2 %: the replay does what its edit says;
//   - to the measured "after" run, within the error docs/whatif_accuracy.md reports for it: the edit says what the
//     change does. Where the two differ for a known reason (worker processes sharing the build machine's 2 cores,
//     which the edit assumes they do not), the test holds the direction of the miss, so a change that hides it fails.
#include "analysis/findings/analyzer.h"
#include "profiler/importers/importer.h"
#include "profiler/store/sqlite_db.h"
#include "profiler/store/trace_file.h"
#include "tests/support/temp_dir.h"
#include "tests/whatif/replay/whatif_fixture.h"
#include "whatif/replay_saving_simulator.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace placescope::testing {
namespace {

struct Range
{
    int64_t startNs, endNs;
    int64_t length() const { return endNs - startNs; }
};

class RealPairs : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { folder = new TempDir("ps_real_pairs"); }
    static void TearDownTestSuite()
    {
        delete folder;
        folder = nullptr;
    }
    // The pair's two traces imported; returns the "before" path.
    static std::string imported(const std::string& pair, const std::string& side)
    {
        const std::string path = folder->file(pair + "_" + side + ".sqlite");
        if (!std::filesystem::exists(path)) {
            auto summary = importTraces(
                { std::string(PLACESCOPE_DATA_DIR) + "/traces/cpu_" + pair + "_" + side + ".json.gz" }, path, {});
            EXPECT_TRUE(summary.isOk()) << summary.status().message();
        }
        return path;
    }
    static std::vector<Range> ranges(const std::string& path, const std::string& sql)
    {
        std::vector<Range> out;
        auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
        EXPECT_TRUE(db.isOk()) << db.status().message();
        if (!db.isOk())
            return out;
        auto rows = db->prepare(sql);
        EXPECT_TRUE(rows.isOk()) << rows.status().message();
        while (rows.isOk() && rows->step())
            out.push_back({ rows->columnInt(0), rows->columnInt(1) });
        return out;
    }
    static std::vector<Range> steps(const std::string& path)
    {
        return ranges(path, "SELECT start, end FROM PS_STEPS ORDER BY start");
    }
    static std::vector<Range> opsNamed(const std::string& path, const std::string& like)
    {
        return ranges(path,
            "SELECT o.start, o.end FROM PS_FRAMEWORK_OPS o JOIN StringIds s ON o.nameId = s.id WHERE s.value LIKE '"
                + like + "' ORDER BY o.start");
    }
    static int64_t meanStep(const std::vector<Range>& stepRanges)
    {
        return (stepRanges.back().endNs - stepRanges.front().startNs) / static_cast<int64_t>(stepRanges.size());
    }
    static double error(int64_t predicted, int64_t measured)
    {
        return static_cast<double>(predicted - measured) / static_cast<double>(measured);
    }
    static TempDir* folder;
};
TempDir* RealPairs::folder = nullptr;

// The hand answer for `workers=N`: worker w loads batches w, w+N, ... back to back, its first one done when batch 0
// is asked for (a warm queue); the thread asks for batch i after the CPU time it measured since the previous batch
// came, and waits until batch i is ready.
int64_t workersAnswer(const std::vector<Range>& stepRanges, const std::vector<Range>& loads, size_t workers)
{
    std::vector<int64_t> workerFree(workers, loads.front().startNs - loads.front().length());
    int64_t asked = loads.front().startNs, got = 0;
    for (size_t i = 0; i < loads.size(); ++i) {
        if (i > 0)
            asked = got + (loads[i].startNs - loads[i - 1].endNs);
        int64_t& free = workerFree[i % workers];
        free += loads[i].length();
        got = std::max(asked, free);
    }
    const int64_t end = got + (stepRanges.back().endNs - loads.back().endNs);
    return (end - stepRanges.front().startNs) / static_cast<int64_t>(stepRanges.size());
}

TEST_F(RealPairs, TwiceAsFastPreprocessingIsInputHalved)
{
    const std::string before = imported("loader_half", "before"), after = imported("loader_half", "after");
    const auto run = runEdits(before, { "input=x0.5" });
    const WhatIfResult& r = run.result;
    EXPECT_LT(std::fabs(r.replayStepError()), 0.005);
    // By hand: every step loses half of its __next__ range (single-process loading is CPU time on the thread).
    const auto stepRanges = steps(before);
    const auto loads = opsNamed(before, "%DataLoaderIter.__next__");
    ASSERT_EQ(loads.size(), stepRanges.size());
    int64_t loading = 0;
    for (const Range& l : loads)
        loading += l.length();
    const int64_t answer = meanStep(stepRanges) - loading / 2 / static_cast<int64_t>(loads.size());
    EXPECT_LT(std::fabs(error(r.predicted.stepNs, answer)), 0.02) << r.predicted.stepNs << " vs " << answer;
    // Against the run: -5.6 % (docs/whatif_accuracy.md), outside the prediction's +-1.3 % band but within it and
    // the run after's own +-4.4 % together.
    const int64_t measuredAfter = meanStep(steps(after));
    EXPECT_LT(std::fabs(error(r.predicted.stepNs, measuredAfter)), 0.10)
        << r.predicted.stepNs << " vs " << measuredAfter;
    WhatIfRun compared = runEdits(before, { "input=x0.5" });
    auto afterDb = openTrace(after);
    ASSERT_TRUE(afterDb.isOk());
    ASSERT_TRUE(compareWithMeasured(compared.result, *afterDb).isOk());
    EXPECT_EQ(compared.result.comparison->verdict, BandVerdict::WithinBothRuns);
}

TEST_F(RealPairs, RemovingADebugCopyIsDropOp)
{
    const std::string before = imported("debug_copy", "before"), after = imported("debug_copy", "after");
    const auto run = runEdits(before, { "drop:op:aten::clone" });
    const WhatIfResult& r = run.result;
    ASSERT_EQ(r.edits.size(), 1u);
    EXPECT_EQ(r.edits[0].matched, 64) << "8 clones a step, 8 steps";
    // By hand: every step loses its clones' CPU time.
    const auto stepRanges = steps(before);
    int64_t cloned = 0;
    for (const Range& c : opsNamed(before, "aten::clone"))
        cloned += c.length();
    const int64_t answer = meanStep(stepRanges) - cloned / static_cast<int64_t>(stepRanges.size());
    EXPECT_LT(std::fabs(error(r.predicted.stepNs, answer)), 0.02) << r.predicted.stepNs << " vs " << answer;
    // Against the run: +5.4 %, most of it the two runs' own difference (docs/whatif_accuracy.md).
    const int64_t measuredAfter = meanStep(steps(after));
    EXPECT_LT(std::fabs(error(r.predicted.stepNs, measuredAfter)), 0.10)
        << r.predicted.stepNs << " vs " << measuredAfter;
}

TEST_F(RealPairs, WorkerProcessesTakeTheLoadingOffTheThread)
{
    for (const auto& [pair, workers] :
        { std::pair<std::string, size_t> { "loader_worker", 1 }, { "loader_workers", 2 } }) {
        SCOPED_TRACE(pair);
        const std::string before = imported(pair, "before"), after = imported(pair, "after");
        const auto run = runEdits(before, { "workers=" + std::to_string(workers) });
        const WhatIfResult& r = run.result;
        ASSERT_EQ(r.edits.size(), 1u);
        EXPECT_EQ(r.edits[0].matched, 8) << r.edits[0].how;
        const auto stepRanges = steps(before);
        const auto loads = opsNamed(before, "%DataLoaderIter.__next__");
        const int64_t answer = workersAnswer(stepRanges, loads, workers);
        EXPECT_LT(std::fabs(error(r.predicted.stepNs, answer)), 0.02) << r.predicted.stepNs << " vs " << answer;
        EXPECT_LT(r.predicted.stepNs, r.measured.stepNs * 3 / 4) << "the loading left the thread";
        // Against the run: the workers shared the 2 cores with the training thread and loaded slower than the
        // thread had (-23 % with one worker, -45 % with two: docs/whatif_accuracy.md), which the edit says it
        // assumes away. The prediction stays below the measured run; were it to reach it, the doc is out of date.
        const int64_t measuredAfter = meanStep(steps(after));
        EXPECT_LT(r.predicted.stepNs, measuredAfter);
        EXPECT_NE(r.edits[0].how.find("a CPU core of its own"), std::string::npos);
    }
}

// A loader that already has workers is left alone, and the edit says what to use instead.
TEST_F(RealPairs, WorkersOnALoaderWithWorkersMatchesNothingAndSaysSo)
{
    const auto run = runEdits(imported("loader_workers", "after"), { "workers=4" });
    ASSERT_EQ(run.result.edits.size(), 1u);
    EXPECT_EQ(run.result.edits[0].matched, 0);
    EXPECT_NE(run.result.edits[0].how.find("already loads in worker processes"), std::string::npos)
        << run.result.edits[0].how;
    EXPECT_EQ(run.result.predicted.stepNs, run.result.replay.stepNs);
}

// The input-bound finding's fix is DataLoader(num_workers=N): on PyTorch's num_workers=0 ResNet-50 sample (V100) its
// simulated saving is the workers=4 edit's, the same figure `placescope whatif --edit workers=4` prints.
TEST_F(RealPairs, TheInputBoundFindingSimulatesWorkerProcesses)
{
    const std::string path = folder->file("resnet50_workers0.sqlite");
    auto summary = importTraces(
        { std::string(PLACESCOPE_DATA_DIR) + "/traces/kineto_resnet50_v100_legacy2021.pt.trace.json.gz" }, path, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    auto db = openTrace(path);
    ASSERT_TRUE(db.isOk());
    ReplaySavingSimulator simulator;
    AnalysisOptions options;
    options.simulator = &simulator;
    auto report = analyzeTrace(*db, options);
    ASSERT_TRUE(report.isOk()) << report.status().message();
    const Finding* inputBound = nullptr;
    for (const Finding& f : report->findings)
        if (f.ruleId == "gpu_idle.input_bound")
            inputBound = &f;
    ASSERT_NE(inputBound, nullptr);
    ASSERT_TRUE(inputBound->saving.simulated);
    EXPECT_EQ(inputBound->saving.simulatedEdit, "workers=4");
    const auto run = runEdits(path, { "workers=4" });
    EXPECT_EQ(run.result.edits[0].matched, 6) << "the trace's 6 __next__ waits";
    EXPECT_DOUBLE_EQ(inputBound->saving.simulatedMs,
        static_cast<double>(run.result.replay.stepNs - run.result.predicted.stepNs) / 1e6);
    EXPECT_GT(inputBound->saving.simulatedMs, 40.0);
}

} // namespace
} // namespace placescope::testing
