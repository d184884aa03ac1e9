// SPDX-License-Identifier: MIT
// How the `placescope` CLI finds its subcommands: each file in app/cli/commands/ defines one command and
// registers it with a static CommandRegistration, so adding a command touches no shared file.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace placescope::cli {

// Adds the subcommand's options to `app` and returns the function that runs it (its exit code).
using CommandSetup = std::function<std::function<int()>(CLI::App& app)>;

struct CommandInfo
{
    std::string name;
    std::string description;
    int order; // position in --help
    CommandSetup setup;
};

std::vector<CommandInfo>& commandRegistry();

struct CommandRegistration
{
    CommandRegistration(std::string name, std::string description, int order, CommandSetup setup)
    {
        commandRegistry().push_back({ std::move(name), std::move(description), order, std::move(setup) });
    }
};

} // namespace placescope::cli
