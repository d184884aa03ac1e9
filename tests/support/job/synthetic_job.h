// SPDX-License-Identifier: MIT
// A synthetic distributed training job written as one PyTorch profiler (Kineto) JSON file per rank, with every time
// known in advance, so the tests of `placescope job` can check the reduce's waits, culprits and clock offsets to the
// nanosecond, and the bench can make thousands of ranks.
//
// Every step runs the same pattern on every rank: C times (a compute kernel, then a collective on process group "0"
// with its sequence number). A rank arrives at a collective when its compute ends; the collective ends on every rank
// when the last rank has arrived plus the collective's transfer time (NCCL kernels spin until all peers are there).
// The compute before collective c > 0 has a few microseconds of deterministic jitter; before collective 0 it has
// none, except on the planted straggler, which is late by exactly `stragglerDelayNs` there in every step. Each step
// ends with a host-to-device copy. Times are whole microseconds (Kineto's unit), so nothing is rounded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace placescope::testing {

struct SyntheticJobSpec
{
    int ranks = 8;
    int steps = 4;
    int collectivesPerStep = 3;
    int ranksPerHost = 8; // ranks r and r' share a host (and a clock) when r / ranksPerHost == r' / ranksPerHost
    int stragglerRank = -1; // -1: none
    int64_t stragglerDelayNs = 0; // multiple of 1,000
    int64_t hostClockOffsetNs = 0; // host h's clock reads h x this ahead of true time (multiple of 1,000)
    int64_t computeNs = 400'000;
    int64_t transferNs = 100'000; // collective c takes (c + 1) x this once all ranks are there
    int64_t elementsPerCollective = 1 << 20; // floats
    std::vector<int> leaveOut; // ranks not written (a job with missing ranks)
};

// True time (ns) at which `rank` arrives at collective `collective` of step `step` (its NCCL kernel starts).
int64_t syntheticArrivalNs(const SyntheticJobSpec& spec, int rank, int step, int collective);
// True time at which that collective ends on every rank.
int64_t syntheticCollectiveEndNs(const SyntheticJobSpec& spec, int step, int collective);
// True time at which step `step` starts (its ProfilerStep range, the same on every rank).
int64_t syntheticStepStartNs(const SyntheticJobSpec& spec, int step);
// Offset of `rank`'s clock from true time.
int64_t syntheticClockOffsetNs(const SyntheticJobSpec& spec, int rank);
// The collectives' sequence number on process group "0" (what PyTorch records as "Seq"; from 1000 on, so that it
// differs from the collective's position in the trace).
int64_t syntheticSeq(const SyntheticJobSpec& spec, int step, int collective);

// One rank's Kineto JSON.
std::string syntheticRankJson(const SyntheticJobSpec& spec, int rank);

// Writes rank files into `folder` (created) as "<folder>/worker-<rank>.pt.trace.json" and returns their paths in
// an order that is neither numeric nor lexical (so nothing may depend on file order). Throws on an I/O error.
std::vector<std::string> writeSyntheticJob(const SyntheticJobSpec& spec, const std::string& folder);

} // namespace placescope::testing
