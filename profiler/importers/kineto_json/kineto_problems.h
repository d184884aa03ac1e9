// SPDX-License-Identifier: MIT
// The problem kinds the Kineto importer counts in PS_PROBLEMS, each with the help text a user sees.
#pragma once

#include "profiler/store/trace_writer.h"

#include <string_view>

namespace placescope {

struct ProblemInfo
{
    std::string_view kind;
    ProblemSeverity severity;
    std::string_view help;
};

inline const ProblemInfo& kinetoProblem(std::string_view kind)
{
    static const ProblemInfo kProblems[] = {
        { "kineto.bad_json_record", ProblemSeverity::DataLoss,
            "An element of traceEvents is not valid JSON (e.g. an unescaped quote in a name); it was skipped." },
        { "kineto.invalid_utf8", ProblemSeverity::Info,
            "An event held bytes that are not UTF-8; they were replaced by '?' and the event kept." },
        { "kineto.id_out_of_range", ProblemSeverity::Info,
            "A numeric id beyond the 64-bit integer range (e.g. an NCCL comms id); stored as NULL." },
        { "kineto.bad_timestamp", ProblemSeverity::DataLoss,
            "An event without a numeric ts (or X event without dur) was skipped." },
        { "kineto.negative_duration", ProblemSeverity::Error,
            "An X event with a negative dur; its duration was set to 0." },
        { "kineto.unpaired_flow", ProblemSeverity::Info,
            "A flow start or finish without its other half (common in recent PyTorch traces); not stored." },
        { "kineto.overlapping_kernels", ProblemSeverity::Info,
            "GPU kernels overlap on one stream (e.g. programmatic dependent launch); kept as recorded." },
        { "kineto.unknown_category", ProblemSeverity::Info,
            "Events of a category the importer does not map (e.g. overhead, Trace); skipped." },
        { "kineto.truncated_json", ProblemSeverity::DataLoss,
            "The JSON ends before traceEvents is closed (the profiler was interrupted); the events read were kept." },
        { "kineto.resynchronized", ProblemSeverity::DataLoss,
            "A string ran over a line end (an unescaped quote); the scanner resynchronised and may have lost events." },
        { "kineto.missing_phase", ProblemSeverity::DataLoss,
            "An event without a readable ph (phase) key (a damaged key such as \"ph \", or a value that is not a "
            "string); it was skipped." },
        { "kineto.missing_pid", ProblemSeverity::DataLoss,
            "An event without a pid; it cannot be placed on a process and was skipped." },
        { "kineto.unknown_phase", ProblemSeverity::DataLoss,
            "Events of a phase the importer does not map (e.g. C counters, b/e async or O object events); skipped." },
        { "kineto.unpaired_begin_end", ProblemSeverity::DataLoss,
            "A B (begin) event without its E (end) on the same thread, or an E without a B; not stored." },
        { "kineto.nul_in_text", ProblemSeverity::Info,
            "A name held a NUL character (\\u0000), which most SQLite readers take as its end; it was replaced by '?' "
            "and the event kept." },
        { "kineto.counter_range_without_counters", ProblemSeverity::DataLoss,
            "A cuda_profiler_range event (CUPTI range profiler) with no numeric counter in its args; not stored." },
        { "kineto.counter_ranges_unlinked", ProblemSeverity::Info,
            "The counter ranges (cuda_profiler_range) and the cudaLaunchKernel calls differ in number, so the counters "
            "are kept in PS_COUNTERS without the launch (and op) they count." },
        { "kineto.args_not_object", ProblemSeverity::Error,
            "An event's args is not an object (e.g. a string); it was ignored and the event kept without it (a kernel "
            "then has no device, stream or correlation)." },
        { "kineto.unreadable_id", ProblemSeverity::Error,
            "An event's pid or tid is neither a number nor a string (an object or an array); the event was kept on a "
            "process or thread named '?'." },
        { "kineto.legacy_cuda_range", ProblemSeverity::DataLoss,
            "A \"CUDA functions\" event of PyTorch's profiler without Kineto: an operator's GPU time measured between "
            "two CUDA events, not a kernel; not stored. Profile with torch.profiler (Kineto) to see kernels." },
        { "kineto.trailing_data", ProblemSeverity::DataLoss,
            "Bytes after the end of the JSON document (e.g. a second trace appended to the file); they were not "
            "read." },
    };
    for (const ProblemInfo& info : kProblems)
        if (info.kind == kind)
            return info;
    return kProblems[0];
}

} // namespace placescope
