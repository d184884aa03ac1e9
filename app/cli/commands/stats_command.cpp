// SPDX-License-Identifier: MIT
// `placescope stats run.sqlite [--top N] [--json]`: the summaries a user reads first (kernel summary, memory
// operations with bandwidth, GPU busy time and utilization, import problems). The figures come from
// profiler/stats; this file only formats them, as aligned text tables or as JSON for scripts.
#include "app/cli/command_registry.h"
#include "app/cli/trace_input.h"
#include "profiler/base/text_table.h"
#include "profiler/base/units.h"
#include "profiler/stats/trace_stats.h"
#include "profiler/store/trace_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace placescope::cli {
namespace {

std::string withCommas(int64_t value) { return withThousands(value); }

std::string formatFixed(double value, const char* format)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

// Columns right-aligned except the last (a name), through the one table writer.
void printTable(std::vector<std::string> header, std::vector<std::vector<std::string>> rows)
{
    std::fputs(renderTextTable(std::move(header), std::move(rows)).c_str(), stdout);
}

std::string clipName(const std::string& name, size_t width)
{
    if (width == 0 || name.size() <= width)
        return name;
    return name.substr(0, width - 3) + "...";
}

void printText(const std::string& path, const TraceStats& s, size_t nameWidth)
{
    const TraceCounts& c = s.counts;
    std::printf("Trace %s (%s), span %s\n", path.c_str(), c.sourceFormat.empty() ? "?" : c.sourceFormat.c_str(),
        formatNanoseconds(static_cast<double>(s.span.durationNs())).c_str());
    std::printf("Events: %s kernels, %s memcpys, %s memsets, %s CUDA API calls, %s syncs, %s NVTX, %s framework ops,"
                " %s memory events\n\n",
        withCommas(c.kernels).c_str(), withCommas(c.memcpys).c_str(), withCommas(c.memsets).c_str(),
        withCommas(c.apiCalls).c_str(), withCommas(c.syncs).c_str(), withCommas(c.nvtx).c_str(),
        withCommas(c.frameworkOps).c_str(), withCommas(c.memoryEvents).c_str());

    const KernelSummary& k = s.kernels;
    std::printf("GPU kernels: %s kernels, %s names, %s in total (top %zu names by total time)\n",
        withCommas(k.kernelCount).c_str(), withCommas(k.distinctNames).c_str(),
        formatNanoseconds(static_cast<double>(k.totalNs)).c_str(), k.rows.size());
    std::vector<std::vector<std::string>> rows;
    for (const auto& row : k.rows)
        rows.push_back({ formatFixed(row.timePercent, "%.1f"), formatNanoseconds(static_cast<double>(row.time.totalNs)),
            withCommas(row.time.count), formatNanoseconds(row.time.averageNs), formatNanoseconds(row.time.medianNs),
            formatNanoseconds(static_cast<double>(row.time.minNs)),
            formatNanoseconds(static_cast<double>(row.time.maxNs)), formatNanoseconds(row.time.stddevNs),
            clipName(row.name, nameWidth) });
    if (!rows.empty())
        printTable({ "Time %", "Total", "Instances", "Avg", "Med", "Min", "Max", "StdDev", "Name" }, rows);

    std::printf("\nMemory operations by kind and memory type\n");
    rows.clear();
    for (const auto& op : s.memoryOps)
        rows.push_back({ withCommas(op.time.count), formatBytes(op.totalBytes),
            formatNanoseconds(static_cast<double>(op.time.totalNs)), formatNanoseconds(op.time.averageNs),
            formatNanoseconds(static_cast<double>(op.time.minNs)),
            formatNanoseconds(static_cast<double>(op.time.maxNs)), formatFixed(op.bandwidthGBps, "%.2f"),
            op.operation + " (" + op.memoryTypes + ")" });
    if (rows.empty())
        std::printf(" none\n");
    else
        printTable({ "Count", "Bytes", "Total", "Avg", "Min", "Max", "GB/s", "Operation" }, rows);

    std::printf("\nGPU busy time (kernels, copies and memsets; overlaps merged)\n");
    rows.clear();
    for (const auto& d : s.devices)
        rows.push_back({ std::to_string(d.deviceId), formatNanoseconds(static_cast<double>(d.busyNs)),
            formatNanoseconds(static_cast<double>(d.kernelNs)), formatNanoseconds(static_cast<double>(d.memcpyNs)),
            formatNanoseconds(static_cast<double>(d.memsetNs)), formatFixed(100.0 * d.utilizationOfTrace, "%.1f %%"),
            formatFixed(100.0 * d.utilizationOfActive, "%.1f %%"), d.name.empty() ? "-" : d.name });
    if (rows.empty())
        std::printf(" no GPU activity\n");
    else
        printTable(
            { "Device", "Busy", "Kernels", "Memcpy", "Memset", "Util (trace span)", "Util (active span)", "Name" },
            rows);

    std::printf("\nImport problems\n");
    if (s.problems.empty())
        std::printf(" none\n");
    for (const auto& p : s.problems)
        std::printf(
            " %s x %s [%s]: %s\n", p.kind.c_str(), withCommas(p.count).c_str(), p.severity.c_str(), p.help.c_str());
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
    bool json = false;
    bool shortNames = false;
    size_t nameWidth = 100;
};

int runStats(const StatsArgs& args)
{
    // Kineto JSON and nsys exports are imported to a temporary trace first (removed when the command ends).
    auto input = TraceInput::open(args.trace, "stats", false);
    if (!input.isOk()) {
        std::fprintf(stderr, "placescope stats: %s\n", input.status().message().c_str());
        return 1;
    }
    auto db = openTrace(input->path());
    if (!db.isOk()) {
        std::fprintf(stderr, "placescope stats: %s\n", db.status().message().c_str());
        return 1;
    }
    StatsOptions options;
    options.topKernels = args.top;
    options.nameKind = args.shortNames ? KernelNameKind::Short : KernelNameKind::Demangled;
    auto stats = computeTraceStats(*db, options);
    if (!stats.isOk()) {
        std::fprintf(stderr, "placescope stats: %s: %s\n", args.trace.c_str(), stats.status().message().c_str());
        return 1;
    }
    if (args.json)
        std::printf("%s\n", toJson(*stats).dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    else
        printText(args.trace, *stats, args.nameWidth);
    return 0;
}

const CommandRegistration kRegistration { "stats",
    "Summarize a trace: kernels, memory operations, GPU utilization, import problems", 20,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<StatsArgs>();
        app.add_option("trace", args->trace,
               "Trace: Placescope, PyTorch profiler JSON or nsys export (imported to a temp trace)")
            ->required();
        app.add_option("--top", args->top, "Kernel names to list, by total time (0: all)")
            ->check(CLI::NonNegativeNumber)
            ->capture_default_str();
        app.add_flag("--json", args->json, "Print JSON for scripts instead of text tables");
        app.add_flag("--short-names", args->shortNames, "Group kernels by short name (no templates or arguments)");
        app.add_option("--name-width", args->nameWidth, "Clip kernel names in text output (0: never)")
            ->capture_default_str();
        return [args] { return runStats(*args); };
    } };

} // namespace
} // namespace placescope::cli
