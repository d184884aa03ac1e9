// SPDX-License-Identifier: MIT
// The nearest known word to a mistyped one (`analyse` -> `analyze`, `--tpo` -> `--top`), for the CLI's usage errors:
// the smallest edit distance (insert, delete, replace, swap two neighbours), within about a third of the word.
#pragma once

#include <string>
#include <vector>

namespace placescope::cli {

// The candidate nearest to `typed`, or "" when none is near enough to be what was meant.
std::string nearestWord(const std::string& typed, const std::vector<std::string>& candidates);

} // namespace placescope::cli
