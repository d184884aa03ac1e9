// SPDX-License-Identifier: MIT
// `placescope analyze run.sqlite [--model model.onnx] [--format text|md|html|json] [-o report.html]`: the
// findings (what is wrong, the evidence, the saving per step and the fix), ranked by estimated saving. The
// analysis lives in analysis/findings and the writers in analysis/render; this file parses arguments,
// opens the trace and writes the report (atomically when -o is given; then a summary line goes to stderr).
#include "analysis/render/report_writer.h"
#include "app/cli/command_registry.h"
#include "app/cli/trace_input.h"
#include "placement/graph/model_loader.h"
#include "profiler/base/output_file.h"
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
    std::string format;
    std::string output;
    bool quiet = false;
};

// The format from --format, else from the output file's extension, else text.
Result<ReportFormat> chooseFormat(const AnalyzeArgs& args)
{
    if (!args.format.empty())
        return parseReportFormat(args.format);
    std::string ext = std::filesystem::path(args.output).extension().string();
    if (ext == ".html" || ext == ".htm")
        return ReportFormat::Html;
    if (ext == ".json")
        return ReportFormat::Json;
    if (ext == ".md")
        return ReportFormat::Markdown;
    return ReportFormat::Text;
}

int runAnalyze(const AnalyzeArgs& args)
{
    auto format = chooseFormat(args);
    if (!format.isOk()) {
        std::fprintf(stderr, "placescope analyze: %s\n", format.status().message().c_str());
        return 2;
    }
    if (!args.model.empty() && !std::filesystem::is_regular_file(args.model)) {
        std::fprintf(stderr, "placescope analyze: model file not found: %s\n", args.model.c_str());
        return 1;
    }
    // A model that does not load would silently leave the engine out of the report: refuse it up front.
    if (!args.model.empty())
        if (auto model = loadModelGraph(args.model); !model.isOk()) {
            std::fprintf(stderr, "placescope analyze: --model: %s\n", model.status().message().c_str());
            return 1;
        }
    // Refused before the analysis, not after it: -o naming the trace or the model, a device or a folder.
    const bool toStdout = args.output.empty() || args.output == "-";
    if (!toStdout)
        if (Status usable = checkOutputPath(args.output, { args.trace, args.model }); !usable.isOk()) {
            std::fprintf(stderr, "placescope analyze: %s\n", usable.message().c_str());
            return 1;
        }
    // Kineto JSON and nsys exports are imported to a temporary trace first (removed when the command ends).
    auto input = TraceInput::open(args.trace, "analyze", args.quiet);
    if (!input.isOk()) {
        std::fprintf(stderr, "placescope analyze: %s\n", input.status().message().c_str());
        return 1;
    }
    auto db = openTrace(input->path());
    if (!db.isOk()) {
        std::fprintf(stderr, "placescope analyze: %s\n", db.status().message().c_str());
        return 1;
    }
    auto trace = TraceData::load(*db);
    if (!trace.isOk()) {
        std::fprintf(stderr, "placescope analyze: %s: %s\n", args.trace.c_str(), trace.status().message().c_str());
        return 1;
    }
    // The GUI's findings pane calls the same function: the replay's savings, and the engine's with a model.
    RunAnalysisRequest request;
    request.modelPath = args.model;
    auto report = analyzeMeasuredRun(*db, *trace, request);
    if (!report.isOk()) {
        std::fprintf(stderr, "placescope analyze: %s: %s\n", args.trace.c_str(), report.status().message().c_str());
        return 1;
    }
    report->traceName = std::filesystem::path(args.trace).filename().string();
    // The HTML report plots the time-series reports (queue_timeline, memory, bandwidth) of the same loaded trace.
    std::optional<TimeSeriesTables> series;
    if (*format == ReportFormat::Html) {
        auto tables = timeSeriesTables(*trace);
        if (!tables.isOk()) {
            std::fprintf(stderr, "placescope analyze: %s: %s\n", args.trace.c_str(), tables.status().message().c_str());
            return 1;
        }
        series = std::move(tables.value());
    }
    std::string text = renderReport(*report, *format, series ? &*series : nullptr);
    if (toStdout) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    Status written = writeReportFile(args.output, text, { args.trace, args.model });
    if (!written.isOk()) {
        std::fprintf(stderr, "placescope analyze: %s\n", written.message().c_str());
        return 1;
    }
    if (!args.quiet)
        std::fprintf(stderr, "placescope analyze: %zu finding(s), report written to %s\n", report->findings.size(),
            args.output.c_str());
    return 0;
}

const CommandRegistration kRegistration { "analyze",
    "Find wasted GPU time: ranked findings with evidence, saving per step and fixes", 40,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<AnalyzeArgs>();
        app.add_option("trace", args->trace,
               "Trace: Placescope, PyTorch profiler JSON or nsys export (imported to a temp trace)")
            ->required();
        app.add_option("--model", args->model, "ONNX model of the run, for the placement engine's estimates");
        app.add_option("--format", args->format, "text, md, html or json (default: from -o's extension, else text)");
        app.add_option("-o,--output", args->output, "Write the report here instead of stdout");
        app.add_flag("-q,--quiet", args->quiet, "No summary line on stderr (errors still print)");
        return [args] { return runAnalyze(*args); };
    } };

} // namespace
} // namespace placescope::cli
