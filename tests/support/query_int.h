// SPDX-License-Identifier: MIT
// One integer from a SQLite file (a COUNT, a SUM), for tests that check what a command wrote: the file opened
// read-only, a failed open or query is a failed expectation and -1.
#pragma once

#include <cstdint>
#include <string>

namespace placescope::testing {

int64_t queryInt(const std::string& path, const std::string& sql);

} // namespace placescope::testing
