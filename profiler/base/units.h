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

// Percentages take a percent, not a fraction: formatPercent(12.5) is "12.5 %" (a caller holding a fraction
// multiplies by 100, as one holding ms multiplies for formatNanoseconds). A space before "%" as before every unit.
// One decimal below 10 %, whole percents from 10 % on ("4.2 %", "37 %", "100 %"), decided on the rounded figure
// (9.96 is "10 %"). Negative values keep their sign, but one that rounds to zero prints none ("0.0 %", never
// "-0.0 %": that would read as a move that is not there); a non-finite value is "n/a".
std::string formatPercent(double percent);
// Fixed decimals, for table columns and shares printed side by side: formatPercentFixed(12.34, 1) is "12.3 %".
// Zero and non-finite values as in formatPercent.
std::string formatPercentFixed(double percent, int decimals);
// A change or an error, always signed: formatSignedPercent(1.25, 2) is "+1.25 %", (-0.4, 1) "-0.4 %"; one that
// rounds to zero is "+0.00 %".
std::string formatSignedPercent(double percent, int decimals);
// A rate in bytes per second, decimal like every bandwidth (GB/s = 1e9 bytes/s, see the top of this file): three
// significant digits in B/s, kB/s, MB/s, GB/s or TB/s ("850 B/s", "25.7 MB/s", "12.3 GB/s", "3.35 TB/s"); a value
// that rounds to 1,000 of a unit moves to the next. Callers holding GB/s or bytes per ns multiply by 1e9.
// Negative values keep their sign; a non-finite value is "n/a".
std::string formatRate(double bytesPerSecond);

} // namespace placescope
