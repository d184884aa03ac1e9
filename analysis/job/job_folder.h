// SPDX-License-Identifier: MIT
// The job folder `placescope job import` writes and `job report` / `job analyze` / the GUI read:
//   job.json                      the manifest: ranks (numerically) with their input, trace and summary; the
//                                 inputs that failed twice, with why; the ranks missing from the world size
//   ranks/rank-<r>.sqlite         each rank's trace, as `placescope import` makes it
//   ranks/rank-<r>.summary.json   each rank's RankSummary
// mapRank is one map task (what an engine runs per rank, in its own process): import, summarize, move into place.
#pragma once

#include "profiler/base/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope {

struct JobManifestRank
{
    int64_t rank = -1;
    std::string input; // as given
    std::string trace; // relative to the job folder
    std::string summary; // relative to the job folder
};

struct JobFailure
{
    std::string input;
    std::string error;
};

struct JobManifest
{
    int64_t worldSize = -1;
    std::vector<JobManifestRank> ranks; // numerically by rank
    std::vector<JobFailure> failed;
    std::vector<int64_t> missing;
};

std::string rankTraceName(int64_t rank); // "ranks/rank-12.sqlite"
std::string rankSummaryName(int64_t rank); // "ranks/rank-12.summary.json"
std::string jobManifestPath(const std::string& folder);

Status writeJobManifest(const std::string& folder, const JobManifest& manifest);
Result<JobManifest> readJobManifest(const std::string& folder);
std::vector<std::string> failureLines(const JobManifest& manifest); // "file: why"
std::vector<std::string> summaryPaths(const std::string& folder, const JobManifest& manifest);

// One map task: imports `input` (one rank's file) into the job folder's ranks/, summarizes it and moves both into
// place under the rank the trace names. Returns that rank. Leaves nothing behind when it fails.
Result<int64_t> mapRank(const std::string& input, const std::string& folder);

// Builds the manifest from the ranks' summaries that map tasks wrote for `inputs` (in any order) and the failures an
// engine saw; two inputs of one rank are an error naming both.
Result<JobManifest> collectJob(const std::string& folder, const std::vector<std::pair<std::string, int64_t>>& mapped,
    std::vector<JobFailure> failed);

} // namespace placescope
