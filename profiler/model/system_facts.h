// SPDX-License-Identifier: MIT
// Facts about the recording machine that a trace keeps (TARGET_INFO_SYSTEM_ENV), under nsys's names and name ids.
// The list is closed on purpose: real nsys exports also carry the traced program's environment and command line
// (secrets included) in that table, and a name not listed here is never written.
#pragma once

#include "profiler/model/trace_events.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace placescope {

// nsys's nameEnum for a system fact Placescope keeps; nullopt for every other name.
std::optional<int64_t> systemFactNameEnum(std::string_view name);

// This machine's host name, OS, kernel release, CPU model, core count and architecture.
std::vector<SystemFact> localSystemFacts();

} // namespace placescope
