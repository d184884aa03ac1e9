// SPDX-License-Identifier: MIT
// synthetic_job -o DIR [--ranks N] [--steps S] [--collectives C] [--ranks-per-host H] [--straggler R --delay-us D]
// [--clock-offset-us O]: writes a synthetic job's rank files (tests/support/job/synthetic_job.h) for the Dask test and
// the bench, and prints their paths, one a line.
#include "tests/support/job/synthetic_job.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

int main(int argc, char** argv)
{
    placescope::testing::SyntheticJobSpec spec;
    std::string folder;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        const long long value = std::atoll(argv[i + 1]);
        if (key == "-o")
            folder = argv[i + 1];
        else if (key == "--ranks")
            spec.ranks = static_cast<int>(value);
        else if (key == "--steps")
            spec.steps = static_cast<int>(value);
        else if (key == "--collectives")
            spec.collectivesPerStep = static_cast<int>(value);
        else if (key == "--ranks-per-host")
            spec.ranksPerHost = static_cast<int>(value);
        else if (key == "--straggler")
            spec.stragglerRank = static_cast<int>(value);
        else if (key == "--delay-us")
            spec.stragglerDelayNs = value * 1000;
        else if (key == "--clock-offset-us")
            spec.hostClockOffsetNs = value * 1000;
        else {
            std::fprintf(stderr, "synthetic_job: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    if (folder.empty() || spec.ranks < 1 || spec.steps < 1 || spec.collectivesPerStep < 1 || spec.ranksPerHost < 1) {
        std::fprintf(stderr, "synthetic_job: -o DIR is required; counts must be 1 or more\n");
        return 2;
    }
    try {
        for (const std::string& path : placescope::testing::writeSyntheticJob(spec, folder))
            std::printf("%s\n", path.c_str());
    } catch (const std::exception& error) {
        std::fprintf(stderr, "synthetic_job: %s\n", error.what());
        return 1;
    }
    return 0;
}
