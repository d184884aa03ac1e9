// SPDX-License-Identifier: MIT
// The map step's analysis of one rank: reads a rank's imported trace (one rank per file) into its RankSummary,
// streaming the GPU work in start order so that memory follows the number of steps and distinct kernel durations,
// not the trace's size. The rank comes from the trace (distributedInfo.rank), never from the file's name or place.
#pragma once

#include "analysis/job/rank_summary.h"
#include "profiler/store/sqlite_db.h"

namespace placescope {

// Fails when the trace names no rank or more than one.
Result<RankSummary> summarizeRank(SqliteDb& db);

// The collective kind a communication kernel's name says: "ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)" and
// "ncclKernel_AllReduce_RING_LL_Sum_float(...)" -> "AllReduce"; the name up to '(' for anything else.
std::string collectiveKindFromKernel(const std::string& kernelName);

} // namespace placescope
