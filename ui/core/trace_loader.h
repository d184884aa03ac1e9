// SPDX-License-Identifier: MIT
#pragma once

#include "profiler/base/progress.h"
#include "profiler/base/status.h"
#include "ui/core/trace_data.h"

#include <string>

namespace placescope::ui {

// Reads a Placescope trace file (SQLite) into the GUI's lane arrays. Opens its own read-only connection, so
// it runs on any worker thread; cancel is checked between tables. progress gets (tables done, tables total).
Result<LoadedTrace> loadTrace(
    const std::string& path, const ProgressFn& progress = {}, const CancelToken* cancel = nullptr);

// Details of one event for tooltips: "key: value" lines read from its source table (own connection).
std::vector<std::pair<std::string, std::string>> eventDetails(
    const std::string& tracePath, EventKind kind, uint32_t sourceRow);

} // namespace placescope::ui
