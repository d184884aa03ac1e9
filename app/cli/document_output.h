// SPDX-License-Identifier: MIT
// How every command that writes a document (analyze, diff, report, stats, whatif, critical-path) picks its format
// and where the document goes, so they all read alike (docs/cli_conventions.md, "Formats and -o"):
//   - the format: --format NAME, else --json (the same as --format json), else -o's extension, else text;
//   - the place: standard output without -o or with `-o -`, else the file, checked before the work (not an input,
//     a regular file) and written complete or not at all (OutputFile);
//   - an error: one line, `placescope <command>: <what>`, exit 1 (2 for a usage error such as an unknown format).
#pragma once

#include "profiler/base/status.h"

#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace placescope::cli {

struct DocumentOutput
{
    explicit DocumentOutput(std::string command_ = {})
        : command(std::move(command_))
    { }

    std::string command; // "analyze": the prefix of every line it prints
    std::string format; // --format
    bool json = false; // --json
    std::string path; // -o; empty or "-": standard output
    std::vector<std::string> inputs; // files -o must not name (the trace, the model)

    bool toStdout() const { return path.empty() || path == "-"; }
    // The format's name as --format spells it: --format, "json" for --json, then `byExtension` of -o's extension
    // (".html" -> "html"), else "text". --json with another --format is an error.
    Result<std::string> formatName(const std::map<std::string, std::string>& byExtension = {}) const;
    // Before the work: refuses an -o that names an input or is not a regular file (prints the line). True when fine.
    bool checkPath() const;
    // Writes the document to standard output or to -o (atomically); prints the error line. Returns the exit status.
    int write(const std::string& document) const;
    // The one-line error, "placescope <command>: <message>".
    void error(const std::string& message) const;
};

// Adds --format (with `formats`, e.g. "text, json or html"), --json and, with `withOutput`, -o/--output to `app`.
void addDocumentOptions(CLI::App& app, DocumentOutput& output, const std::string& formats, bool withOutput = true);

} // namespace placescope::cli
