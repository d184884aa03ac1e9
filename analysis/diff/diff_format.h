// SPDX-License-Identifier: MIT
// Number formatting shared by the diff's text and HTML outputs (signed deltas, shares), so both read the same.
#pragma once

#include "analysis/diff/run_diff.h"

#include <string>

namespace placescope::diff_format {

std::string duration(int64_t ns); // "1.23 ms" (profiler/base/units.h)
std::string signedDuration(int64_t ns); // "+1.23 ms", "-12.0 us", "0 ns"
std::string bytes(int64_t bytes); // "1.50 MiB"
std::string signedBytes(int64_t bytes);
std::string count(int64_t n); // "12,345"
std::string signedCount(int64_t n);
std::string value(int64_t v, Figure::Unit unit);
std::string signedValue(int64_t v, Figure::Unit unit);
std::string share(double fraction); // "42.0 %", "" for NaN
std::string relative(double fraction); // "+12.3 %", "-0.4 %": a prediction's relative error
std::string runLabel(const std::string& path); // file name of a side

} // namespace placescope::diff_format
