// SPDX-License-Identifier: MIT
// `placescope capture -o run.sqlite [--kinds ...] [--delay S] [--duration S] [--buffer-mb N]
//  [--torch-memory trace.json] -- <program> [args]`: runs any CUDA program under the CUPTI tracer and writes
// one trace (profiler/capture/capture_runner.h does the work). Exits with the program's exit code.
// In a build without the CUDA toolkit the command exists and says plainly that there is no tracer.
#include "app/cli/command_registry.h"

#include "profiler/base/printable_text.h"

#ifdef PLACESCOPE_HAVE_CUPTI
#include "profiler/capture/capture_runner.h"
#endif

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace placescope::cli {
namespace {

struct CaptureArgs
{
    std::string output;
    std::string kinds = "default";
    double delaySeconds = 0;
    double durationSeconds = 0;
    int bufferMb = 8;
    std::string torchMemory;
    std::vector<std::string> command;
    bool quiet = false;
};

int runCaptureCommand(const CaptureArgs& args)
{
#ifdef PLACESCOPE_HAVE_CUPTI
    auto kinds = capture::parseKinds(args.kinds);
    if (!kinds.isOk()) {
        printLine(stderr, "placescope capture: --kinds: %s\n", kinds.status().message().c_str());
        return capture::kExitUsage;
    }
    if (args.bufferMb < 1 || args.bufferMb > 1024 || args.delaySeconds < 0 || args.durationSeconds < 0) {
        printLine(stderr, "placescope capture: --buffer-mb must be 1 to 1024, --delay and --duration >= 0\n");
        return capture::kExitUsage;
    }
    capture::CaptureRequest request;
    request.command = args.command;
    request.outputPath = args.output;
    request.kinds = kinds.value();
    request.bufferBytes = static_cast<int64_t>(args.bufferMb) << 20;
    request.delaySeconds = args.delaySeconds;
    request.durationSeconds = args.durationSeconds;
    request.torchMemoryTrace = args.torchMemory;
    request.injectLibraryPath = capture::defaultInjectLibraryPath();
    request.quiet = args.quiet;
    return capture::runCapture(request);
#else
    (void)args;
    printLine(stderr,
        "placescope capture: this build of placescope has no tracer (it was built without the "
        "CUDA 13 toolkit's CUPTI); rebuild on a machine with the CUDA toolkit installed\n");
    return 2;
#endif
}

const CommandRegistration kRegistration { "capture",
    "Run a CUDA program under the CUPTI tracer and write one trace (placescope capture -o run.sqlite -- "
    "python train.py)",
    5, [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<CaptureArgs>();
        app.add_option("-o,--output", args->output, "Trace to write (.sqlite)")->required();
        app.add_option("--kinds", args->kinds,
            "What to record, comma-separated: kernel, memcpy, memset, memory, runtime, driver, sync, "
            "nvtx, all (default: all but driver). runtime: CUDA runtime calls except pure queries "
            "(cudaGetDevice, cudaGetLastError...) and the driver calls that launch or move work; "
            "driver: every driver call");
        // A number of seconds, 0 or more and finite: nan, inf and negative values are usage errors (issue 27).
        const CLI::Validator seconds(
            [](std::string& text) {
                double value = 0;
                if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value < 0)
                    return "not a number of seconds (0 or more): " + text;
                return std::string();
            },
            "SECONDS");
        app.add_option("--delay", args->delaySeconds, "Start recording this many seconds after the program starts")
            ->check(seconds);
        app.add_option("--duration", args->durationSeconds,
               "Stop recording after this many seconds (the program runs on untraced)")
            ->check(seconds);
        app.add_option("--buffer-mb", args->bufferMb, "Size of one CUPTI activity buffer in MiB (default 8)");
        app.add_option("--torch-memory", args->torchMemory,
            "Kineto trace the program writes with torch.profiler(activities=[CPU], profile_memory=True): "
            "its tensor-level memory events are added to the trace (CUPTI itself sees only cudaMalloc "
            "segments, i.e. reserved memory)");
        app.add_flag("-q,--quiet", args->quiet,
            "No status line, summary or warning on stderr (why a capture failed still prints)");
        app.add_option("command", args->command, "The program and its arguments, after --")->required();
        return [args] { return runCaptureCommand(*args); };
    } };

} // namespace
} // namespace placescope::cli
