// SPDX-License-Identifier: MIT
// The engines that run `placescope job import`'s map tasks, one `placescope job map INPUT -o JOB` process per rank:
// this machine's own child processes (-j, bounded by cores and by memory), or a Dask cluster through the Python
// driver shipped with the package (share/placescope/placescope_dask.py). Each task that fails is retried once; both
// engines hand back the same outcomes, and the CLI builds the job's manifest from them, so the reports do not depend
// on the engine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace placescope::cli {

struct MapOutcome
{
    std::string input;
    std::optional<int64_t> rank; // set when the task succeeded
    std::string error; // its last error line otherwise
    int attempts = 0;
};

struct DaskTarget
{
    std::string address; // tcp://host:8786
    std::string schedulerFile; // what `dask scheduler --scheduler-file F` wrote
    int localWorkers = 0; // > 0: a LocalCluster of this many single-threaded processes
    bool any() const { return !address.empty() || !schedulerFile.empty() || localWorkers > 0; }
};

// The path of this executable (children run the same binary).
std::string selfExecutable();
// How many map processes may run at once: `requested` (0: one per core), at most one per 256 MiB of available memory.
int mapParallelism(int requested);
// Runs the tasks as child processes, at most `parallel` at once.
std::vector<MapOutcome> runMapTasksLocally(
    const std::vector<std::string>& inputs, const std::string& folder, int parallel, bool showProgress);
// Runs the tasks on Dask through the driver (with /usr/bin/python3, or $PLACESCOPE_PYTHON; the driver's path is
// $PLACESCOPE_DASK_DRIVER when set); fails (a message) when the driver cannot run or cannot reach the cluster.
std::optional<std::vector<MapOutcome>> runMapTasksOnDask(
    const std::vector<std::string>& inputs, const std::string& folder, const DaskTarget& target, std::string& error);

} // namespace placescope::cli
