// SPDX-License-Identifier: MIT
// The one formatter for sizes, durations and counts (docs/cli_conventions.md, "Units"): sizes in binary units,
// with the unit changing exactly at 1024 of the one below; durations in three significant digits; percents from a
// percent; rates decimal.
#include "profiler/base/units.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace placescope {
namespace {

TEST(Units, SizesAreBinaryWithTwoDecimals)
{
    EXPECT_EQ(formatBytes(0), "0 B");
    EXPECT_EQ(formatBytes(1023), "1023 B");
    EXPECT_EQ(formatBytes(1024), "1.00 KiB");
    EXPECT_EQ(formatBytes(1536), "1.50 KiB");
    EXPECT_EQ(formatBytes(1000000), "976.56 KiB"); // a decimal megabyte is not 1 MiB
    EXPECT_EQ(formatBytes(int64_t(1) << 20), "1.00 MiB");
    EXPECT_EQ(formatBytes(int64_t(80) << 30), "80.00 GiB");
    EXPECT_EQ(formatBytes(int64_t(3) << 40), "3.00 TiB");
    EXPECT_EQ(formatBytes(int64_t(5000) << 40), "5000.00 TiB"); // no unit past TiB
}

TEST(Units, NegativeSizesKeepTheirSign)
{
    EXPECT_EQ(formatBytes(-512), "-512 B");
    EXPECT_EQ(formatBytes(-(int64_t(3) << 19)), "-1.50 MiB");
}

TEST(Units, DurationsHaveThreeSignificantDigitsInTheUnitTheirSizePicks)
{
    EXPECT_EQ(formatNanoseconds(0), "0 ns");
    EXPECT_EQ(formatNanoseconds(850), "850 ns");
    EXPECT_EQ(formatNanoseconds(999.4), "999 ns");
    EXPECT_EQ(formatNanoseconds(1000), "1.00 us");
    EXPECT_EQ(formatNanoseconds(36796), "36.8 us");
    EXPECT_EQ(formatNanoseconds(123456), "123 us");
    EXPECT_EQ(formatNanoseconds(1.5e6), "1.50 ms");
    EXPECT_EQ(formatNanoseconds(12.34e6), "12.3 ms");
    EXPECT_EQ(formatNanoseconds(2.25e9), "2.25 s");
    EXPECT_EQ(formatNanoseconds(754.9e9), "755 s");
}

TEST(Units, DurationsMoveUpAUnitWhenTheyRoundToAThousand)
{
    EXPECT_EQ(formatNanoseconds(999.6), "1.00 us"); // not "1000 ns"
    EXPECT_EQ(formatNanoseconds(999999), "1.00 ms"); // not "1000 us"
    EXPECT_EQ(formatNanoseconds(999.7e6), "1.00 s");
    EXPECT_EQ(formatNanoseconds(9.996e6), "10.0 ms"); // three digits, not "10.00 ms"
    EXPECT_EQ(formatNanoseconds(99.96e3), "100 us");
}

TEST(Units, LongDurationsAreWholeSecondsWithThousandsSeparators)
{
    EXPECT_EQ(formatNanoseconds(999.5e9), "1,000 s");
    EXPECT_EQ(formatNanoseconds(3600e9), "3,600 s");
    EXPECT_EQ(formatNanoseconds(-86400e9), "-86,400 s");
}

TEST(Units, NegativeAndNonFiniteDurations)
{
    EXPECT_EQ(formatNanoseconds(-1.5e6), "-1.50 ms");
    EXPECT_EQ(formatNanoseconds(-42), "-42 ns");
    EXPECT_EQ(formatNanoseconds(-0.2), "0 ns"); // rounding noise has no sign
    EXPECT_EQ(formatNanoseconds(std::nan("")), "n/a");
    EXPECT_EQ(formatNanoseconds(std::numeric_limits<double>::infinity()), "n/a");
}

TEST(Units, AxisLabelsFollowTheTickStep)
{
    EXPECT_EQ(formatAxisNanoseconds(2e9, 1e9), "2 s");
    // Ticks 100 us apart stay apart where three significant digits would print "1.23 s" twice; the value keeps its
    // own unit (not "1234500 us").
    EXPECT_EQ(formatAxisNanoseconds(1.2345e9, 1e5), "1.2345 s");
    EXPECT_EQ(formatAxisNanoseconds(1.2346e9, 1e5), "1.2346 s");
    EXPECT_EQ(formatAxisNanoseconds(346.5e6, 5e5), "346.5 ms"); // issue 26 read "346500 us"
    EXPECT_EQ(formatAxisNanoseconds(1500, 500), "1.5 us");
    EXPECT_EQ(formatAxisNanoseconds(0, 5e5), "0 us"); // the origin in the tick's unit
    EXPECT_EQ(formatAxisNanoseconds(0.5, 0.1), "0.5 ns"); // below a ns step, decimals
    EXPECT_EQ(formatAxisNanoseconds(-1e-6, 2e7), "0 ms"); // an origin a float error below zero has no sign
    EXPECT_EQ(formatAxisNanoseconds(-2e7, 2e7), "-20 ms");
}

TEST(Units, Counts)
{
    EXPECT_EQ(withThousands(1234567), "1,234,567");
    EXPECT_EQ(withThousands(-1000), "-1,000");
    EXPECT_EQ(withThousands(999), "999");
}

TEST(Units, PercentsTakeAPercentWithOneDecimalBelowTen)
{
    EXPECT_EQ(formatPercent(0), "0.0 %");
    EXPECT_EQ(formatPercent(4.24), "4.2 %");
    EXPECT_EQ(formatPercent(9.94), "9.9 %");
    EXPECT_EQ(formatPercent(9.96), "10 %"); // decided on the rounded figure, not "10.0 %"
    EXPECT_EQ(formatPercent(37.4), "37 %");
    EXPECT_EQ(formatPercent(100), "100 %");
    EXPECT_EQ(formatPercent(250), "250 %");
    EXPECT_EQ(formatPercent(-12.6), "-13 %");
    EXPECT_EQ(formatPercent(-0.04), "0.0 %"); // no "-0.0 %"
    EXPECT_EQ(formatPercent(std::nan("")), "n/a");
}

TEST(Units, PercentsWithFixedDecimals)
{
    EXPECT_EQ(formatPercentFixed(12.345, 1), "12.3 %");
    EXPECT_EQ(formatPercentFixed(12.345, 0), "12 %");
    EXPECT_EQ(formatPercentFixed(5, 2), "5.00 %");
    EXPECT_EQ(formatPercentFixed(-0.04, 1), "0.0 %");
    EXPECT_EQ(formatPercentFixed(-0.06, 1), "-0.1 %");
    EXPECT_EQ(formatPercentFixed(std::numeric_limits<double>::infinity(), 1), "n/a");
}

TEST(Units, SignedPercentsAlwaysCarryASign)
{
    EXPECT_EQ(formatSignedPercent(1.25, 2), "+1.25 %");
    EXPECT_EQ(formatSignedPercent(-0.4, 1), "-0.4 %");
    EXPECT_EQ(formatSignedPercent(0, 2), "+0.00 %");
    EXPECT_EQ(formatSignedPercent(-0.001, 2), "+0.00 %"); // rounds to no change
    EXPECT_EQ(formatSignedPercent(12.3456, 1), "+12.3 %");
}

TEST(Units, RatesAreDecimalWithThreeSignificantDigits)
{
    EXPECT_EQ(formatRate(0), "0 B/s");
    EXPECT_EQ(formatRate(850), "850 B/s");
    EXPECT_EQ(formatRate(1000), "1.00 kB/s"); // decimal: 1000, not 1024
    EXPECT_EQ(formatRate(25.7e6), "25.7 MB/s");
    EXPECT_EQ(formatRate(12.34e9), "12.3 GB/s");
    EXPECT_EQ(formatRate(24e9), "24.0 GB/s");
    EXPECT_EQ(formatRate(123.4e9), "123 GB/s");
    EXPECT_EQ(formatRate(3.35e12), "3.35 TB/s");
    EXPECT_EQ(formatRate(999.7e6), "1.00 GB/s"); // not "1000 MB/s"
    EXPECT_EQ(formatRate(-2e9), "-2.00 GB/s");
    EXPECT_EQ(formatRate(std::nan("")), "n/a");
}

} // namespace
} // namespace placescope
