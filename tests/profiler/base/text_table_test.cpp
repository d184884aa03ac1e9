// SPDX-License-Identifier: MIT
// The one text-table writer: widths from the content, numbers right and the last (name) column left and unpadded,
// explicit alignments, the indent, and no trailing spaces.
#include "profiler/base/text_table.h"

#include <gtest/gtest.h>

namespace placescope {
namespace {

TEST(TextTable, NumbersRightNamesLastAndLeft)
{
    const std::string text = renderTextTable({ "Count", "Total", "Name" },
        { { "3", "1.20 ms", "gemm" }, { "12,345", "850 ns", "a much longer kernel name" } });
    EXPECT_EQ(text,
        "  Count    Total  Name\n"
        "      3  1.20 ms  gemm\n"
        " 12,345   850 ns  a much longer kernel name\n");
}

TEST(TextTable, ExplicitAlignmentIndentAndNoTrailingSpaces)
{
    TextTable table { { "lane", "busy" }, { { "GPU 0 stream 7", "1.00 ms" }, { "CPU", "" } },
        { Align::Left, Align::Right }, "  " };
    EXPECT_EQ(renderTextTable(table),
        "  lane               busy\n"
        "  GPU 0 stream 7  1.00 ms\n"
        "  CPU\n");
    // Without a header the first row gives the column count.
    EXPECT_EQ(renderTextTable({}, { { "1", "a" }, { "22", "b" } }), "  1  a\n 22  b\n");
}

} // namespace
} // namespace placescope
