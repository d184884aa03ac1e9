// SPDX-License-Identifier: MIT
#include "profiler/base/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace placescope {

std::string formatNanoseconds(double ns)
{
    if (!std::isfinite(ns))
        return "n/a";
    const double v = std::fabs(ns);
    if (v < 0.5)
        return "0 ns";
    const std::string sign = ns < 0 ? "-" : "";
    char buffer[48];
    if (v < 999.5) {
        std::snprintf(buffer, sizeof buffer, "%.0f ns", v);
        return sign + buffer;
    }
    static const char* kUnits[] = { "us", "ms", "s" };
    double x = v / 1e3;
    int unit = 0;
    while (unit < 2 && x >= 999.5) { // decided on the rounded figure, so 999,999 ns is "1.00 ms", not "1000 us"
        x /= 1e3;
        ++unit;
    }
    if (x >= 999.5) // 1,000 s and more: whole seconds, grouped like a count
        return sign + withThousands(static_cast<int64_t>(std::llround(x))) + " s";
    const int decimals = x < 9.995 ? 2 : x < 99.95 ? 1 : 0;
    std::snprintf(buffer, sizeof buffer, "%.*f %s", decimals, x, kUnits[unit]);
    return sign + buffer;
}

std::string formatAxisNanoseconds(double ns, double tickNs)
{
    // The unit of the value (346.5 ms, not 346500 us: issue 26), with the decimals that keep ticks apart; a tick
    // coarser than the value (the origin) sets it.
    const double magnitude = std::max(std::fabs(ns), tickNs);
    const double unit = magnitude >= 1e9 ? 1e9 : magnitude >= 1e6 ? 1e6 : magnitude >= 1e3 ? 1e3 : 1.0;
    const char* name = unit == 1e9 ? " s" : unit == 1e6 ? " ms" : unit == 1e3 ? " us" : " ns";
    const int decimals = tickNs > 0 ? std::max(0, static_cast<int>(std::ceil(std::log10(unit / tickNs) - 1e-9))) : 0;
    // A tick that rounds to zero reads "0 ms", not "-0 ms": an origin a float error below zero is still the origin.
    double shown = ns / unit;
    if (std::fabs(shown) < 0.5 * std::pow(10.0, -decimals))
        shown = 0.0;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f%s", decimals, shown, name);
    return buffer;
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

namespace {

// printf's "%.*f" of a value, with a zero that rounds from below printed as "0" (no "-0.0").
std::string fixedDecimals(double value, int decimals)
{
    decimals = std::clamp(decimals, 0, 9);
    if (std::fabs(value) < 0.5 * std::pow(10.0, -decimals))
        value = 0.0;
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

} // namespace

std::string formatPercent(double percent)
{
    if (!std::isfinite(percent))
        return "n/a";
    return formatPercentFixed(percent, std::fabs(percent) < 9.95 ? 1 : 0);
}

std::string formatPercentFixed(double percent, int decimals)
{
    if (!std::isfinite(percent))
        return "n/a";
    return fixedDecimals(percent, decimals) + " %";
}

std::string formatSignedPercent(double percent, int decimals)
{
    if (!std::isfinite(percent))
        return "n/a";
    const std::string text = fixedDecimals(percent, decimals);
    return (text.front() == '-' ? "" : "+") + text + " %";
}

std::string formatRate(double bytesPerSecond)
{
    if (!std::isfinite(bytesPerSecond))
        return "n/a";
    static const char* kUnits[] = { "B/s", "kB/s", "MB/s", "GB/s", "TB/s" };
    double v = std::fabs(bytesPerSecond);
    int unit = 0;
    while (unit < 4 && v >= 999.5) { // decided on the rounded figure, like formatNanoseconds: never "1000 MB/s"
        v /= 1e3;
        ++unit;
    }
    if (unit == 0 && v < 0.5)
        return "0 B/s";
    const int decimals = unit == 0 || v >= 99.95 ? 0 : v < 9.995 ? 2 : 1;
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f %s", decimals, v, kUnits[unit]);
    return (bytesPerSecond < 0 ? "-" : "") + std::string(buffer);
}

} // namespace placescope
