// SPDX-License-Identifier: MIT
// A synthetic job written and mapped in this process, one rank after another (what `placescope job import` does in
// child processes): the job folder the reduce, the reports and the app read, for tests that need one quickly.
#pragma once

#include "analysis/job/job_folder.h"
#include "tests/support/job/synthetic_job.h"

#include <string>

namespace placescope::testing {

// Writes `spec`'s rank files into `inputFolder`, maps each into `jobFolder` and collects the manifest; the first
// error names the rank file it came from.
Result<JobManifest> mapSyntheticJob(
    const SyntheticJobSpec& spec, const std::string& inputFolder, const std::string& jobFolder);

} // namespace placescope::testing
