// SPDX-License-Identifier: MIT
// `placescope export run.sqlite --format chrome -o run.json`: writes a Chrome trace (JSON) that Perfetto UI and
// chrome://tracing open. The file appears only when complete; the summary line goes to stderr (--quiet: none).
#include "app/cli/command_registry.h"
#include "app/cli/trace_input.h"
#include "profiler/base/output_file.h"
#include "profiler/base/printable_text.h"
#include "profiler/base/temp_file_registry.h"
#include "profiler/base/units.h"
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/store/trace_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace placescope::cli {
namespace {

struct ExportArgs
{
    std::string trace;
    std::string format = "chrome";
    std::string output;
    bool quiet = false;
};

// `-o -`: the JSON goes to a temporary file first (the exporter writes a file and renames it when complete), then
// to standard output; the temporary file goes in any case, and on a stopping signal (temp_file_registry.h).
Status copyToStdout(const std::string& path)
{
    FILE* in = std::fopen(path.c_str(), "rb");
    if (!in)
        return Status::error("cannot read the exported JSON back: " + std::string(std::strerror(errno)));
    char buffer[1 << 16];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, in)) > 0)
        if (std::fwrite(buffer, 1, n, stdout) != n)
            break; // main() reports a failed standard output
    std::fclose(in);
    return Status::ok();
}

int runExport(const ExportArgs& args)
{
    const bool toStdout = args.output == "-";
    std::string output = args.output;
    if (toStdout) {
        const char* folder = std::getenv("TMPDIR");
        output = std::string(folder && *folder ? folder : "/tmp") + "/placescope-export-XXXXXX";
        const int fd = ::mkstemp(output.data());
        if (fd < 0) {
            printLine(stderr, "placescope export: cannot make a temporary file: %s\n", std::strerror(errno));
            return 1;
        }
        ::close(fd);
        registerTempFile(output);
    }
    struct RemoveTemporary
    {
        const std::string& path;
        bool active;
        ~RemoveTemporary()
        {
            if (active) {
                ::unlink(path.c_str());
                unregisterTempFile(path);
            }
        }
    } removeTemporary { output, toStdout };
    // Refused before the trace is opened (the exporter checks again, against the file it reads).
    if (Status usable = checkOutputPath(output, { args.trace }); !usable.isOk()) {
        printLine(stderr, "placescope export: %s\n", usable.message().c_str());
        return 1;
    }
    // Kineto JSON and nsys exports are imported to a temporary trace first (removed when the command ends).
    auto input = TraceInput::open(args.trace, "export", args.quiet);
    if (!input.isOk()) {
        printLine(stderr, "placescope export: %s\n", input.status().message().c_str());
        return 1;
    }
    auto db = openTrace(input->path());
    if (!db.isOk()) {
        printLine(stderr, "placescope export: %s\n", db.status().message().c_str());
        return 1;
    }
    ChromeExportOptions options;
    bool showProgress = !args.quiet && ::isatty(STDERR_FILENO);
    if (showProgress)
        options.progress = [](uint64_t done, uint64_t total) {
            std::fprintf(stderr, "\rexporting %3.0f %%", total ? 100.0 * static_cast<double>(done) / total : 0.0);
        };
    auto summary = exportChromeTrace(*db, output, options);
    if (showProgress)
        std::fprintf(stderr, "\r               \r");
    if (!summary.isOk()) {
        printLine(stderr, "placescope export: %s\n", summary.status().message().c_str());
        return 1;
    }
    if (toStdout) {
        if (Status copied = copyToStdout(output); !copied.isOk()) {
            printLine(stderr, "placescope export: %s\n", copied.message().c_str());
            return 1;
        }
        if (std::fflush(stdout) != 0 || std::ferror(stdout))
            return 1; // main() says standard output could not be written; no summary of an export that failed
    }
    // The summary is no data: always on stderr, as every command's.
    if (!args.quiet)
        printLine(stderr, "wrote %s: %s events, %s (Chrome trace JSON; open in https://ui.perfetto.dev)\n",
            toStdout ? "standard output" : args.output.c_str(),
            withThousands(static_cast<int64_t>(summary->events)).c_str(),
            formatBytes(static_cast<int64_t>(summary->bytes)).c_str());
    return 0;
}

const CommandRegistration kRegistration { "export", "Write a trace as Chrome/Perfetto JSON", 30,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<ExportArgs>();
        app.add_option("trace", args->trace, traceArgumentHelp())->required();
        app.add_option("--format", args->format, "Output format")
            ->check(CLI::IsMember({ "chrome" }))
            ->capture_default_str();
        app.add_option("-o,--output", args->output, "Output file (.json); - for standard output")->required();
        app.add_flag("-q,--quiet", args->quiet, "No progress or summary line");
        return [args] { return runExport(*args); };
    } };

} // namespace
} // namespace placescope::cli
