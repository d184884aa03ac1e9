// SPDX-License-Identifier: MIT
// The reduce on a synthetic job whose every time is known (tests/support/job/synthetic_job.h): 8 ranks on two hosts
// whose clocks differ by 7 ms, rank 5 late by exactly 2.5 ms before the first collective of every step. The expected
// figures are computed here from the generator's arrival times, independently of the reduce.
#include "analysis/job/job_folder.h"
#include "analysis/job/job_reduce.h"
#include "analysis/job/job_tables.h"
#include "analysis/job/rank_summary.h"
#include "tests/support/job/map_synthetic_job.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <unistd.h>

namespace placescope {
namespace {

namespace fs = std::filesystem;
using testing::SyntheticJobSpec;

class SyntheticJobReduce : public ::testing::Test
{
protected:
    void SetUp() override
    {
        folder = fs::temp_directory_path()
            / ("ps_job_reduce_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(folder);
        spec.ranks = 8;
        spec.steps = 4;
        spec.collectivesPerStep = 3;
        spec.ranksPerHost = 4;
        spec.stragglerRank = 5;
        spec.stragglerDelayNs = 2'500'000;
        spec.hostClockOffsetNs = 7'000'000;
    }
    void TearDown() override { fs::remove_all(folder); }

    JobReduction mapAndReduce()
    {
        const std::string job = (folder / "job").string();
        auto collected = testing::mapSyntheticJob(spec, (folder / "in").string(), job);
        EXPECT_TRUE(collected.isOk()) << collected.status().message();
        manifest = *collected;
        auto reduced = reduceJob(summaryPaths(job, manifest));
        EXPECT_TRUE(reduced.isOk()) << reduced.status().message();
        return *reduced;
    }

    fs::path folder;
    SyntheticJobSpec spec;
    JobManifest manifest;
};

TEST_F(SyntheticJobReduce, NamesThePlantedStragglerWithItsExactDelay)
{
    const JobReduction job = mapAndReduce();
    ASSERT_EQ(job.ranks.size(), 8u);
    for (size_t i = 0; i < job.ranks.size(); ++i)
        EXPECT_EQ(job.ranks[i].rank, static_cast<int64_t>(i)) << "ranks sort numerically, whatever the file order";
    EXPECT_EQ(job.worldSize, 8);
    EXPECT_TRUE(job.missingRanks.empty());
    ASSERT_EQ(job.stepSummaries.size(), 4u);
    for (const JobStep& step : job.stepSummaries) {
        EXPECT_EQ(step.culpritRank, 5) << "step " << step.step;
        EXPECT_EQ(step.heldBackNs, 2'500'000) << "step " << step.step;
        EXPECT_EQ(step.ranks, 8);
    }
    EXPECT_EQ(job.ranks[5].culpritSteps, 4);
    EXPECT_NE(jobVerdict(job).find("Rank 5 arrived last and waited least in 4 of 4 steps"), std::string::npos)
        << jobVerdict(job);
    EXPECT_NE(jobVerdict(job).find("2.50 ms"), std::string::npos) << jobVerdict(job);
}

TEST_F(SyntheticJobReduce, StragglerAtTheMedianRankSavesItsPlantedDelayInEveryStep)
{
    const JobReduction job = mapAndReduce();
    const StragglerReplay& replay = job.stragglerReplay;
    EXPECT_EQ(replay.rank, 5);
    ASSERT_EQ(replay.stepsReplayed, spec.steps);
    // Worked out from the generator, not the replay. Every rank's work before collective c starts where c - 1 ended,
    // so a step's collectives end sooner by whatever rank 5 made them wait beyond the latest other rank: before
    // collective 0 that is the planted delay (the others arrive together, and that is also the median rank's time);
    // before a later one it is rank 5's own jitter above every other rank's, which the median rank does not have.
    auto table = jobReportTable(job, "steps");
    ASSERT_TRUE(table);
    const size_t at = table->column("straggler_at_median_saving_ns");
    ASSERT_LT(at, table->columns.size());
    ASSERT_EQ(table->rows.size(), static_cast<size_t>(spec.steps));
    int64_t total = 0, jitterSteps = 0;
    for (int s = 0; s < spec.steps; ++s) {
        int64_t expected = spec.stragglerDelayNs;
        for (int c = 1; c < spec.collectivesPerStep; ++c) {
            int64_t latestOther = 0;
            for (int r = 0; r < spec.ranks; ++r)
                if (r != 5)
                    latestOther = std::max(latestOther, testing::syntheticArrivalNs(spec, r, s, c));
            expected += std::max<int64_t>(0, testing::syntheticArrivalNs(spec, 5, s, c) - latestOther);
        }
        jitterSteps += expected > spec.stragglerDelayNs ? 1 : 0;
        const size_t step = static_cast<size_t>(s);
        EXPECT_EQ(replay.savingNs(step), expected) << "step " << s;
        EXPECT_EQ(replay.replayedEndNs[step], replay.measuredEndNs[step]) << "the replay as measured holds";
        EXPECT_EQ(table->rows[step][at], ReportCell(expected)) << "step " << s;
        total += expected;
    }
    EXPECT_EQ(jitterSteps, 1) << "step 2: rank 5's 10 us of jitter before collective 2 is 1 us above rank 6's 9 us";
    EXPECT_EQ(replay.meanSavingNs, total / spec.steps);
    EXPECT_EQ(replay.maxReplayErrorNs, 0);
    EXPECT_EQ(replay.maxEndDisagreementNs, 0) << "collectives end together once the 7 ms clock offset is removed";
    EXPECT_NE(jobVerdict(job).find("Were rank 5 as fast as the median rank, each step's collectives would end 2.50 ms "
                                   "sooner on every rank (mean of 4 steps"),
        std::string::npos)
        << jobVerdict(job);
}

TEST_F(SyntheticJobReduce, WaitsSkewAndTransferAreExact)
{
    const JobReduction job = mapAndReduce();
    ASSERT_EQ(job.collectives.size(), static_cast<size_t>(spec.steps * spec.collectivesPerStep));
    std::map<int, int64_t> waitOfRank;
    std::map<std::pair<int, int>, int64_t> waitOfCell;
    std::map<int, int64_t> lastOfRank;
    for (int s = 0; s < spec.steps; ++s)
        for (int c = 0; c < spec.collectivesPerStep; ++c) {
            int64_t first = INT64_MAX, latest = INT64_MIN;
            int lastRank = -1;
            for (int r = 0; r < spec.ranks; ++r) {
                const int64_t a = testing::syntheticArrivalNs(spec, r, s, c);
                first = std::min(first, a);
                if (a > latest) {
                    latest = a;
                    lastRank = r;
                }
            }
            const JobCollective& instance = job.collectives[static_cast<size_t>(s * spec.collectivesPerStep + c)];
            EXPECT_EQ(instance.group, "0");
            EXPECT_EQ(instance.seq, testing::syntheticSeq(spec, s, c));
            EXPECT_EQ(instance.kind, "AllReduce");
            EXPECT_EQ(instance.step, s);
            EXPECT_EQ(instance.ranks, 8);
            EXPECT_EQ(instance.bytes, spec.elementsPerCollective * 4);
            EXPECT_EQ(instance.skewNs(), latest - first);
            EXPECT_EQ(instance.lastRank, lastRank);
            EXPECT_EQ(instance.transferNs, spec.transferNs * (c + 1)) << "the last rank's duration: no wait in it";
            for (int r = 0; r < spec.ranks; ++r) {
                const int64_t wait = latest - testing::syntheticArrivalNs(spec, r, s, c);
                waitOfRank[r] += wait;
                waitOfCell[{ r, s }] += wait;
                lastOfRank[r] += wait == 0 ? 1 : 0;
            }
        }
    for (const JobRank& rank : job.ranks) {
        EXPECT_EQ(rank.totalWaitNs, waitOfRank[static_cast<int>(rank.rank)]) << "rank " << rank.rank;
        EXPECT_EQ(rank.timesLast, lastOfRank[static_cast<int>(rank.rank)]) << "rank " << rank.rank;
        EXPECT_EQ(rank.collectives, spec.steps * spec.collectivesPerStep);
    }
    for (size_t i = 0; i < job.ranks.size(); ++i)
        for (size_t s = 0; s < job.steps.size(); ++s)
            EXPECT_EQ(job.cells[i][s].waitNs, (waitOfCell[{ static_cast<int>(i), static_cast<int>(s) }]));
}

TEST_F(SyntheticJobReduce, ClockOffsetBetweenHostsIsEstimatedAndRemoved)
{
    const JobReduction job = mapAndReduce();
    ASSERT_EQ(job.hosts.size(), 2u);
    EXPECT_EQ(job.hosts[0].hostname, "node-0");
    EXPECT_EQ(job.hosts[0].clockOffsetNs, 0);
    EXPECT_EQ(job.hosts[1].hostname, "node-1");
    EXPECT_EQ(job.hosts[1].clockOffsetNs, 7'000'000);
    EXPECT_EQ(job.ranks[6].clockOffsetNs, 7'000'000);
    // On one clock every rank starts every step together.
    for (size_t s = 0; s < job.steps.size(); ++s)
        for (size_t i = 0; i < job.ranks.size(); ++i)
            EXPECT_EQ(job.cells[i][s].startNs, job.stepSummaries[s].medianStartNs);
}

TEST_F(SyntheticJobReduce, StepBreakdownFollowsTheTimeline)
{
    const JobReduction job = mapAndReduce();
    for (size_t i = 0; i < job.ranks.size(); ++i)
        for (int s = 0; s < spec.steps; ++s) {
            int64_t compute = 0, communication = 0;
            for (int c = 0; c < spec.collectivesPerStep; ++c) {
                const int64_t cursor = c == 0 ? testing::syntheticStepStartNs(spec, s) + 50'000
                                              : testing::syntheticCollectiveEndNs(spec, s, c - 1);
                const int64_t arrival = testing::syntheticArrivalNs(spec, static_cast<int>(i), s, c);
                compute += arrival - cursor;
                communication += testing::syntheticCollectiveEndNs(spec, s, c) - arrival;
            }
            const JobCell& cell = job.cells[i][static_cast<size_t>(s)];
            EXPECT_EQ(cell.computeNs, compute);
            EXPECT_EQ(cell.communicationNs, communication);
            EXPECT_EQ(cell.copyNs, 20'000);
            EXPECT_EQ(cell.idleNs, cell.durationNs - compute - communication - 20'000);
        }
}

TEST_F(SyntheticJobReduce, KernelQuantilesAreExactOverEveryInstance)
{
    const JobReduction job = mapAndReduce();
    std::vector<int64_t> nccl;
    for (int r = 0; r < spec.ranks; ++r)
        for (int s = 0; s < spec.steps; ++s)
            for (int c = 0; c < spec.collectivesPerStep; ++c)
                nccl.push_back(
                    testing::syntheticCollectiveEndNs(spec, s, c) - testing::syntheticArrivalNs(spec, r, s, c));
    std::sort(nccl.begin(), nccl.end());
    auto nearestRank = [&nccl](double q) {
        size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(nccl.size())));
        return nccl[std::max<size_t>(rank, 1) - 1];
    };
    auto kernel = std::find_if(job.kernels.begin(), job.kernels.end(),
        [](const JobKernel& k) { return k.name.rfind("ncclDevKernel_AllReduce", 0) == 0; });
    ASSERT_NE(kernel, job.kernels.end());
    EXPECT_EQ(kernel->ranks, 8);
    EXPECT_EQ(kernel->count, static_cast<int64_t>(nccl.size()));
    EXPECT_EQ(kernel->minNs, nccl.front());
    EXPECT_EQ(kernel->maxNs, nccl.back());
    EXPECT_EQ(kernel->p50Ns, nearestRank(0.5));
    EXPECT_EQ(kernel->p90Ns, nearestRank(0.9));
    EXPECT_EQ(kernel->p99Ns, nearestRank(0.99));
}

TEST_F(SyntheticJobReduce, MissingRanksAreNamed)
{
    spec.leaveOut = { 3, 6 };
    const JobReduction job = mapAndReduce();
    EXPECT_EQ(job.ranks.size(), 6u);
    EXPECT_EQ(job.missingRanks, (std::vector<int64_t> { 3, 6 }));
    EXPECT_EQ(manifest.missing, (std::vector<int64_t> { 3, 6 }));
    auto table = jobReportTable(job, "stragglers");
    ASSERT_TRUE(table);
    ASSERT_FALSE(table->notes.empty());
    bool named = false;
    for (const std::string& note : table->notes)
        named = named || note.find("missing ranks (no trace or its import failed): 3, 6 of 8") != std::string::npos;
    EXPECT_TRUE(named);
    EXPECT_EQ(job.stepSummaries[0].culpritRank, 5) << "the straggler is still found among the ranks there are";
}

TEST_F(SyntheticJobReduce, NoStragglerNoCulpritHeldBack)
{
    spec.stragglerRank = -1;
    spec.stragglerDelayNs = 0;
    const JobReduction job = mapAndReduce();
    for (const JobStep& step : job.stepSummaries)
        EXPECT_LT(step.heldBackNs, 11'000) << "only the jitter of a few microseconds";
    EXPECT_EQ(job.collectives[0].heldBackNs(), 0) << "all ranks arrived together";
}

TEST_F(SyntheticJobReduce, TwoFilesOfOneRankAreRefused)
{
    const std::vector<std::string> inputs = testing::writeSyntheticJob(spec, (folder / "in").string());
    const std::string job = (folder / "job").string();
    auto rank = mapRank(inputs[0], job);
    ASSERT_TRUE(rank.isOk());
    auto collected = collectJob(job, { { inputs[0], *rank }, { "copy.json", *rank } }, {});
    ASSERT_FALSE(collected.isOk());
    EXPECT_NE(collected.status().message().find("is in two inputs"), std::string::npos);
}

} // namespace
} // namespace placescope
