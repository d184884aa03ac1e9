// SPDX-License-Identifier: MIT
#include "app/cli/document_output.h"

#include "profiler/base/output_file.h"
#include "profiler/base/printable_text.h"

#include <cstdio>
#include <filesystem>

namespace placescope::cli {

Result<std::string> DocumentOutput::formatName(const std::map<std::string, std::string>& byExtension) const
{
    if (json && !format.empty() && format != "json")
        return Status::error("--json and --format " + format + " ask for two formats; give one");
    if (!format.empty())
        return format;
    if (json)
        return std::string("json");
    if (!toStdout()) {
        auto known = byExtension.find(std::filesystem::path(path).extension().string());
        if (known != byExtension.end())
            return known->second;
    }
    return std::string("text");
}

bool DocumentOutput::checkPath() const
{
    if (toStdout())
        return true;
    if (Status usable = checkOutputPath(path, inputs); !usable.isOk()) {
        error(usable.message());
        return false;
    }
    return true;
}

int DocumentOutput::write(const std::string& document) const
{
    if (toStdout()) { // a failed write to stdout is caught once for every command, in main (finishStdout)
        std::fwrite(document.data(), 1, document.size(), stdout);
        return 0;
    }
    if (Status written = writeFileAtomically(path, document, inputs); !written.isOk()) {
        error(written.message());
        return 1;
    }
    return 0;
}

void DocumentOutput::error(const std::string& message) const
{
    printLine(stderr, "placescope %s: %s\n", command.c_str(), message.c_str());
}

void addDocumentOptions(CLI::App& app, DocumentOutput& output, const std::string& formats, bool withOutput)
{
    app.add_option("--format", output.format,
        formats + (withOutput ? " (default: from -o's extension, else text)" : " (default: text)"));
    app.add_flag("--json", output.json, "The same as --format json");
    if (withOutput)
        app.add_option("-o,--output", output.path, "Write here instead of standard output (- is standard output)");
}

} // namespace placescope::cli
