// SPDX-License-Identifier: MIT
// `placescope report NAME run.sqlite [--step N] [--format text|csv|json] [--short-names] [-o out]` (sequences also
// takes HTA's --op NAME and --min-length N) and
// `placescope report --list`: the analyses people run in HTA and `nsys stats -r`, one table each. The reports live in
// analysis/reports (one file per report, one row model); this file parses arguments, opens the trace and writes the
// table (atomically with -o). Notes go below a text table, and to stderr with CSV and JSON so scripts read rows only.
// A --step the trace does not have is a usage error (exit 2), as for `diff`.
#include "analysis/reports/reports.h"
#include "app/cli/command_registry.h"
#include "app/cli/count_option.h"
#include "app/cli/document_output.h"
#include "app/cli/trace_input.h"
#include "profiler/base/output_file.h"
#include "profiler/base/printable_text.h"
#include "profiler/store/trace_file.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace placescope::cli {
namespace {

struct ReportArgs
{
    std::string name;
    std::string trace;
    std::optional<int64_t> step;
    DocumentOutput output { "report" };
    bool shortNames = false;
    std::string op;
    std::optional<int64_t> minLength;
    bool list = false;
    bool quiet = false;
};

int listReports()
{
    size_t width = 0;
    for (const ReportInfo& report : allReports())
        width = std::max(width, report.name.size());
    for (const ReportInfo& report : allReports())
        std::printf("%-*s  %.*s\n", static_cast<int>(width), std::string(report.name).c_str(),
            static_cast<int>(report.description.size()), report.description.data());
    return 0;
}

int runReportCommand(ReportArgs& args)
{
    if (args.list)
        return listReports();
    if (args.name.empty() || args.trace.empty()) {
        printLine(stderr,
            "placescope report: give a report name and a trace: placescope report NAME run.sqlite "
            "(placescope report --list shows the reports)\n");
        return 2;
    }
    const ReportInfo* report = findReport(args.name);
    if (!report) {
        printLine(stderr, "placescope report: unknown report '%s' (placescope report --list: %s)\n", args.name.c_str(),
            reportNames().c_str());
        return 2;
    }
    if ((!args.op.empty() || args.minLength) && report->name != "sequences") {
        printLine(stderr, "placescope report: --op and --min-length apply to the sequences report only\n");
        return 2;
    }
    if (args.minLength && *args.minLength < 1) {
        printLine(stderr, "placescope report: --min-length must be 1 or more, not %lld\n",
            static_cast<long long>(*args.minLength));
        return 2;
    }
    DocumentOutput& output = args.output;
    output.inputs = { args.trace };
    auto name = output.formatName({ { ".csv", "csv" }, { ".json", "json" } });
    TableFormat format = TableFormat::Text;
    if (!name.isOk()) {
        output.error(name.status().message());
        return 2;
    }
    if (!parseTableFormat(*name, format)) {
        output.error("--format must be text, csv or json, not '" + *name + "'");
        return 2;
    }
    if (!output.checkPath())
        return 1;
    // Kineto JSON and nsys exports are imported to a temporary trace first (removed when the command ends).
    auto input = TraceInput::open(args.trace, "report", args.quiet);
    if (!input.isOk()) {
        printLine(stderr, "placescope report: %s\n", input.status().message().c_str());
        return 1;
    }
    auto db = openTrace(input->path());
    if (!db.isOk()) {
        printLine(stderr, "placescope report: %s\n", db.status().message().c_str());
        return 1;
    }
    auto trace = TraceData::load(*db);
    if (!trace.isOk()) {
        printLine(stderr, "placescope report: %s: %s\n", args.trace.c_str(), trace.status().message().c_str());
        return 1;
    }
    ReportOptions options;
    options.step = args.step;
    options.shortNames = args.shortNames;
    options.op = args.op;
    options.minLength = args.minLength.value_or(0);
    auto ctx = ReportContext::create(*trace, options);
    if (!ctx.isOk()) { // a --step the trace lacks: a usage error, as for diff
        printLine(stderr, "placescope report: %s: %s\n", args.trace.c_str(), ctx.status().message().c_str());
        return 2;
    }
    const ReportTable table = runReport(*ctx, *report);
    const std::string text = renderTable(table, format);
    if (format != TableFormat::Text && !args.quiet)
        for (const std::string& note : table.notes)
            printLine(stderr, "placescope report %s: note: %s\n", args.name.c_str(), note.c_str());
    if (int status = output.write(text); status != 0)
        return status;
    if (!output.toStdout() && !args.quiet)
        printLine(stderr, "placescope report: %s, %zu row(s) written to %s\n", args.name.c_str(), table.rows.size(),
            output.path.c_str());
    return 0;
}

const CommandRegistration kRegistration { "report",
    "Run one analysis (kernel_launch, idle, queue, steps, bandwidth, memory, ...) as a table; --list names them", 25,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<ReportArgs>();
        app.add_option("name", args->name, "Report to run (see --list)");
        app.add_option("trace", args->trace, traceArgumentHelp());
        app.add_flag("--list", args->list, "List the reports and exit");
        app.add_option("--step", args->step, "Only this step (its number, as analyze and PS_STEPS number steps)")
            ->check(wholeNumberFromZero());
        addDocumentOptions(app, args->output, "text, csv or json", false);
        app.add_flag("--short-names", args->shortNames, "Shorten kernel names (no namespaces, templates or arguments)");
        app.add_option("--op", args->op,
            "sequences: only kernels launched inside ops whose name contains this (HTA's "
            "operator_name; its child ops' kernels included)");
        app.add_option("--min-length", args->minLength, "sequences: leave out sequences of fewer kernels (default 2)");
        app.add_option(
            "-o,--output", args->output.path, "Write the report here instead of standard output (-: stdout)");
        app.add_flag("-q,--quiet", args->quiet, "No notes on stderr (CSV, JSON) and no summary line after -o");
        return [args] { return runReportCommand(*args); };
    } };

} // namespace
} // namespace placescope::cli
