// SPDX-License-Identifier: MIT
// runPlacescope for the QtTest areas: the same one way of running the CLI (tests/support/cli_run.h), its arguments
// given as a QStringList. Header-only, so that the support library itself builds without Qt.
#pragma once

#include "tests/support/cli_run.h"

#include <QStringList>

namespace placescope::testing {

inline CliRun runPlacescope(const QStringList& arguments)
{
    std::vector<std::string> args;
    for (const QString& argument : arguments)
        args.push_back(argument.toStdString());
    return runPlacescope(args);
}

} // namespace placescope::testing
