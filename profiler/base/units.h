// SPDX-License-Identifier: MIT
// How Placescope prints counts and durations for people: one formatter, so `stats`, `diff` and the reports that
// use it show the same figure the same way ("1.234 ms", "12,345").
#pragma once

#include <cstdint>
#include <string>

namespace placescope {

// ns below 1 us as "850 ns", then us / ms / s with three decimals; negative values keep their sign.
std::string formatNanoseconds(double ns);
// 1234567 -> "1,234,567".
std::string withThousands(int64_t value);

} // namespace placescope
