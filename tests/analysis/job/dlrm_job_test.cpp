// SPDX-License-Identifier: MIT
// The four real ranks of an 8-GPU DLRM job (shared/traces, copied to tests/data/traces): the ranks come from the
// traces' distributedInfo, the other four are named missing, and the collectives (old PyTorch: no process group or
// sequence number in the trace) are matched by their order on each rank. Checked against the rank traces
// themselves: each rank's NCCL kernel count, and the transfer time being the shortest duration of each instance.
#include "analysis/job/job_folder.h"
#include "analysis/job/job_reduce.h"
#include "analysis/job/rank_summary.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

namespace placescope {
namespace {

namespace fs = std::filesystem;

std::string dlrmRank(int rank)
{
    return std::string(PLACESCOPE_DATA_DIR) + "/traces/dlrm_v100x8_rank" + std::to_string(rank)
        + "of8.pt.trace.json.gz";
}

TEST(DlrmJob, FourOfEightRanksReduceWithTheMissingNamed)
{
    const fs::path job = fs::temp_directory_path() / ("ps_job_dlrm_" + std::to_string(::getpid()));
    fs::remove_all(job);
    std::vector<std::pair<std::string, int64_t>> mapped;
    for (int r : { 3, 1, 2, 0 }) {
        auto rank = mapRank(dlrmRank(r), job.string());
        ASSERT_TRUE(rank.isOk()) << rank.status().message();
        EXPECT_EQ(*rank, r) << "the rank comes from distributedInfo.rank";
        mapped.emplace_back(dlrmRank(r), *rank);
    }
    auto manifest = collectJob(job.string(), mapped, {});
    ASSERT_TRUE(manifest.isOk()) << manifest.status().message();
    EXPECT_EQ(manifest->worldSize, 8);
    EXPECT_EQ(manifest->missing, (std::vector<int64_t> { 4, 5, 6, 7 }));
    auto reduced = reduceJob(summaryPaths(job.string(), *manifest));
    ASSERT_TRUE(reduced.isOk()) << reduced.status().message();
    const JobReduction& j = *reduced;
    ASSERT_EQ(j.ranks.size(), 4u);
    EXPECT_EQ(j.missingRanks, (std::vector<int64_t> { 4, 5, 6, 7 }));

    // Each rank's collectives are its NCCL kernels, as the rank's own trace has them.
    for (const JobManifestRank& r : manifest->ranks) {
        auto db = openTrace((job / r.trace).string());
        ASSERT_TRUE(db.isOk());
        auto nccl = db->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                                 "ON s.id = k.demangledName WHERE s.value LIKE 'ncclKernel%'");
        ASSERT_TRUE(nccl.isOk());
        EXPECT_GT(*nccl, 0);
        EXPECT_EQ(j.ranks[static_cast<size_t>(r.rank)].collectives, *nccl) << "rank " << r.rank;
    }
    // No process group or Seq in these traces: matched by position, 8 NCCL kernels on every rank.
    ASSERT_EQ(j.collectives.size(), 8u);
    int64_t timesLast = 0;
    for (const JobRank& rank : j.ranks)
        timesLast += rank.timesLast;
    EXPECT_GE(timesLast, 8) << "one rank (or more, tied) arrives last at each instance";
    for (const JobCollective& c : j.collectives) {
        EXPECT_EQ(c.ranks, 4);
        EXPECT_LE(c.firstArrivalNs, c.lastArrivalNs);
        EXPECT_GE(c.heldBackNs(), 0);
        EXPECT_GT(c.transferNs, 0);
    }
    // The transfer time is the shortest duration across the ranks of each instance.
    std::vector<int64_t> shortest(j.collectives.size(), INT64_MAX);
    for (const JobManifestRank& r : manifest->ranks) {
        auto summary = readRankSummary((job / r.summary).string());
        ASSERT_TRUE(summary.isOk());
        for (size_t i = 0; i < summary->collectives.size() && i < shortest.size(); ++i)
            shortest[i] = std::min(shortest[i], summary->collectives[i].durationNs);
    }
    for (size_t i = 0; i < j.collectives.size(); ++i) {
        if (j.collectives[i].ranks == 4) {
            EXPECT_EQ(j.collectives[i].transferNs, shortest[i]) << "instance " << i;
        }
    }
    ASSERT_EQ(j.steps, (std::vector<int64_t> { 10 })) << "the traces' one ProfilerStep#10";
    EXPECT_GE(j.stepSummaries[0].culpritRank, 0);
    fs::remove_all(job);
}

} // namespace
} // namespace placescope
