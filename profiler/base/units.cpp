// SPDX-License-Identifier: MIT
#include "profiler/base/units.h"

#include <cmath>
#include <cstdio>

namespace placescope {

std::string formatNanoseconds(double ns)
{
    const double v = std::fabs(ns);
    char buffer[40];
    if (v < 1e3)
        std::snprintf(buffer, sizeof buffer, "%.0f ns", v);
    else if (v < 1e6)
        std::snprintf(buffer, sizeof buffer, "%.3f us", v / 1e3);
    else if (v < 1e9)
        std::snprintf(buffer, sizeof buffer, "%.3f ms", v / 1e6);
    else
        std::snprintf(buffer, sizeof buffer, "%.3f s", v / 1e9);
    return (ns < 0 ? "-" : "") + std::string(buffer);
}

std::string withThousands(int64_t value)
{
    std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return value < 0 ? "-" + out : out;
}

std::string formatBytes(int64_t bytes)
{
    static const char* kUnits[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double v = std::fabs(static_cast<double>(bytes));
    int unit = 0;
    while (v >= 1024 && unit < 4) {
        v /= 1024;
        ++unit;
    }
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, unit ? "%.2f %s" : "%.0f %s", v, kUnits[unit]);
    return (bytes < 0 ? "-" : "") + std::string(buffer);
}

} // namespace placescope
