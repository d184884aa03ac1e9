// SPDX-License-Identifier: MIT
// The one formatter for sizes, durations and counts (docs/cli_conventions.md, "Units"): sizes in binary units,
// with the unit changing exactly at 1024 of the one below.
#include "profiler/base/units.h"

#include <gtest/gtest.h>

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

TEST(Units, DurationsAndCounts)
{
    EXPECT_EQ(formatNanoseconds(850), "850 ns");
    EXPECT_EQ(formatNanoseconds(36796), "36.796 us");
    EXPECT_EQ(formatNanoseconds(-1.5e6), "-1.500 ms");
    EXPECT_EQ(formatNanoseconds(2.25e9), "2.250 s");
    EXPECT_EQ(withThousands(1234567), "1,234,567");
    EXPECT_EQ(withThousands(-1000), "-1,000");
    EXPECT_EQ(withThousands(999), "999");
}

} // namespace
} // namespace placescope
