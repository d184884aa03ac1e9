// SPDX-License-Identifier: MIT
// report_bench [trace.json.gz] [--rounds N]: each report's cost against the import's, in the same run. Each round
// imports the trace into a fresh store, then runs every report as `placescope report NAME store --format json` does
// (open, load, compute, render), each in its own forked child so wall time and peak RSS are the child's own. Prints
// the best round of each and the ratio report / import (goal: < 1 for every report). Default trace: the 53.7 MB V100
// trace in ../shared/traces.
#include "bench/common/child_run.h"
#include "bench/common/import_into.h"
#include "placement/reports/reports.h"
#include "profiler/store/trace_file.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace placescope;

namespace {

using bench::ChildRun;
using bench::runInChild;

int reportOf(const std::string& store, const ReportInfo& report)
{
    auto db = openTrace(store);
    if (!db.isOk())
        return 1;
    auto table = runReport(*db, report, ReportOptions {});
    if (!table.isOk())
        return 1;
    return renderTable(*table, TableFormat::Json).size() >= 3 ? 0 : 1; // at least "[]\n"
}

} // namespace

int main(int argc, char** argv)
{
    std::string trace = std::string(PLACESCOPE_SOURCE_DIR) + "/../shared/traces/hta_v100_rank1of2_memory.json.gz";
    int rounds = 3;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else
            trace = argv[i];
    }
    const auto dir = std::filesystem::temp_directory_path() / ("report_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string store = (dir / "run.sqlite").string();
    const auto& reports = allReports();
    ChildRun bestImport;
    bestImport.seconds = 1e300;
    std::vector<ChildRun> best(reports.size());
    for (auto& b : best)
        b.seconds = 1e300;
    for (int r = 0; r < rounds; ++r) {
        ChildRun imported = runInChild([&] { return bench::importInto(trace, store); });
        if (!imported.ok) {
            std::fprintf(stderr, "report_bench: cannot import %s\n", trace.c_str());
            return 1;
        }
        bestImport = imported.seconds < bestImport.seconds ? imported : bestImport;
        std::printf("round %d: import %.3f s (%.0f MB peak)", r, imported.seconds, imported.peakMb);
        for (size_t i = 0; i < reports.size(); ++i) {
            ChildRun ran = runInChild([&] { return reportOf(store, reports[i]); });
            if (!ran.ok) {
                std::fprintf(stderr, "\nreport_bench: report %s failed\n", std::string(reports[i].name).c_str());
                return 1;
            }
            best[i] = ran.seconds < best[i].seconds ? ran : best[i];
            std::printf(", %s %.3f s", std::string(reports[i].name).c_str(), ran.seconds);
        }
        std::printf("\n");
    }
    std::printf("trace: %s\n", trace.c_str());
    std::printf("best import %.3f s (%.0f MB peak)\n", bestImport.seconds, bestImport.peakMb);
    std::printf("%-14s %9s %9s %16s\n", "report", "best s", "peak MB", "ratio / import");
    double worst = 0;
    for (size_t i = 0; i < reports.size(); ++i) {
        const double ratio = best[i].seconds / bestImport.seconds;
        worst = std::max(worst, ratio);
        std::printf("%-14s %9.3f %9.0f %16.2f\n", std::string(reports[i].name).c_str(), best[i].seconds, best[i].peakMb,
                    ratio);
    }
    std::printf("largest ratio report / import: %.2f (goal < 1)\n", worst);
    std::filesystem::remove_all(dir);
    return 0;
}
