// SPDX-License-Identifier: MIT
#include "tests/support/job/map_synthetic_job.h"

#include <utility>
#include <vector>

namespace placescope::testing {

Result<JobManifest> mapSyntheticJob(
    const SyntheticJobSpec& spec, const std::string& inputFolder, const std::string& jobFolder)
{
    std::vector<std::pair<std::string, int64_t>> mapped;
    for (const std::string& input : writeSyntheticJob(spec, inputFolder)) {
        auto rank = mapRank(input, jobFolder);
        if (!rank.isOk())
            return Status::error(input + ": " + rank.status().message());
        mapped.emplace_back(input, *rank);
    }
    return collectJob(jobFolder, mapped, {});
}

} // namespace placescope::testing
