// SPDX-License-Identifier: MIT
// How Placescope prints counts, durations and sizes for people: one formatter, so the CLI, the reports and the GUI
// show the same figure the same way ("1.234 ms", "12,345", "1.50 MiB"). Sizes are binary (IEC: KiB = 1024 bytes),
// rates decimal (GB/s = 1e9 bytes/s, as bandwidths are quoted); docs/cli_conventions.md says why.
#pragma once

#include <cstdint>
#include <string>

namespace placescope {

// ns below 1 us as "850 ns", then us / ms / s with three decimals; negative values keep their sign.
std::string formatNanoseconds(double ns);
// 1234567 -> "1,234,567".
std::string withThousands(int64_t value);
// Below 1 KiB as "850 B", then KiB / MiB / GiB / TiB with two decimals ("1.50 MiB"); negative values keep their sign.
std::string formatBytes(int64_t bytes);

} // namespace placescope
