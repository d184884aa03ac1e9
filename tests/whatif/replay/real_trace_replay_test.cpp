// SPDX-License-Identifier: MIT
// The replay must give back every real trace it is built from: step and span within 2 % at the median and 5 % at
// worst (the bound). On these traces the graph keeps every measured slack, so the replay is exact; the
// bound is what the test holds it to.
#include "profiler/importers/importer.h"
#include "tests/whatif/replay/whatif_fixture.h"
#include "whatif/prediction_file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unistd.h>

namespace placescope::testing {
namespace {

// Two what-ifs of one trace gave the same graph, schedule and figures.
void expectSameWhatIf(const WhatIfResult& a, const WhatIfResult& b, const std::string& file)
{
    EXPECT_EQ(a.stepSource, b.stepSource) << file;
    EXPECT_EQ(a.measured.stepNs, b.measured.stepNs) << file;
    EXPECT_EQ(a.measured.spanNs, b.measured.spanNs) << file;
    EXPECT_EQ(a.replay.stepNs, b.replay.stepNs) << file;
    EXPECT_EQ(a.predicted.stepNs, b.predicted.stepNs) << file;
    EXPECT_EQ(a.predicted.spanNs, b.predicted.spanNs) << file;
    EXPECT_EQ(a.quality.hostWaits, b.quality.hostWaits) << file;
    EXPECT_EQ(a.quality.inferredCrossStream, b.quality.inferredCrossStream) << file;
    EXPECT_EQ(a.quality.nestedCalls, b.quality.nestedCalls) << file;
    const ReplayGraph& ga = a.predictedGraph;
    const ReplayGraph& gb = b.predictedGraph;
    ASSERT_EQ(ga.tasks.size(), gb.tasks.size()) << file;
    ASSERT_EQ(ga.lanes.size(), gb.lanes.size()) << file;
    EXPECT_EQ(ga.awaited, gb.awaited) << file;
    for (size_t id = 0; id < ga.tasks.size(); ++id) {
        const ReplayTask& x = ga.tasks[id];
        const ReplayTask& y = gb.tasks[id];
        ASSERT_TRUE(x.measuredStart == y.measuredStart && x.measuredEnd == y.measuredEnd && x.duration == y.duration
            && x.laneGap == y.laneGap && x.launchLag == y.launchLag && x.rowId == y.rowId && x.lane == y.lane
            && x.launcher == y.launcher && x.nameId == y.nameId && x.kind == y.kind && x.role == y.role
            && ga.linksOf(x).crossPred == gb.linksOf(y).crossPred)
            << file << ": task " << id;
    }
    EXPECT_EQ(a.predictedSchedule.start, b.predictedSchedule.start) << file;
    EXPECT_EQ(a.predictedSchedule.end, b.predictedSchedule.end) << file;
}

TEST(WhatIfRealTraces, ReplayReproducesEveryTraceWithSteps)
{
    const std::vector<std::string> files = { "hta_alexnet_a100_1rank.json.gz", "hta_benchmark_simple_add_trace.json.gz",
        "hta_nccl_a100_rank0of2_layout.json.gz", "hta_sampled_rank-0_of128.json.gz", "hta_v100_rank1of2_memory.json.gz",
        "kineto_resnet50_v100_legacy2021.pt.trace.json.gz", "pipit_cloverleaf_a100_nsys_sanitized.sqlite" };
    const auto dir = std::filesystem::temp_directory_path() / ("ps_whatif_real_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::vector<double> errors;
    for (const std::string& file : files) {
        const std::string path = (dir / (file + ".sqlite")).string();
        auto imported = importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/" + file }, path, ImportOptions {});
        ASSERT_TRUE(imported.isOk()) << file << ": " << imported.status().message();
        WhatIfRun run = runEdits(path, { "kernels:.=x0.5" });
        const WhatIfResult& r = run.result;
        // Read as the CLI reads it (events straight from the store, TraceData without them): the same replay.
        expectSameWhatIf(r, runEditsFromStore(path, { "kernels:.=x0.5" }).result, file);
        ASSERT_GT(r.measured.stepNs, 0) << file;
        ASSERT_GT(r.measured.spanNs, 0) << file;
        errors.push_back(std::abs(r.replayStepError()));
        errors.push_back(std::abs(r.replaySpanError()));
        EXPECT_LE(std::abs(r.replayStepError()), 0.05) << file;
        EXPECT_LE(std::abs(r.replaySpanError()), 0.05) << file;
        // The critical path's categories add up to its length.
        int64_t categories = 0;
        for (int64_t ns : r.replayPath.categoryNs)
            categories += ns;
        EXPECT_EQ(categories, r.replayPath.lengthNs()) << file;
        EXPECT_GT(r.replayPath.lengthNs(), 0) << file;
        // Halving every GPU op can only shorten the run, never lengthen it.
        EXPECT_LE(r.predicted.spanNs, r.replay.spanNs) << file;
        // The predicted trace, read as a measured run, has the predicted step and span.
        const std::string predictedPath = path + ".predicted.sqlite";
        ASSERT_TRUE(writePredictedTrace(path, predictedPath, r).isOk()) << file;
        WhatIfRun reread = runEdits(predictedPath, {});
        EXPECT_EQ(reread.result.measured.stepNs, r.predicted.stepNs) << file;
        EXPECT_EQ(reread.result.measured.spanNs, r.predicted.spanNs) << file;
        // Launch flow arrows still go forward (no more arrows ending before they start than the measured trace had).
        auto backwards = [](const std::string& trace) {
            auto db = openTrace(trace);
            EXPECT_TRUE(db.isOk());
            return db->hasTable("PS_FLOWS") ? db->queryInt("SELECT COUNT(*) FROM PS_FLOWS WHERE toTs < fromTs").value()
                                            : 0;
        };
        EXPECT_LE(backwards(predictedPath), backwards(path)) << file;
        std::printf("%-50s step %lld ns replay %lld ns (%+.4f %%), span %+.4f %%, halved kernels: step %lld ns\n",
            file.c_str(), static_cast<long long>(r.measured.stepNs), static_cast<long long>(r.replay.stepNs),
            100 * r.replayStepError(), 100 * r.replaySpanError(), static_cast<long long>(r.predicted.stepNs));
    }
    std::filesystem::remove_all(dir);
    ASSERT_EQ(errors.size(), 2 * files.size());
    std::sort(errors.begin(), errors.end());
    EXPECT_LE(errors[errors.size() / 2], 0.02);
}

} // namespace
} // namespace placescope::testing
