// SPDX-License-Identifier: MIT
// `placescope stats run.sqlite [--top N] [--format text|json | --json] [-o out]`: the summaries a user reads first
// (kernel summary, memory operations with bandwidth, GPU busy time and utilization, import problems). The figures come
// from profiler/stats; this file only formats them, as aligned text tables or as JSON for scripts.
#include "app/cli/command_registry.h"
#include "app/cli/count_option.h"
#include "app/cli/document_output.h"
#include "app/cli/trace_input.h"
#include "profiler/base/printable_text.h"
#include "profiler/base/text_table.h"
#include "profiler/base/units.h"
#include "profiler/stats/trace_stats.h"
#include "profiler/store/trace_file.h"

#include <nlohmann/json.hpp>

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

namespace placescope::cli {
namespace {

std::string withCommas(int64_t value) { return withThousands(value); }

// printf into a string: the text is one document, written to stdout or -o at the end.
[[gnu::format(printf, 2, 3)]] void appendf(std::string& out, const char* pattern, ...)
{
    va_list args, again;
    va_start(args, pattern);
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, pattern, args);
    va_end(args);
    if (n > 0) {
        const size_t at = out.size();
        out.resize(at + static_cast<size_t>(n) + 1);
        std::vsnprintf(out.data() + at, static_cast<size_t>(n) + 1, pattern, again);
        out.resize(at + static_cast<size_t>(n));
    }
    va_end(again);
}

std::string clipName(const std::string& name, size_t width)
{
    if (width == 0 || name.size() <= width)
        return name;
    return name.substr(0, width - 3) + "...";
}

std::string statsText(const std::string& path, const TraceStats& s, size_t nameWidth)
{
    std::string out;
    const TraceCounts& c = s.counts;
    appendf(out, "Trace %s (%s), span %s\n", path.c_str(), c.sourceFormat.empty() ? "?" : c.sourceFormat.c_str(),
        formatNanoseconds(static_cast<double>(s.span.durationNs())).c_str());
    appendf(out,
        "Events: %s kernels, %s memcpys, %s memsets, %s CUDA API calls, %s syncs, %s NVTX, %s framework ops,"
        " %s memory events\n\n",
        withCommas(c.kernels).c_str(), withCommas(c.memcpys).c_str(), withCommas(c.memsets).c_str(),
        withCommas(c.apiCalls).c_str(), withCommas(c.syncs).c_str(), withCommas(c.nvtx).c_str(),
        withCommas(c.frameworkOps).c_str(), withCommas(c.memoryEvents).c_str());

    const KernelSummary& k = s.kernels;
    appendf(out, "GPU kernels: %s kernels, %s names, %s in total (top %zu names by total time)\n",
        withCommas(k.kernelCount).c_str(), withCommas(k.distinctNames).c_str(),
        formatNanoseconds(static_cast<double>(k.totalNs)).c_str(), k.rows.size());
    std::vector<std::vector<std::string>> rows;
    for (const auto& row : k.rows)
        rows.push_back(
            { formatPercentFixed(row.timePercent, 1), formatNanoseconds(static_cast<double>(row.time.totalNs)),
                withCommas(row.time.count), formatNanoseconds(row.time.averageNs), formatNanoseconds(row.time.medianNs),
                formatNanoseconds(static_cast<double>(row.time.minNs)),
                formatNanoseconds(static_cast<double>(row.time.maxNs)), formatNanoseconds(row.time.stddevNs),
                clipName(row.name, nameWidth) });
    if (!rows.empty())
        out += renderTextTable(
            { "Time share", "Total", "Instances", "Avg", "Med", "Min", "Max", "StdDev", "Name" }, std::move(rows));

    out += "\nMemory operations by kind and memory type\n";
    rows.clear();
    for (const auto& op : s.memoryOps)
        rows.push_back({ withCommas(op.time.count), formatBytes(op.totalBytes),
            formatNanoseconds(static_cast<double>(op.time.totalNs)), formatNanoseconds(op.time.averageNs),
            formatNanoseconds(static_cast<double>(op.time.minNs)),
            formatNanoseconds(static_cast<double>(op.time.maxNs)), formatRate(op.bandwidthGBps * 1e9),
            op.operation + " (" + op.memoryTypes + ")" });
    if (rows.empty())
        out += " none\n";
    else
        out += renderTextTable(
            { "Count", "Bytes", "Total", "Avg", "Min", "Max", "Bandwidth", "Operation" }, std::move(rows));

    out += "\nGPU busy time (kernels, copies and memsets; overlaps merged)\n";
    rows.clear();
    for (const auto& d : s.devices)
        rows.push_back({ std::to_string(d.deviceId), formatNanoseconds(static_cast<double>(d.busyNs)),
            formatNanoseconds(static_cast<double>(d.kernelNs)), formatNanoseconds(static_cast<double>(d.memcpyNs)),
            formatNanoseconds(static_cast<double>(d.memsetNs)), formatPercentFixed(100.0 * d.utilizationOfTrace, 1),
            formatPercentFixed(100.0 * d.utilizationOfActive, 1), d.name.empty() ? "-" : d.name });
    if (rows.empty())
        out += " no GPU activity\n";
    else
        out += renderTextTable(
            { "Device", "Busy", "Kernels", "Memcpy", "Memset", "Util (trace span)", "Util (active span)", "Name" },
            std::move(rows));

    out += "\nImport problems\n";
    if (s.problems.empty())
        out += " none\n";
    for (const auto& p : s.problems)
        out += " " + p.kind + " x " + withCommas(p.count) + " [" + p.severity + "]: " + p.help + "\n";
    return out;
}

nlohmann::json durationJson(const DurationStats& d)
{
    return { { "count", d.count }, { "total_ns", d.totalNs }, { "avg_ns", d.averageNs }, { "median_ns", d.medianNs },
        { "min_ns", d.minNs }, { "max_ns", d.maxNs }, { "stddev_ns", d.stddevNs } };
}

nlohmann::json toJson(const TraceStats& s)
{
    nlohmann::json out;
    const TraceCounts& c = s.counts;
    out["source_format"] = c.sourceFormat;
    out["span"]
        = { { "start_ns", s.span.startNs }, { "end_ns", s.span.endNs }, { "duration_ns", s.span.durationNs() } };
    out["counts"] = { { "kernels", c.kernels }, { "memcpys", c.memcpys }, { "memsets", c.memsets },
        { "api_calls", c.apiCalls }, { "syncs", c.syncs }, { "nvtx", c.nvtx }, { "framework_ops", c.frameworkOps },
        { "memory_events", c.memoryEvents } };
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& row : s.kernels.rows) {
        nlohmann::json entry = durationJson(row.time);
        entry["name"] = row.name;
        entry["time_percent"] = row.timePercent;
        kernels.push_back(std::move(entry));
    }
    out["kernels"] = { { "count", s.kernels.kernelCount }, { "total_ns", s.kernels.totalNs },
        { "distinct_names", s.kernels.distinctNames }, { "top", std::move(kernels) } };
    nlohmann::json ops = nlohmann::json::array();
    for (const auto& op : s.memoryOps) {
        nlohmann::json entry = durationJson(op.time);
        entry["operation"] = op.operation;
        entry["memory_types"] = op.memoryTypes;
        entry["copy_kind"] = op.copyKind ? nlohmann::json(*op.copyKind) : nlohmann::json();
        entry["src_kind"] = op.srcKind ? nlohmann::json(*op.srcKind) : nlohmann::json();
        entry["dst_kind"] = op.dstKind ? nlohmann::json(*op.dstKind) : nlohmann::json();
        entry["bytes"] = op.totalBytes;
        entry["bandwidth_gbps"] = op.bandwidthGBps;
        ops.push_back(std::move(entry));
    }
    out["memory_ops"] = std::move(ops);
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& d : s.devices)
        devices.push_back({ { "device_id", d.deviceId }, { "name", d.name }, { "busy_ns", d.busyNs },
            { "kernel_ns", d.kernelNs }, { "memcpy_ns", d.memcpyNs }, { "memset_ns", d.memsetNs },
            { "first_start_ns", d.firstStartNs }, { "last_end_ns", d.lastEndNs },
            { "utilization_of_trace", d.utilizationOfTrace }, { "utilization_of_active", d.utilizationOfActive } });
    out["devices"] = std::move(devices);
    nlohmann::json problems = nlohmann::json::array();
    for (const auto& p : s.problems)
        problems.push_back({ { "kind", p.kind }, { "severity", p.severity }, { "count", p.count }, { "help", p.help },
            { "example", p.example } });
    out["problems"] = std::move(problems);
    return out;
}

struct StatsArgs
{
    std::string trace;
    size_t top = 20;
    DocumentOutput output { "stats" };
    bool shortNames = false;
    size_t nameWidth = 100;
};

int runStats(StatsArgs& args)
{
    DocumentOutput& output = args.output;
    output.inputs = { args.trace };
    auto format = output.formatName({ { ".json", "json" }, { ".txt", "text" } });
    if (format.isOk() && *format != "text" && *format != "json")
        format = Status::error("--format must be text or json, not '" + *format + "'");
    if (!format.isOk()) {
        output.error(format.status().message());
        return 2;
    }
    if (!output.checkPath())
        return 1;
    // Kineto JSON and nsys exports are imported to a temporary trace first (removed when the command ends).
    auto input = TraceInput::open(args.trace, "stats", false);
    if (!input.isOk()) {
        printLine(stderr, "placescope stats: %s\n", input.status().message().c_str());
        return 1;
    }
    auto db = openTrace(input->path());
    if (!db.isOk()) {
        printLine(stderr, "placescope stats: %s\n", db.status().message().c_str());
        return 1;
    }
    StatsOptions options;
    options.topKernels = args.top;
    options.nameKind = args.shortNames ? KernelNameKind::Short : KernelNameKind::Demangled;
    auto stats = computeTraceStats(*db, options);
    if (!stats.isOk()) {
        printLine(stderr, "placescope stats: %s: %s\n", args.trace.c_str(), stats.status().message().c_str());
        return 1;
    }
    return output.write(*format == "json"
            ? toJson(*stats).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"
            : statsText(args.trace, *stats, args.nameWidth));
}

const CommandRegistration kRegistration { "stats",
    "Summarize a trace: kernels, memory operations, GPU utilization, import problems", 20,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<StatsArgs>();
        app.add_option("trace", args->trace, traceArgumentHelp())->required();
        app.add_option("--top", args->top, "Kernel names to list, by total time (0: all)")
            ->check(wholeNumberFromZero())
            ->capture_default_str();
        addDocumentOptions(app, args->output, "text or json (JSON for scripts)");
        app.add_flag("--short-names", args->shortNames, "Group kernels by short name (no templates or arguments)");
        app.add_option("--name-width", args->nameWidth, "Clip kernel names in text output (0: never)")
            ->capture_default_str();
        return [args] { return runStats(*args); };
    } };

} // namespace
} // namespace placescope::cli
