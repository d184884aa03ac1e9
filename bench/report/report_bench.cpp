// SPDX-License-Identifier: MIT
// report_bench [trace.json.gz] [--rounds N]: each report's cost against the import's, in the same run. Each round
// imports the trace into a fresh store, then runs every report as `placescope report NAME store --format json` does
// (open, load, compute, render), each in its own forked child so wall time and peak RSS are the child's own. Prints
// the best round of each and the ratio report / import (goal: < 1 for every report). Default trace: the 53.7 MB V100
// trace in ../shared/traces.
#include "analysis/reports/reports.h"
#include "bench/common/best_of_rounds.h"
#include "bench/common/import_into.h"
#include "profiler/base/units.h"
#include "profiler/store/trace_file.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace placescope;

namespace {

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
    std::vector<bench::RoundStep> steps { { "import", [&] { return bench::importInto(trace, store); } } };
    for (const ReportInfo& report : reports)
        steps.push_back({ std::string(report.name), [&store, &report] { return reportOf(store, report); } });
    const auto best = bench::bestOfRounds("report_bench", rounds, steps);
    if (!best)
        return 1;
    const bench::ChildRun& bestImport = (*best)[0].fastest;
    std::printf("trace: %s\n", trace.c_str());
    std::printf("best import %s (%s peak)\n", formatNanoseconds(bestImport.seconds * 1e9).c_str(),
        formatBytes(bestImport.peakBytes).c_str());
    std::printf("%-14s %9s %11s %16s\n", "report", "best", "peak RSS", "ratio / import");
    double worst = 0;
    for (size_t i = 0; i < reports.size(); ++i) {
        const bench::ChildRun& run = (*best)[i + 1].fastest;
        const double ratio = run.seconds / bestImport.seconds;
        worst = std::max(worst, ratio);
        std::printf("%-14s %9s %11s %16.2f\n", std::string(reports[i].name).c_str(),
            formatNanoseconds(run.seconds * 1e9).c_str(), formatBytes(run.peakBytes).c_str(), ratio);
    }
    std::printf("largest ratio report / import: %.2f (goal < 1)\n", worst);
    std::filesystem::remove_all(dir);
    return 0;
}
