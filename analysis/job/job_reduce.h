// SPDX-License-Identifier: MIT
// The reduce step of `placescope job`: parses each rank's summary once, keeps what the later passes need in a temporary
// binary file and reads it back one rank at a time, so its memory follows ranks x steps and the number of collective
// instances, never the traces' size. Three passes:
//   1. collective instances by (process group, sequence number), each one's earliest end; the steps; the kernels'
//      durations merged (exact: (duration, count) pairs);
//   2. each host's clock offset (the median, over its ranks and collectives, of how much later its collectives end
//      than the earliest rank's: a collective ends at the same moment on every rank, HTA's "end at about the same
//      time"), then arrivals on one clock: each instance's first, last and second-last arrival, its transfer time
//      (the shortest duration across ranks: the last rank to arrive waits for nobody);
//   3. each rank's wait in each instance (latest arrival - its arrival), summed per rank and per (rank, step), and how
//      often it arrived last.
// The culprit of a step is the rank that arrived last at least once in it and, of those, waited least (TraceLens'
// straggler: "the straggler has the lowest wait"); `heldBackNs` is how much later than the next rank it arrived.
#pragma once

#include "analysis/job/collective_replay.h"
#include "profiler/base/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope {

struct JobCollective
{
    std::string group;
    int64_t seq = 0;
    std::string kind;
    int64_t step = -1;
    int64_t bytes = -1;
    int64_t groupSize = -1;
    int64_t ranks = 0; // ranks whose trace has it
    int64_t firstArrivalNs = 0; // on the job's clock (the earliest host's)
    int64_t lastArrivalNs = 0;
    int64_t secondLastArrivalNs = 0; // == lastArrivalNs when two ranks arrived last together
    int64_t lastRank = -1; // the lowest of the ranks that arrived last
    int64_t transferNs = 0; // shortest duration across ranks
    int64_t totalWaitNs = 0; // summed over ranks
    int64_t skewNs() const { return lastArrivalNs - firstArrivalNs; }
    int64_t heldBackNs() const { return lastArrivalNs - secondLastArrivalNs; }
    // When it ended on every rank: the last arrival plus the transfer (the last to arrive waits for nobody).
    int64_t endNs() const { return lastArrivalNs + transferNs; }
};

struct JobCell // one rank in one step
{
    bool present = false;
    int64_t startNs = 0; // on the job's clock
    int64_t durationNs = 0;
    int64_t computeNs = 0;
    int64_t communicationNs = 0;
    int64_t copyNs = 0;
    int64_t idleNs = 0;
    int64_t waitNs = 0; // in this step's collectives
    int64_t timesLast = 0;
};

struct JobRank
{
    int64_t rank = -1;
    std::string hostname;
    std::string input;
    std::string trace; // relative to the job folder
    int64_t collectives = 0;
    int64_t totalWaitNs = 0;
    int64_t timesLast = 0;
    int64_t clockOffsetNs = 0; // its host's
    int64_t culpritSteps = 0;
};

struct JobStep
{
    int64_t step = 0;
    int64_t ranks = 0;
    int64_t medianStartNs = 0;
    int64_t medianDurationNs = 0;
    int64_t slowestRank = -1;
    int64_t slowestDurationNs = 0;
    int64_t culpritRank = -1; // -1: no collective in the step
    int64_t culpritWaitNs = 0;
    int64_t heldBackNs = 0; // the most the culprit arrived after the next rank in one of the step's collectives
    int64_t totalWaitNs = 0;
    int64_t maxSkewNs = 0;
};

struct JobKernel
{
    std::string name;
    int64_t ranks = 0;
    int64_t count = 0;
    int64_t totalNs = 0;
    int64_t minNs = 0;
    int64_t p50Ns = 0; // exact: nearest rank over every instance on every rank
    int64_t p90Ns = 0;
    int64_t p99Ns = 0;
    int64_t maxNs = 0;
};

struct JobHost
{
    std::string hostname;
    int64_t ranks = 0;
    int64_t clockOffsetNs = 0; // how far its clock reads ahead of the earliest host's
};

struct JobReduction
{
    int64_t worldSize = -1;
    std::vector<JobRank> ranks; // numerically by rank
    std::vector<int64_t> missingRanks; // in [0, worldSize) without a summary
    std::vector<int64_t> steps; // step numbers, ascending
    std::vector<std::vector<JobCell>> cells; // [rank index][step index]
    std::vector<JobStep> stepSummaries; // one per step
    std::vector<JobCollective> collectives; // by (group, seq)
    std::vector<JobKernel> kernels; // by total time, longest first
    std::vector<JobHost> hosts;
    std::vector<std::string> notes;
    StragglerReplay stragglerReplay; // the verdict's straggler as fast as the median rank
};

// Fails on an unreadable summary or two summaries of one rank.
Result<JobReduction> reduceJob(const std::vector<std::string>& summaryPaths);

} // namespace placescope
