// SPDX-License-Identifier: MIT
// The benches' measuring loop: N rounds, each running the same named steps one after another, every step in its own
// forked child (child_run.h), keeping each step's fastest run. Interleaving the steps round by round means a slow
// spell of a loaded machine hits the baseline and the measured step alike, so their ratio stays fair. One line per
// round goes to stdout ("round 0: import 1.02 s (176 MiB peak), diff 0.98 s (77.0 MiB peak)"), through the units
// formatter like every figure Placescope prints.
#pragma once

#include "bench/common/child_run.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace placescope::bench {

struct RoundStep
{
    std::string name; // "import", "diff", a report's name
    std::function<int()> body; // runs in the child; exit code 0 is success
    std::string failed = "failed"; // what a failure means, for the one-line error
};

struct BestRun
{
    ChildRun fastest; // the fastest round, with its own peak RSS
    int64_t largestPeakBytes = 0; // the largest peak RSS over all rounds (memory goals use the worst case)
};

// Runs `steps` `rounds` times; returns each step's best run in the order given, or nothing after printing
// "<bench>: round R: <step> <failed>" to stderr when a step fails.
inline std::optional<std::vector<BestRun>> bestOfRounds(
    const char* bench, int rounds, const std::vector<RoundStep>& steps)
{
    std::vector<BestRun> best(steps.size());
    for (int r = 0; r < rounds; ++r) {
        std::string line = "round " + std::to_string(r) + ":";
        for (size_t i = 0; i < steps.size(); ++i) {
            const ChildRun run = runInChild(steps[i].body);
            if (!run.ok) {
                std::fprintf(stderr, "%s: round %d: %s %s\n", bench, r, steps[i].name.c_str(), steps[i].failed.c_str());
                return std::nullopt;
            }
            if (r == 0 || run.seconds < best[i].fastest.seconds)
                best[i].fastest = run;
            best[i].largestPeakBytes = std::max(best[i].largestPeakBytes, run.peakBytes);
            line += (i ? ", " : " ") + steps[i].name + " " + formatNanoseconds(run.seconds * 1e9) + " ("
                + formatBytes(run.peakBytes) + " peak)";
        }
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    }
    return best;
}

} // namespace placescope::bench
