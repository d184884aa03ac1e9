// SPDX-License-Identifier: MIT
#include "analysis/diff/diff_format.h"

#include "profiler/base/units.h"

#include <cmath>
#include <filesystem>

namespace placescope::diff_format {

std::string duration(int64_t ns) { return formatNanoseconds(static_cast<double>(ns)); }

std::string signedDuration(int64_t ns) { return ns > 0 ? "+" + duration(ns) : duration(ns); }

std::string bytes(int64_t n) { return formatBytes(n); }

std::string signedBytes(int64_t n) { return n > 0 ? "+" + bytes(n) : bytes(n); }

std::string count(int64_t n) { return withThousands(n); }

std::string signedCount(int64_t n) { return n > 0 ? "+" + count(n) : count(n); }

std::string value(int64_t v, Figure::Unit unit)
{
    return unit == Figure::Unit::Ns ? duration(v) : unit == Figure::Unit::Bytes ? bytes(v) : count(v);
}

std::string signedValue(int64_t v, Figure::Unit unit)
{
    return unit == Figure::Unit::Ns ? signedDuration(v) : unit == Figure::Unit::Bytes ? signedBytes(v) : signedCount(v);
}

std::string share(double fraction)
{
    if (std::isnan(fraction) || fraction == 0.0)
        return ""; // no step delta, or the figure did not move: a share would only be noise
    // A share that rounds to nothing prints without a sign (formatPercentFixed): "-0.0 %" would read as a move that
    // is not there.
    return formatPercentFixed(100.0 * fraction, 1);
}

std::string relative(double fraction) { return formatSignedPercent(100.0 * fraction, 1); }

std::string runLabel(const std::string& path) { return std::filesystem::path(path).filename().string(); }

} // namespace placescope::diff_format
