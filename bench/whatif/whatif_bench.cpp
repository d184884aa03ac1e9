// SPDX-License-Identifier: MIT
// whatif_bench [trace.json.gz] [--rounds N] [--synthetic EVENTS]: the what-if's cost against the import's, in the
// same run. Each round imports the trace (the baseline: what a user already waits for) and then runs what
// `placescope whatif TRACE --edit no-sync` does on the imported file (load, steps, graph, replay, one edited
// replay), each in its own forked child so wall time and peak RSS are the child's own. Prints the best round of
// each and the ratios whatif / import (goal: <= 1) and whatif peak RSS / store size (goal for the synthetic trace:
// < 1). Default trace: the 53.7 MB V100 trace in ../shared/traces.
#include "analysis/trace/step_detector.h"
#include "bench/common/best_of_rounds.h"
#include "bench/common/import_into.h"
#include "bench/import/synthetic_kineto.h"
#include "profiler/base/units.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"
#include "whatif/whatif.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>

using namespace placescope;

namespace {

using bench::importInto;

int whatIfOn(const std::string& store)
{
    auto db = openTrace(store);
    if (!db.isOk())
        return 1;
    WhatIfOptions options;
    options.edits.push_back(parseEdit("no-sync").value());
    StepSet steps;
    auto data = loadForWhatIf(*db, options.edits, &steps);
    if (!data.isOk())
        return 1;
    auto result = runWhatIf(*db, *data, steps, options);
    return result.isOk() && result->replay.stepNs == result->measured.stepNs ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    std::string trace = std::string(PLACESCOPE_SOURCE_DIR) + "/../shared/traces/hta_v100_rank1of2_memory.json.gz";
    int rounds = 3;
    uint64_t synthetic = 0;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--synthetic") && i + 1 < argc)
            synthetic = std::strtoull(argv[++i], nullptr, 10);
        else
            trace = argv[i];
    }
    const auto dir = std::filesystem::temp_directory_path() / ("whatif_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    if (synthetic > 0) {
        trace = (dir / "synthetic.json.gz").string();
        bench::SyntheticTrace written;
        if (!bench::writeSyntheticKinetoTrace(trace, synthetic, &written)) {
            std::fprintf(stderr, "whatif_bench: cannot write %s\n", trace.c_str());
            return 1;
        }
        std::printf("synthetic trace: %llu events, %s of JSON\n", static_cast<unsigned long long>(written.events),
            formatBytes(static_cast<int64_t>(written.uncompressedBytes)).c_str());
    }
    const std::string store = (dir / "run.sqlite").string();
    const auto best = bench::bestOfRounds("whatif_bench", rounds,
        { { "import", [&] { return importInto(trace, store); } },
            { "whatif", [&] { return whatIfOn(store); }, "failed or did not reproduce the measured step" } });
    if (!best)
        return 1;
    const bench::ChildRun& bestImport = (*best)[0].fastest;
    const bench::ChildRun& bestWhatIf = (*best)[1].fastest;
    const auto storeBytes = static_cast<int64_t>(std::filesystem::file_size(store));
    std::printf("trace: %s\n", trace.c_str());
    std::printf("best import %s, best whatif (load + graph + replay + edited replay) %s\n",
        formatNanoseconds(bestImport.seconds * 1e9).c_str(), formatNanoseconds(bestWhatIf.seconds * 1e9).c_str());
    std::printf("ratio whatif / import: %.2f (goal <= 1)\n", bestWhatIf.seconds / bestImport.seconds);
    std::printf("whatif peak RSS %s, store %s: ratio %.2f\n", formatBytes(bestWhatIf.peakBytes).c_str(),
        formatBytes(storeBytes).c_str(), static_cast<double>(bestWhatIf.peakBytes) / static_cast<double>(storeBytes));
    std::filesystem::remove_all(dir);
    return 0;
}
