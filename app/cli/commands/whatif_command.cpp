// SPDX-License-Identifier: MIT
// `placescope whatif run.sqlite [--edit E]... [--format text|json | --json] [-o predicted.sqlite]` and
// `placescope critical-path run.sqlite [--step N] [--format text|json | --json]`: replay a measured run from its
// dependency graph, then predict it after the edits. The simulation lives in whatif; this file parses arguments, loads
// the trace and prints. A malformed edit or a missing step is a usage error (exit 2).
#include "analysis/trace/step_detector.h"
#include "app/cli/command_registry.h"
#include "app/cli/count_option.h"
#include "app/cli/document_output.h"
#include "app/cli/trace_input.h"
#include "profiler/base/output_file.h"
#include "profiler/base/printable_text.h"
#include "profiler/store/trace_file.h"
#include "whatif/prediction_file.h"
#include "whatif/whatif.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace placescope::cli {
namespace {

struct WhatIfArgs
{
    std::string trace;
    std::vector<std::string> edits;
    DocumentOutput document; // --format/--json; the document goes to stdout (-o is the predicted trace)
    std::string output;
    std::string compare; // the run measured after the change
    int64_t step = -1;
    bool quiet = false;
};

// The run measured after the change, by the same step and span rules, beside the prediction.
Status compareWith(const std::string& path, WhatIfResult& result, bool quiet)
{
    PLACESCOPE_ASSIGN_OR_RETURN(TraceInput input, TraceInput::open(path, "whatif", quiet));
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, openTrace(input.path()));
    return compareWithMeasured(result, db);
}

int runWhatIfCommand(WhatIfArgs& args, bool criticalPathOnly)
{
    const char* command = criticalPathOnly ? "critical-path" : "whatif";
    args.document.command = command;
    auto format = args.document.formatName();
    if (format.isOk() && *format != "text" && *format != "json")
        format = Status::error("--format must be text or json, not '" + *format + "'");
    if (!format.isOk()) {
        args.document.error(format.status().message());
        return 2;
    }
    const bool json = *format == "json";
    WhatIfOptions options;
    options.criticalPathStep = args.step;
    for (const std::string& text : args.edits) {
        auto edit = parseEdit(text);
        if (!edit.isOk()) {
            printLine(stderr, "placescope %s: %s\n", command, edit.status().message().c_str());
            return 2;
        }
        options.edits.push_back(std::move(edit.value()));
    }
    // Refused before the replay, not after it: -o naming the trace, a device or a folder.
    if (!args.output.empty())
        if (Status usable = checkOutputPath(args.output, { args.trace, args.compare }); !usable.isOk()) {
            printLine(stderr, "placescope %s: %s\n", command, usable.message().c_str());
            return 1;
        }
    // Kineto JSON and nsys exports are imported to a temporary trace first (removed when the command ends).
    auto input = TraceInput::open(args.trace, command, args.quiet);
    if (!input.isOk()) {
        printLine(stderr, "placescope %s: %s\n", command, input.status().message().c_str());
        return 1;
    }
    auto db = openTrace(input->path());
    if (!db.isOk()) {
        printLine(stderr, "placescope %s: %s\n", command, db.status().message().c_str());
        return 1;
    }
    StepSet steps;
    auto trace = loadForWhatIf(*db, options.edits, &steps);
    if (!trace.isOk()) {
        printLine(stderr, "placescope %s: %s: %s\n", command, args.trace.c_str(), trace.status().message().c_str());
        return 1;
    }
    auto result = runWhatIf(*db, *trace, steps, options);
    if (!result.isOk()) {
        printLine(stderr, "placescope %s: %s\n", command, result.status().message().c_str());
        return args.step >= 0 ? 2 : 1;
    }
    if (!args.compare.empty()) {
        if (Status compared = compareWith(args.compare, *result, args.quiet); !compared.isOk()) {
            printLine(stderr, "placescope %s: --compare %s\n", command, compared.message().c_str());
            return 1;
        }
    }
    if (!args.output.empty()) {
        Status written = writePredictedTrace(input->path(), args.output, *result);
        if (!written.isOk()) {
            printLine(stderr, "placescope %s: %s\n", command, written.message().c_str());
            return 1;
        }
        if (!args.quiet)
            printLine(stderr, "placescope %s: predicted trace written to %s\n", command, args.output.c_str());
    }
    return args.document.write(criticalPathOnly
            ? (json ? criticalPathJson(*result, *trace) : criticalPathText(*result, *trace))
            : (json ? whatIfJson(*result, *trace) : whatIfText(*result, *trace)));
}

const CommandRegistration kWhatIf { "whatif",
    "Replay a measured run from its dependency graph and predict it after fixes (--edit)", 45,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<WhatIfArgs>();
        app.add_option("trace", args->trace, traceArgumentHelp())->required();
        app.add_option("--edit", args->edits,
            "A fix to try (repeatable): no-sync[:REGEX], kernels:REGEX=xF, drop:REGEX, drop:op:NAME, pinned, "
            "launch=xF, input=xF, workers=N, op:NAME=cpu|gpu, overlap-comm. REGEX is RE2 syntax, matched anywhere in "
            "the name");
        addDocumentOptions(app, args->document, "text or json (JSON for scripts)", false);
        app.add_option("-o,--output", args->output, "Write the predicted timeline as a Placescope trace");
        app.add_flag("-q,--quiet", args->quiet, "No summary line on stderr (errors still print)");
        app.add_option("--compare", args->compare,
            "A trace measured after making the change: prints its step and span beside the prediction, with the error");
        return [args] { return runWhatIfCommand(*args, false); };
    } };

const CommandRegistration kCriticalPath { "critical-path",
    "The chain of work that sets the run's step time, by category (CPU, launch, kernel, sync...)", 46,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<WhatIfArgs>();
        app.add_option("trace", args->trace, traceArgumentHelp())->required();
        app.add_option("--step", args->step, "Only this step (its number in the trace)")
            ->check(wholeNumberFromZero()); // -1 is "every step" inside, not a step a user names (issue 27)
        addDocumentOptions(app, args->document, "text or json (JSON for scripts)", false);
        return [args] { return runWhatIfCommand(*args, true); };
    } };

} // namespace
} // namespace placescope::cli
