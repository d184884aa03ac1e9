// SPDX-License-Identifier: MIT
// whatif_bench [trace.json.gz] [--rounds N] [--synthetic EVENTS]: the what-if's cost against the import's, in the
// same run. Each round imports the trace (the baseline: what a user already waits for) and then runs what
// `placescope whatif TRACE --edit no-sync` does on the imported file (load, steps, graph, replay, one edited
// replay), each in its own forked child so wall time and peak RSS are the child's own. Prints the best round of
// each and the ratios whatif / import (goal: <= 1) and whatif peak RSS / store size (goal for the synthetic trace:
// < 1). Default trace: the 53.7 MB V100 trace in ../shared/traces.
#include "bench/common/child_run.h"
#include "bench/common/import_into.h"
#include "bench/import/synthetic_kineto.h"
#include "placement/findings/step_detector.h"
#include "placement/whatif/whatif.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace placescope;

namespace {

using bench::ChildRun;
using bench::runInChild;

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
        std::printf("synthetic trace: %llu events, %.1f MB of JSON\n", static_cast<unsigned long long>(written.events),
                    static_cast<double>(written.uncompressedBytes) / 1e6);
    }
    const std::string store = (dir / "run.sqlite").string();
    ChildRun bestImport, bestWhatIf;
    bestImport.seconds = bestWhatIf.seconds = 1e300;
    for (int r = 0; r < rounds; ++r) {
        ChildRun imported = runInChild([&] { return importInto(trace, store); });
        ChildRun replayed = runInChild([&] { return whatIfOn(store); });
        if (!imported.ok || !replayed.ok) {
            std::fprintf(stderr, "whatif_bench: round %d failed (import %s, whatif %s)\n", r, imported.ok ? "ok" : "failed",
                         replayed.ok ? "ok" : "failed or did not reproduce the measured step");
            return 1;
        }
        std::printf("round %d: import %.3f s (%.0f MB peak), whatif %.3f s (%.0f MB peak)\n", r, imported.seconds,
                    imported.peakMb, replayed.seconds, replayed.peakMb);
        if (imported.seconds < bestImport.seconds)
            bestImport = imported;
        if (replayed.seconds < bestWhatIf.seconds)
            bestWhatIf = replayed;
    }
    const double storeMb = static_cast<double>(std::filesystem::file_size(store)) / (1024.0 * 1024.0);
    std::printf("trace: %s\n", trace.c_str());
    std::printf("best import %.3f s, best whatif (load + graph + replay + edited replay) %.3f s\n", bestImport.seconds,
                bestWhatIf.seconds);
    std::printf("ratio whatif / import: %.2f (goal <= 1)\n", bestWhatIf.seconds / bestImport.seconds);
    std::printf("whatif peak RSS %.0f MB, store %.0f MB: ratio %.2f\n", bestWhatIf.peakMb, storeMb, bestWhatIf.peakMb / storeMb);
    std::filesystem::remove_all(dir);
    return 0;
}
