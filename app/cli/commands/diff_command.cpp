// SPDX-License-Identifier: MIT
// `placescope diff before.sqlite after.sqlite [--step N | --all-steps] [--by kernel|op|annotation|stream|class]
//  [--short-names] [--simulate] [--format text|json|html] [-o out]`: what changed between two runs (step time, GPU busy
//  and idle,
// memory, copies, kernels by name, findings). The comparison lives in analysis/diff; this file parses arguments,
// profiles both runs (on two threads: each side opens its own connection) and writes the output through the one
// atomic writer, refusing an -o that is either trace.
#include "analysis/diff/diff_report.h"
#include "app/cli/command_registry.h"
#include "app/cli/count_option.h"
#include "app/cli/document_output.h"
#include "app/cli/trace_input.h"
#include "profiler/base/output_file.h"
#include "profiler/base/printable_text.h"
#include "whatif/replay_saving_simulator.h"

#include <cstdio>
#include <filesystem>
#include <future>
#include <memory>
#include <string>

namespace placescope::cli {
namespace {

struct DiffArgs
{
    std::string before;
    std::string after;
    int64_t step = -1;
    bool allSteps = false;
    std::string by = "kernel";
    std::string devices = "auto";
    bool shortNames = false;
    bool simulate = false;
    DocumentOutput output { "diff" };
    size_t top = 20;
    bool quiet = false;
};

DiffGrouping groupingOf(const std::string& by)
{
    if (by == "op")
        return DiffGrouping::Op;
    if (by == "annotation")
        return DiffGrouping::Annotation;
    if (by == "stream")
        return DiffGrouping::Stream;
    if (by == "class")
        return DiffGrouping::Class;
    return DiffGrouping::Kernel;
}

int runDiff(DiffArgs& args)
{
    DocumentOutput& output = args.output;
    output.inputs = { args.before, args.after };
    auto name = output.formatName({ { ".html", "html" }, { ".htm", "html" }, { ".json", "json" } });
    auto format = name.isOk() ? parseDiffFormat(*name) : Result<DiffFormat>(name.status());
    if (!format.isOk()) {
        output.error(format.status().message());
        return 2;
    }
    if (!output.checkPath())
        return 1;
    ProfileOptions profileOptions;
    profileOptions.shortNames = args.shortNames;
    // --simulate: findings compared on the savings `analyze` reports, the replay's simulation of each fix that is an
    // edit. Off by default: replaying both runs costs more than the rest of the diff (issue 17's speed goal).
    const ReplaySavingSimulator simulator;
    if (args.simulate)
        profileOptions.simulator = &simulator;
    profileOptions.extra = groupingOf(args.by);
    // Kineto JSON and nsys exports are imported to temporary traces first (removed when the command ends).
    auto beforeInput = TraceInput::open(args.before, "diff", args.quiet);
    auto afterInput = beforeInput.isOk() ? TraceInput::open(args.after, "diff", args.quiet) : beforeInput.status();
    for (const auto* side : { &beforeInput, &afterInput })
        if (!side->isOk()) {
            printLine(stderr, "placescope diff: %s\n", side->status().message().c_str());
            return 1;
        }
    // The after-run on a second thread: the two profiles share nothing, and a diff should cost about one of them.
    auto after = std::async(std::launch::async, [&] { return profileRun(afterInput->path(), profileOptions); });
    auto before = profileRun(beforeInput->path(), profileOptions);
    auto afterResult = after.get();
    for (const auto* side : { &before, &afterResult })
        if (!side->isOk()) {
            printLine(stderr, "placescope diff: %s\n", side->status().message().c_str());
            return 1;
        }

    DiffOptions options;
    if (args.step >= 0)
        options.step = static_cast<size_t>(args.step);
    options.allSteps = args.allSteps;
    options.by = profileOptions.extra;
    parseDevicePairing(args.devices, options.devices); // checked by the option's IsMember
    auto diff = diffRuns(*before, *afterResult, options);
    if (!diff.isOk()) { // only --step past the runs' steps fails: a usage error
        printLine(stderr, "placescope diff: %s\n", diff.status().message().c_str());
        return 2;
    }
    DiffRenderOptions render;
    render.topRows = args.top;
    if (int status = output.write(renderDiff(*diff, *format, render)); status != 0)
        return status;
    if (!output.toStdout() && !args.quiet)
        printLine(stderr, "placescope diff: written to %s\n", output.path.c_str());
    return 0;
}

const CommandRegistration kRegistration { "diff",
    "Compare two runs: step time, GPU busy/idle, memory, copies, kernels by name, findings", 47,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<DiffArgs>();
        app.add_option("before", args->before, "The run before the change (a trace, or any file import reads)")
            ->required();
        app.add_option("after", args->after, "The run after it (a measured trace or whatif -o's prediction)")
            ->required();
        auto* step = app.add_option("--step", args->step, "Compare only the N-th step of each run (0: the first)")
                         ->check(wholeNumberFromZero());
        app.add_flag("--all-steps", args->allSteps, "Also one table per compared step")->excludes(step);
        app.add_option("--by", args->by,
               "A grouping besides kernels: kernel, op, annotation, stream or class (GEMM, convolution, "
               "communication, ..., memcpy, memset)")
            ->check(CLI::IsMember({ "kernel", "op", "annotation", "stream", "class" }))
            ->capture_default_str();
        app.add_option("--devices", args->devices,
               "Pair the runs' GPUs by id, by position (first with first: GPU 3 vs GPU 1), or auto (by position "
               "when both have as many GPUs with other ids)")
            ->check(CLI::IsMember({ "auto", "id", "position" }))
            ->capture_default_str();
        app.add_flag("--short-names", args->shortNames,
            "Match kernels by short name (template arguments and library versions dropped)");
        app.add_flag("--simulate", args->simulate,
            "Findings' savings simulated by the what-if replay, as analyze reports them (replays both runs)");
        addDocumentOptions(app, args->output, "text, json or html", false);
        app.add_option("--top", args->top, "Rows per table in text and HTML (0: all; JSON has every row)")
            ->check(wholeNumberFromZero())
            ->capture_default_str();
        app.add_option("-o,--output", args->output.path, "Write the diff here instead of standard output (-: stdout)");
        app.add_flag("-q,--quiet", args->quiet, "No summary line on stderr (errors still print)");
        return [args] { return runDiff(*args); };
    } };

} // namespace
} // namespace placescope::cli
