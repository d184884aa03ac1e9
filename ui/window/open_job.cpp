// SPDX-License-Identifier: MIT
#include "ui/window/open_job.h"

#include "placement/cost/device_table.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"
#include "ui/core/trace_loader.h"
#include "ui/reports/report_counters.h"
#include "whatif/run_analysis.h"

#include <chrono>
#include <filesystem>

namespace placescope::ui {

OpenResult openAnyTrace(
    const std::string& input, const std::string& tempDir, const ProgressFn& progress, const CancelToken* cancel)
{
    const auto started = std::chrono::steady_clock::now();
    OpenResult result;
    result.inputPath = input;
    std::string tracePath = input;
    if (!openTrace(input).isOk()) {
        // Not a Placescope trace: import it (Kineto JSON, nsys SQLite) to a temp trace first.
        auto format = sniffTraceFormat(input);
        if (!format.isOk()) {
            result.error = format.status().message();
            return result;
        }
        std::filesystem::path out = std::filesystem::path(tempDir)
            / (std::filesystem::path(input).filename().string() + ".placescope.sqlite");
        ImportOptions options;
        options.cancel = cancel;
        if (progress)
            options.progress = [&](uint64_t done, uint64_t total) { progress(total ? done * 800 / total : 0, 1000); };
        auto imported = importTraces({ input }, out.string(), options);
        if (!imported.isOk()) {
            result.error = imported.status().message();
            return result;
        }
        tracePath = out.string();
    }
    auto loaded = loadTrace(
        tracePath,
        [&](uint64_t done, uint64_t total) {
            if (progress)
                progress(800 + done * 200 / std::max<uint64_t>(total, 1), 1000);
        },
        cancel);
    if (!loaded.isOk()) {
        result.error = loaded.status().message();
        return result;
    }
    result.tracePath = tracePath;
    LoadedTrace lanes = std::move(loaded).value(); // shared once the report counter tracks are added
    result.loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (cancel && cancel->isCancelled()) {
        result.error = "cancelled";
        return result;
    }
    // Whether placement can cost the traced GPU (--gpu from-trace): the same reading the cost model does.
    if (auto table = DeviceTable::builtin(); table.isOk())
        if (auto gpu = gpuSpecFromTrace(tracePath, table.value(), nullptr); gpu.isOk())
            result.traceGpuName = gpu.value().name;
    // Stats and findings are extras: a failure there leaves the timeline usable.
    if (auto db = openTrace(tracePath)) {
        StatsOptions statsOptions;
        statsOptions.topKernels = 0;
        if (auto stats = computeTraceStats(*db, statsOptions))
            result.stats = std::move(stats).value();
        // One load for the findings and the Reports panel, which runs its reports on it later.
        if (auto data = TraceData::load(*db)) {
            auto shared = std::make_shared<const TraceData>(std::move(data).value());
            // `placescope analyze`'s analysis (the replay's savings, its ranking): the same call, the same figures.
            if (auto report = analyzeMeasuredRun(*db, *shared, RunAnalysisRequest {}))
                result.findings = std::move(report).value();
            // The reports' time series as counter tracks under the memory ones (queue per stream, copy bandwidth).
            for (CounterSeries& series : reportCounterTracks(*shared))
                lanes.counters.push_back(std::move(series));
            result.reportData = std::move(shared);
        }
        if (auto ops = summarizeFrameworkOps(*db))
            result.opSummary = std::move(ops).value();
    }
    result.trace = std::make_shared<const LoadedTrace>(std::move(lanes));
    return result;
}

} // namespace placescope::ui
