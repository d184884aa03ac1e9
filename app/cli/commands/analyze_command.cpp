// SPDX-License-Identifier: MIT
// `placescope analyze run.sqlite [--model model.onnx] [--format text|md|html|json] [-o report.html]`: the
// findings (what is wrong, the evidence, the saving per step and the fix), ranked by estimated saving. The
// analysis lives in analysis/findings and the writers in analysis/render; this file parses arguments,
// opens the trace and writes the report (atomically when -o is given; then a summary line goes to stderr).
#include "analysis/render/report_writer.h"
#include "app/cli/command_registry.h"
#include "app/cli/document_output.h"
#include "app/cli/trace_input.h"
#include "placement/graph/model_loader.h"
#include "profiler/base/printable_text.h"
#include "profiler/store/trace_file.h"
#include "whatif/run_analysis.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace placescope::cli {
namespace {

struct AnalyzeArgs
{
    std::string trace;
    std::string model;
    DocumentOutput output { "analyze" };
    bool quiet = false;
};

int runAnalyze(AnalyzeArgs& args)
{
    DocumentOutput& output = args.output;
    output.inputs = { args.trace, args.model };
    auto name = output.formatName({ { ".html", "html" }, { ".htm", "html" }, { ".json", "json" }, { ".md", "md" } });
    auto format = name.isOk() ? parseReportFormat(*name) : Result<ReportFormat>(name.status());
    if (!format.isOk()) {
        output.error(format.status().message());
        return 2;
    }
    if (!args.model.empty() && !std::filesystem::is_regular_file(args.model)) {
        printLine(stderr, "placescope analyze: model file not found: %s\n", args.model.c_str());
        return 1;
    }
    // A model that does not load would silently leave the engine out of the report: refuse it up front.
    if (!args.model.empty())
        if (auto model = loadModelGraph(args.model); !model.isOk()) {
            printLine(stderr, "placescope analyze: --model: %s\n", model.status().message().c_str());
            return 1;
        }
    // Refused before the analysis, not after it: -o naming the trace or the model, a device or a folder.
    if (!output.checkPath())
        return 1;
    // Kineto JSON and nsys exports are imported to a temporary trace first (removed when the command ends).
    auto input = TraceInput::open(args.trace, "analyze", args.quiet);
    if (!input.isOk()) {
        printLine(stderr, "placescope analyze: %s\n", input.status().message().c_str());
        return 1;
    }
    auto db = openTrace(input->path());
    if (!db.isOk()) {
        printLine(stderr, "placescope analyze: %s\n", db.status().message().c_str());
        return 1;
    }
    auto trace = TraceData::load(*db);
    if (!trace.isOk()) {
        printLine(stderr, "placescope analyze: %s: %s\n", args.trace.c_str(), trace.status().message().c_str());
        return 1;
    }
    // The GUI's findings pane calls the same function: the replay's savings, and the engine's with a model.
    RunAnalysisRequest request;
    request.modelPath = args.model;
    auto report = analyzeMeasuredRun(*db, *trace, request);
    if (!report.isOk()) {
        printLine(stderr, "placescope analyze: %s: %s\n", args.trace.c_str(), report.status().message().c_str());
        return 1;
    }
    report->traceName = std::filesystem::path(args.trace).filename().string();
    // The HTML report plots the time-series reports (queue_timeline, memory, bandwidth) of the same loaded trace.
    std::optional<TimeSeriesTables> series;
    if (*format == ReportFormat::Html) {
        auto tables = timeSeriesTables(*trace);
        if (!tables.isOk()) {
            printLine(stderr, "placescope analyze: %s: %s\n", args.trace.c_str(), tables.status().message().c_str());
            return 1;
        }
        series = std::move(tables.value());
    }
    if (int status = output.write(renderReport(*report, *format, series ? &*series : nullptr)); status != 0)
        return status;
    if (!output.toStdout() && !args.quiet)
        printLine(stderr, "placescope analyze: %zu finding(s), report written to %s\n", report->findings.size(),
            output.path.c_str());
    return 0;
}

const CommandRegistration kRegistration { "analyze",
    "Find wasted GPU time: ranked findings with evidence, saving per step and fixes", 40,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<AnalyzeArgs>();
        app.add_option("trace", args->trace, traceArgumentHelp())->required();
        app.add_option("--model", args->model, "ONNX model of the run, for the placement engine's estimates");
        addDocumentOptions(app, args->output, "text, md, html or json");
        app.add_flag("-q,--quiet", args->quiet, "No summary line on stderr (errors still print)");
        return [args] { return runAnalyze(*args); };
    } };

} // namespace
} // namespace placescope::cli
