// SPDX-License-Identifier: MIT
// `placescope`: the command-line tool (no Qt). Subcommands live in app/cli/commands/, one file each.
#include "app/cli/command_registry.h"
#include "app/cli/suggest.h"
#include "profiler/base/printable_text.h"
#include "profiler/base/temp_file_registry.h"
#include "profiler/store/trace_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <string>
#include <vector>

namespace placescope::cli {

std::vector<CommandInfo>& commandRegistry()
{
    static std::vector<CommandInfo> registry;
    return registry;
}

// A command's data goes to stdout; if any of it could not be written (a full disk, /dev/full, a closed pipe
// reader), the command failed however it ended: a cut CSV or report must not exit 0.
int finishStdout(const std::string& command, int exitCode)
{
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    if (flushed && !std::ferror(stdout))
        return exitCode;
    const int error = errno;
    printLine(stderr, "placescope %s: cannot write the output to standard output%s%s\n", command.c_str(),
        error ? ": " : "", error ? std::strerror(error) : "");
    return exitCode == 0 ? 1 : exitCode;
}

// For a usage error inside a command: the known option nearest to the first option on the command line that the
// command does not have (`--tpo` -> `--top`); "" when every option is known or none is near.
std::string nearestOption(CLI::App& app, int argc, char** argv)
{
    const auto parsed = app.get_subcommands();
    if (parsed.empty())
        return {};
    std::vector<std::string> known;
    for (const CLI::Option* option : parsed.front()->get_options()) {
        for (const std::string& name : option->get_lnames())
            known.push_back("--" + name);
        for (const std::string& name : option->get_snames())
            known.push_back("-" + name);
    }
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--")
            break;
        if (arg.size() < 2 || arg[0] != '-' || (arg[1] >= '0' && arg[1] <= '9')) // a value such as -1
            continue;
        const std::string name = arg.substr(0, arg.find('='));
        if (std::find(known.begin(), known.end(), name) == known.end())
            return nearestWord(name, known);
    }
    return {};
}

} // namespace placescope::cli

int main(int argc, char** argv)
{
    using namespace placescope::cli;
    CLI::App app { "Placescope: find and fix wasted GPU time (traces, findings, CPU/GPU placement)", "placescope" };
    app.set_version_flag(
        "--version", "placescope " + std::string(placescope::placescopeVersion())); // as placescope-gui prints it
    app.require_subcommand(1);

    auto& registry = commandRegistry();
    std::sort(registry.begin(), registry.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
    std::map<CLI::App*, std::function<int()>> runners;
    for (auto& command : registry) {
        CLI::App* sub = app.add_subcommand(command.name, command.description);
        runners[sub] = command.setup(*sub);
    }
    // A command stopped by Ctrl-C, kill, a closed terminal or a closed pipe removes the temporary file it was
    // writing (the output itself only ever appears complete).
    placescope::removeTempFilesOnSignals();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        if (error.get_exit_code() == 0)
            return app.exit(error); // --help and --version print to stdout
        // A usage error is one line on stderr naming the command, as every other error is (CLI11 prints two,
        // unprefixed), and exits 2 (CLI11's own codes are 100 and up).
        std::string command = "placescope";
        for (const CLI::App* sub : app.get_subcommands())
            command += " " + sub->get_name();
        std::string what = error.what();
        // CLI11 checks for a missing command before it looks at a mistyped one, so `placescope improt` would
        // be told that a command is required.
        if (command == "placescope" && argc > 1 && argv[1][0] != '-') {
            what = std::string("unknown command '") + argv[1] + "'";
            std::vector<std::string> names;
            for (const auto& known : registry)
                names.push_back(known.name);
            if (const std::string near = nearestWord(argv[1], names); !near.empty())
                what += "; did you mean '" + near + "'?";
        } else if (const std::string near = nearestOption(app, argc, argv); !near.empty()) {
            what += "; did you mean " + near + "?";
        }
        placescope::printLine(stderr, "%s: %s (see %s --help)\n", command.c_str(), what.c_str(), command.c_str());
        return 2;
    }
    try {
        for (auto& [sub, run] : runners)
            if (sub->parsed())
                return finishStdout(sub->get_name(), run());
    } catch (const std::exception& error) {
        placescope::printLine(stderr, "placescope: %s\n", error.what());
        return 1;
    }
    return 1;
}
