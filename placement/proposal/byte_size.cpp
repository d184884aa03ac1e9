// SPDX-License-Identifier: MIT
#include "placement/proposal/byte_size.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace placescope {

Result<int64_t> parseByteSize(const std::string& text)
{
    const Status bad = Status::error("bad size '" + text + "' (expected e.g. 16GiB, 512MB or 1073741824)");
    const char* begin = text.c_str();
    char* end = nullptr;
    const double number = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(number) || number <= 0)
        return bad;
    std::string unit(end);
    unit.erase(std::remove_if(unit.begin(), unit.end(), [](unsigned char c) { return std::isspace(c); }), unit.end());
    std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!unit.empty() && unit.back() == 'b')
        unit.pop_back();
    double scale = 0;
    if (unit.empty())
        scale = 1;
    else if (unit == "k")
        scale = 1e3;
    else if (unit == "m")
        scale = 1e6;
    else if (unit == "g")
        scale = 1e9;
    else if (unit == "t")
        scale = 1e12;
    else if (unit == "ki")
        scale = 1024.0;
    else if (unit == "mi")
        scale = 1024.0 * 1024;
    else if (unit == "gi")
        scale = 1024.0 * 1024 * 1024;
    else if (unit == "ti")
        scale = 1024.0 * 1024 * 1024 * 1024;
    else
        return bad;
    const double bytes = std::round(number * scale);
    if (bytes < 1 || bytes > 9.0e18)
        return bad;
    return static_cast<int64_t>(bytes);
}

} // namespace placescope
