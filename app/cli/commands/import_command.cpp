// SPDX-License-Identifier: MIT
// `placescope import <inputs...> -o out.sqlite [--rank N] [--quiet]`: imports PyTorch profiler (Kineto) JSON,
// plain or gzipped, and Nsight Systems SQLite exports into one trace (several ranks of one job go into one
// file). Progress (only on a terminal) and the summary line go to stderr, silenced by --quiet; the output appears
// only when complete.
#include "app/cli/command_registry.h"
#include "profiler/base/printable_text.h"
#include "profiler/base/units.h"
#include "profiler/importers/importer.h"
#include "profiler/stats/trace_stats.h"
#include "profiler/store/trace_file.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace placescope::cli {
namespace {

struct ImportArgs
{
    std::vector<std::string> inputs;
    std::string output;
    int64_t rank = -1;
    bool quiet = false;
};

// "wrote run.sqlite: 123,378 events (19,370 kernels, ...); 23,425 notes, no problems; 2.10 s, 25.7 MB/s of JSON
// (4.71 MB/s of the 9.44 MiB file)". Events are counted as `stats` and the app count them (TraceCounts::events());
// notes lose nothing, problems do; the rate is of the JSON the file holds, then of the file as it lies on disk.
void printSummary(const std::string& output, const ImportSummary& summary, double seconds)
{
    std::string events = withThousands(static_cast<int64_t>(summary.events)) + " records";
    if (auto db = openTrace(output))
        if (auto counts = traceCounts(*db)) {
            const TraceCounts& c = counts.value();
            std::string parts;
            const std::pair<int64_t, const char*> kinds[] = { { c.kernels, "kernels" }, { c.memcpys, "memcpys" },
                { c.memsets, "memsets" }, { c.apiCalls, "CUDA API calls" }, { c.syncs, "syncs" },
                { c.nvtx, "NVTX ranges" }, { c.frameworkOps, "framework ops" }, { c.memoryEvents, "memory events" } };
            for (const auto& [count, what] : kinds)
                if (count > 0)
                    parts += (parts.empty() ? "" : ", ") + withThousands(count) + " " + what;
            events = withThousands(c.events()) + " events" + (parts.empty() ? "" : " (" + parts + ")");
        }
    const uint64_t problems = summary.problems - summary.notes;
    const std::string notes = withThousands(static_cast<int64_t>(summary.notes)) + " note(s), "
        + (problems ? withThousands(static_cast<int64_t>(problems)) + " problem(s)" : std::string("no problems"));
    const double rate = seconds > 0 ? static_cast<double>(summary.contentBytes) / seconds : 0.0;
    const double diskRate = seconds > 0 ? static_cast<double>(summary.inputBytes) / seconds : 0.0;
    std::string rates = formatRate(rate);
    if (summary.contentBytes != summary.inputBytes)
        rates += " of JSON (" + formatRate(diskRate) + " of the "
            + formatBytes(static_cast<int64_t>(summary.inputBytes)) + " file)";
    printLine(stderr, "wrote %s: %s; %s (PS_PROBLEMS; notes lose nothing); %s, %s\n", output.c_str(), events.c_str(),
        notes.c_str(), formatNanoseconds(seconds * 1e9).c_str(), rates.c_str());
}

int runImport(const ImportArgs& args)
{
    ImportOptions options;
    if (args.rank >= 0)
        options.rank = args.rank;
    bool showProgress = !args.quiet && ::isatty(STDERR_FILENO);
    if (showProgress)
        options.progress = [](uint64_t done, uint64_t total) {
            int percent = total ? static_cast<int>(100.0 * static_cast<double>(done) / total) : 0;
            int bars = percent / 4;
            std::fprintf(stderr, "\rimporting [%-25.*s] %3d %%", bars, "#########################", percent);
        };
    auto began = std::chrono::steady_clock::now();
    auto summary = importTraces(args.inputs, args.output, options);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (showProgress)
        std::fprintf(stderr, "\r%50s\r", "");
    if (!summary.isOk()) {
        printLine(stderr, "placescope import: %s\n", summary.status().message().c_str());
        return 1;
    }
    if (!args.quiet) // a summary, not data: stderr
        printSummary(args.output, *summary, seconds);
    if (!args.quiet && !summary->dataLoss.empty()) { // never silent: say what was lost, and why in a word
        std::string lost;
        for (const auto& [kind, count] : summary->dataLoss)
            lost += (lost.empty() ? "" : ", ") + withThousands(count) + " " + kind;
        printLine(stderr,
            "placescope import: warning: not all of the input was imported: %s (PS_PROBLEMS says "
            "why)\n",
            lost.c_str());
    }
    return 0;
}

const CommandRegistration kRegistration { "import",
    "Import traces into one Placescope trace: the format is read from the content (PyTorch profiler JSON, nsys SQLite, "
    "XPlane, TensorBoard, ONNX Runtime)",
    10, [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<ImportArgs>();
        app.add_option("inputs", args->inputs, "Input traces (several ranks of one job go into one trace)")->required();
        app.add_option("-o,--output", args->output, "Output trace (.sqlite)")->required();
        app.add_option("--rank", args->rank, "Rank of the (first) input when the file does not say");
        app.add_flag("-q,--quiet", args->quiet, "No progress or summary line");
        return [args] { return runImport(*args); };
    } };

} // namespace
} // namespace placescope::cli
