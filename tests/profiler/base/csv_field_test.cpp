// SPDX-License-Identifier: MIT
// The one CSV field quoter (RFC 4180): plain text as it is; a comma, a quote or a line break quoted, inner quotes
// doubled.
#include "profiler/base/csv_field.h"

#include <gtest/gtest.h>

namespace placescope {
namespace {

TEST(CsvField, QuotesOnlyWhatNeedsIt)
{
    EXPECT_EQ(csvField(""), "");
    EXPECT_EQ(csvField("void gemm<float>(int)"), "void gemm<float>(int)");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField("cr\r"), "\"cr\r\"");
}

} // namespace
} // namespace placescope
