// SPDX-License-Identifier: MIT
// RankSummary: what the map step keeps of one rank of a distributed job, small enough that the reduce reads
// thousands of them: the steps with their GPU time breakdown, every collective (process group, sequence number,
// start, duration, bytes) and each kernel's exact durations as (duration, count) pairs, which merge across ranks
// without losing a quantile. Written next to the rank's trace as JSON (rank-<r>.summary.json).
#pragma once

#include "profiler/base/status.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace placescope {

struct RankStep
{
    int64_t step = 0; // ProfilerStep#N's N, or the detected step's number
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t computeNs = 0; // GPU busy with kernels other than communication
    int64_t communicationNs = 0; // communication kernels not overlapped by compute (exposed)
    int64_t copyNs = 0; // copies and memsets overlapped by neither
    int64_t idleNs = 0; // nothing on any GPU lane of the rank
};

struct RankCollective
{
    std::string group; // process group name ("0" is the default group); "" when the trace did not say
    int64_t seq = 0; // PyTorch's "Seq", else the collective's position (1-based) in its group on this rank
    std::string kind; // NCCL's spelling: AllReduce, AllGather, ReduceScatter, AllToAll, SendRecv, ...
    int64_t step = -1; // the step its kernel started in; -1 outside every step
    int64_t startNs = 0; // the NCCL kernel's start: when this rank arrived
    int64_t durationNs = 0; // the kernel's duration: its wait for the others plus the transfer
    int64_t bytes = -1; // nccl-tests' size S; -1 when the trace did not say
    int64_t groupSize = -1;
};

struct KernelDurations
{
    std::string name;
    std::vector<std::pair<int64_t, int64_t>> durations; // (duration ns, count), by duration
};

struct RankSummary
{
    int64_t rank = -1;
    int64_t worldSize = -1; // -1 when the trace did not say
    std::string hostname; // "" when the trace did not say
    std::string input; // the rank's file as given
    std::string trace; // the rank's trace, relative to the job folder
    std::vector<RankStep> steps; // by start
    std::vector<RankCollective> collectives; // by (group, seq)
    std::vector<KernelDurations> kernels; // by name
};

std::string rankSummaryToJson(const RankSummary& summary);
Result<RankSummary> rankSummaryFromJson(const std::string& text);
Result<RankSummary> readRankSummary(const std::string& path);

} // namespace placescope
