// SPDX-License-Identifier: MIT
// The one check for a count or an index a user gives on the command line (--top N, --step N): a whole number, 0 or
// more; anything else is a usage error (exit 2). CLI11's NonNegativeNumber said "Value -5 not in range 0.000000 to
// 1797693134862315708...", a 309-digit bound that hides what is wanted.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace placescope::cli {

inline CLI::Validator wholeNumberFromZero()
{
    return CLI::Validator(
        [](std::string& text) {
            long long value = 0;
            if (!CLI::detail::lexical_cast(text, value) || value < 0)
                return "'" + text + "' is not a whole number of 0 or more";
            return std::string();
        },
        "N>=0");
}

} // namespace placescope::cli
