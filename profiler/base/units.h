// SPDX-License-Identifier: MIT
// How Placescope prints counts, durations and sizes for people: one formatter each, so the CLI, the reports and the
// GUI show the same figure the same way ("36.8 us", "12,345", "1.50 MiB"). Sizes are binary (IEC: KiB = 1024
// bytes), rates decimal (GB/s = 1e9 bytes/s, as bandwidths are quoted); docs/cli_conventions.md says why.
// Machine-readable output (CSV, JSON) carries raw integers instead (`*_ns`, `bytes`).
#pragma once

#include <cstdint>
#include <string>

namespace placescope {

// The one duration formatter. Three significant digits in the unit the magnitude picks: whole ns below 1 us
// ("850 ns"), then us / ms / s ("36.8 us", "1.50 ms", "123 ms", "2.25 s"); from 1,000 s on, whole seconds with
// thousands separators ("3,600 s"). A value that rounds up to 1,000 of a unit moves to the next ("1.00 ms").
// Negative values keep their sign; a non-finite value is "n/a". Callers holding ms or us multiply (ms * 1e6).
std::string formatNanoseconds(double ns);
// A time axis label (the GUI's rulers, the HTML report's time axes): the unit and the decimals follow the tick
// step, not the value, so neighbouring ticks read apart ("1234500 us", "1234600 us" for ticks 100 us apart) where
// three significant digits would print "1.23 s" twice. Not for figures: those use formatNanoseconds.
std::string formatAxisNanoseconds(double ns, double tickNs);
// 1234567 -> "1,234,567".
std::string withThousands(int64_t value);
// Below 1 KiB as "850 B", then KiB / MiB / GiB / TiB with two decimals ("1.50 MiB"); negative values keep their sign.
std::string formatBytes(int64_t bytes);

} // namespace placescope
