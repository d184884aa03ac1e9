// SPDX-License-Identifier: MIT
// diff_bench [trace.json.gz] [--rounds N]: the diff's cost against the import's, in the same run. Each round imports
// the trace twice (two stores: the two sides of a diff, as a user has them) and then does what `placescope diff
// A B --format json` does (both sides profiled on two threads, compared, rendered), each in its own forked child so
// wall time and peak RSS are the child's own. Prints the best round of each and the ratio diff / one import (goal:
// <= 1). Default trace: the 53.7 MB V100 trace in ../shared/traces.
#include "analysis/diff/diff_report.h"
#include "bench/common/best_of_rounds.h"
#include "bench/common/import_into.h"
#include "profiler/base/units.h"
#include "profiler/importers/importer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <string>
#include <unistd.h>

using namespace placescope;

namespace {

using bench::importInto;

// What the diff command does, without printing: both profiles (the second on its own thread), diff, JSON.
int diffOf(const std::string& a, const std::string& b)
{
    ProfileOptions options;
    auto after = std::async(std::launch::async, [&] { return profileRun(b, options); });
    auto before = profileRun(a, options);
    auto afterResult = after.get();
    if (!before.isOk() || !afterResult.isOk())
        return 1;
    auto diff = diffRuns(*before, *afterResult, {});
    if (!diff.isOk())
        return 1;
    const std::string json = renderDiffJson(*diff);
    return json.size() > 2 && diff->stepDeltaNs() == 0 ? 0 : 1; // the same trace twice: no step delta
}

} // namespace

int main(int argc, char** argv)
{
    std::string trace = std::string(PLACESCOPE_SOURCE_DIR) + "/../shared/traces/hta_v100_rank1of2_memory.json.gz";
    int rounds = 5;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else
            trace = argv[i];
    }
    const auto dir = std::filesystem::temp_directory_path() / ("diff_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string a = (dir / "a.sqlite").string(), b = (dir / "b.sqlite").string();
    if (importInto(trace, b) != 0) {
        std::fprintf(stderr, "diff_bench: cannot import %s\n", trace.c_str());
        return 1;
    }
    const auto best = bench::bestOfRounds("diff_bench", rounds,
        { { "import", [&] { return importInto(trace, a); } },
            { "diff", [&] { return diffOf(a, b); }, "failed or found a step delta between identical runs" } });
    if (!best)
        return 1;
    const bench::ChildRun& bestImport = (*best)[0].fastest;
    const bench::ChildRun& bestDiff = (*best)[1].fastest;
    std::printf("trace: %s\n", trace.c_str());
    std::printf("best import (one trace) %s, best diff (two traces: stats + analysis + groups each, compared) %s "
                "(%s peak)\n",
        formatNanoseconds(bestImport.seconds * 1e9).c_str(), formatNanoseconds(bestDiff.seconds * 1e9).c_str(),
        formatBytes(bestDiff.peakBytes).c_str());
    std::printf("ratio diff / import: %.2f (goal <= 1)\n", bestDiff.seconds / bestImport.seconds);
    std::filesystem::remove_all(dir);
    return 0;
}
