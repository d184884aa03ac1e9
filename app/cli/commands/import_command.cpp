// SPDX-License-Identifier: MIT
// `placescope import <inputs...> -o out.sqlite [--rank N] [--quiet]`: imports PyTorch profiler (Kineto) JSON,
// plain or gzipped, and Nsight Systems SQLite exports into one trace (several ranks of one job go into one
// file). Progress (only on a terminal) and the summary line go to stderr, silenced by --quiet; the output appears
// only when complete.
#include "app/cli/command_registry.h"
#include "profiler/base/units.h"
#include "profiler/importers/importer.h"

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
        std::fprintf(stderr, "placescope import: %s\n", summary.status().message().c_str());
        return 1;
    }
    if (!args.quiet) // a summary, not data: stderr
        std::fprintf(stderr, "wrote %s: %s events, %s problems, %s, %.1f MB/s (input on disk)\n", args.output.c_str(),
            withThousands(static_cast<int64_t>(summary->events)).c_str(),
            withThousands(static_cast<int64_t>(summary->problems)).c_str(), formatNanoseconds(seconds * 1e9).c_str(),
            seconds > 0 ? static_cast<double>(summary->inputBytes) / 1e6 / seconds : 0.0);
    if (!args.quiet && !summary->dataLoss.empty()) { // never silent: say what was lost, and why in a word
        std::string lost;
        for (const auto& [kind, count] : summary->dataLoss)
            lost += (lost.empty() ? "" : ", ") + withThousands(count) + " " + kind;
        std::fprintf(stderr,
            "placescope import: warning: not all of the input was imported: %s (PS_PROBLEMS says "
            "why)\n",
            lost.c_str());
    }
    return 0;
}

const CommandRegistration kRegistration { "import",
    "Import PyTorch profiler JSON (.json, .json.gz) or nsys SQLite exports into one trace", 10,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<ImportArgs>();
        app.add_option("inputs", args->inputs, "Input traces (several ranks of one job go into one trace)")->required();
        app.add_option("-o,--output", args->output, "Output trace (.sqlite)")->required();
        app.add_option("--rank", args->rank, "Rank of the (first) input when the file does not say");
        app.add_flag("-q,--quiet", args->quiet, "No progress or summary line");
        return [args] { return runImport(*args); };
    } };

} // namespace
} // namespace placescope::cli
