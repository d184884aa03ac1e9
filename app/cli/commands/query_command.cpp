// SPDX-License-Identifier: MIT
// `placescope query run.sqlite "SELECT ..."` (or --file query.sql): runs one read-only SQL statement on a trace
// and prints the result as CSV (RFC 4180, header row first, NULL as an empty field). The golden diff tests in
// tests/cli/diff run their query.sql files through this command. --timeout bounds what the statement may cost
// (60 s unless told): a cross join of two large tables or an endless recursive CTE ends in one line.
#include "app/cli/command_registry.h"
#include "app/cli/trace_input.h"
#include "profiler/base/csv_field.h"
#include "profiler/base/printable_text.h"
#include "profiler/base/units.h"
#include "profiler/store/statement_deadline.h"
#include "profiler/store/trace_file.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace placescope::cli {
namespace {

struct QueryArgs
{
    std::string trace;
    std::string sql;
    std::string file;
    bool header = true;
    double timeoutSeconds = 60;
};

int runQuery(const QueryArgs& args)
{
    std::string sql = args.sql;
    if (args.sql.empty() && args.file.empty()) { // a usage error (exit 2), as a missing argument is (issue 27)
        printLine(stderr, "placescope query: no SQL given (pass it as an argument or with --file)\n");
        return 2;
    }
    if (!args.file.empty()) {
        std::ifstream in(args.file);
        if (!in) { // why: no such file, or permission denied
            const int why = errno;
            printLine(stderr, "placescope query: cannot read %s%s%s\n", args.file.c_str(), why ? ": " : "",
                why ? std::strerror(why) : "");
            return 1;
        }
        std::ostringstream text;
        text << in.rdbuf();
        sql = text.str();
    }
    if (sql.find_first_not_of(" \t\r\n;") == std::string::npos) { // blank SQL or an empty --file: the same
        printLine(stderr, "placescope query: no SQL given (pass it as an argument or with --file)\n");
        return 2;
    }
    // Kineto JSON and nsys exports are imported to a temporary trace first (removed when the command ends).
    auto input = TraceInput::open(args.trace, "query", false);
    if (!input.isOk()) {
        printLine(stderr, "placescope query: %s\n", input.status().message().c_str());
        return 1;
    }
    auto db = openTrace(input->path()); // read-only: a query cannot change the trace
    if (!db.isOk()) {
        printLine(stderr, "placescope query: %s\n", db.status().message().c_str());
        return 1;
    }
    std::string_view rest;
    auto stmt = db->prepare(sql, &rest);
    if (!stmt.isOk()) {
        printLine(stderr, "placescope query: %s\n", stmt.status().message().c_str());
        return 1;
    }
    if (!stmt->isValid()) {
        printLine(stderr, "placescope query: the SQL holds no statement (only comments or whitespace)\n");
        return 1;
    }
    // One statement, and one that only reads: the trace is opened read-only, but VACUUM INTO or ATTACH would still
    // write elsewhere, and a second statement would be silently ignored.
    if (!stmt->isReadOnly()) {
        printLine(stderr,
            "placescope query: only statements that read are run (SELECT, WITH, read-only PRAGMA); "
            "this one would write\n");
        return 1;
    }
    if (auto next = db->prepare(rest); !next.isOk() || next->isValid()) {
        printLine(stderr, "placescope query: give one statement; the SQL holds more after the first\n");
        return 1;
    }
    StatementDeadline deadline(
        db->handle(), std::chrono::milliseconds(static_cast<int64_t>(args.timeoutSeconds * 1000)));
    std::string out;
    int columns = stmt->columnCount();
    if (args.header) {
        for (int c = 0; c < columns; ++c)
            out += (c ? "," : "") + csvField(stmt->columnName(c));
        out += '\n';
    }
    while (stmt->step()) {
        for (int c = 0; c < columns; ++c)
            out += (c ? "," : "") + (stmt->isNull(c) ? std::string() : csvField(stmt->columnText(c)));
        out += '\n';
        if (out.size() > (1 << 20)) {
            std::fwrite(out.data(), 1, out.size(), stdout);
            out.clear();
        }
    }
    if (!stmt->status().isOk()) {
        std::fflush(stdout);
        if (deadline.expired())
            printLine(stderr,
                "placescope query: stopped after %s (--timeout); narrow the query (WHERE, LIMIT) or "
                "raise --timeout (0: no limit)\n",
                formatNanoseconds(args.timeoutSeconds * 1e9).c_str());
        else
            printLine(stderr, "placescope query: %s\n", stmt->status().message().c_str());
        return 1;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

const CommandRegistration kRegistration { "query", "Run one SQL query on a trace and print CSV", 40,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<QueryArgs>();
        app.add_option("trace", args->trace, traceArgumentHelp())->required();
        CLI::Option* sql = app.add_option("sql", args->sql, "SQL statement (or use --file)");
        // Both given ran one of them silently (issue 27): a usage error instead.
        app.add_option("-f,--file", args->file, "Read the SQL from this file")->excludes(sql);
        app.add_flag("!--no-header", args->header, "Omit the header row");
        app.add_option("--timeout", args->timeoutSeconds, "Stop the query after this many seconds (0: no limit)")
            ->check(CLI::Range(0.0, 1e9))
            ->capture_default_str();
        return [args] { return runQuery(*args); };
    } };

} // namespace
} // namespace placescope::cli
