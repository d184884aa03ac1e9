// SPDX-License-Identifier: MIT
// `placescope export run.sqlite --format chrome -o run.json`: writes a Chrome trace (JSON) that Perfetto UI and
// chrome://tracing open. The file appears only when complete.
#include "app/cli/command_registry.h"
#include "profiler/base/output_file.h"
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/store/trace_file.h"

#include <unistd.h>

#include <cstdio>

namespace placescope::cli {
namespace {

struct ExportArgs
{
    std::string trace;
    std::string format = "chrome";
    std::string output;
    bool quiet = false;
};

int runExport(const ExportArgs& args)
{
    // Refused before the trace is opened (the exporter checks again, against the file it reads).
    if (Status usable = checkOutputPath(args.output, { args.trace }); !usable.isOk()) {
        std::fprintf(stderr, "placescope export: %s\n", usable.message().c_str());
        return 1;
    }
    auto db = openTrace(args.trace);
    if (!db.isOk()) {
        std::fprintf(stderr, "placescope export: %s\n", db.status().message().c_str());
        return 1;
    }
    ChromeExportOptions options;
    bool showProgress = !args.quiet && ::isatty(STDERR_FILENO);
    if (showProgress)
        options.progress = [](uint64_t done, uint64_t total) {
            std::fprintf(stderr, "\rexporting %3.0f %%", total ? 100.0 * static_cast<double>(done) / total : 0.0);
        };
    auto summary = exportChromeTrace(*db, args.output, options);
    if (showProgress)
        std::fprintf(stderr, "\r               \r");
    if (!summary.isOk()) {
        std::fprintf(stderr, "placescope export: %s\n", summary.status().message().c_str());
        return 1;
    }
    if (!args.quiet)
        std::printf("wrote %s: %llu events, %.1f MB (Chrome trace JSON; open in https://ui.perfetto.dev)\n",
                    args.output.c_str(), static_cast<unsigned long long>(summary->events),
                    static_cast<double>(summary->bytes) / 1e6);
    return 0;
}

const CommandRegistration kRegistration {
    "export", "Write a trace as Chrome/Perfetto JSON", 30, [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<ExportArgs>();
        app.add_option("trace", args->trace, "Placescope trace (.sqlite)")->required();
        app.add_option("--format", args->format, "Output format")
            ->check(CLI::IsMember({ "chrome" }))
            ->capture_default_str();
        app.add_option("-o,--output", args->output, "Output file (.json)")->required();
        app.add_flag("-q,--quiet", args->quiet, "No progress or summary line");
        return [args] { return runExport(*args); };
    }
};

} // namespace
} // namespace placescope::cli
