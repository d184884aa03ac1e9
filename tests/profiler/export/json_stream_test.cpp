// SPDX-License-Identifier: MIT
#include "profiler/exporters/json_stream.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace placescope {
namespace {

std::string microseconds(int64_t ns)
{
    std::string out;
    JsonStream::appendMicroseconds(out, ns);
    return out;
}

std::string escaped(std::string_view text)
{
    std::string out;
    JsonStream::appendEscaped(out, text);
    return out;
}

TEST(JsonStream, MicrosecondsKeepNanosecondsExactly)
{
    EXPECT_EQ(microseconds(0), "0.000");
    EXPECT_EQ(microseconds(1), "0.001");
    EXPECT_EQ(microseconds(533338240), "533338.240");
    EXPECT_EQ(microseconds(-1500), "-1.500");
    EXPECT_EQ(microseconds(1695835572943613123), "1695835572943613.123"); // beyond double's 53-bit precision
    EXPECT_EQ(microseconds(INT64_MIN), "-9223372036854775.808");
}

TEST(JsonStream, EscapesAndRepairsUtf8)
{
    EXPECT_EQ(escaped("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
    EXPECT_EQ(escaped("\xC3\xA9t\xC3\xA9"), "\"\xC3\xA9t\xC3\xA9\""); // valid UTF-8 kept
    EXPECT_EQ(escaped("bad\xFF"), "\"bad\xEF\xBF\xBD\"");
    EXPECT_EQ(escaped("\xC3"), "\"\xEF\xBF\xBD\""); // truncated sequence
    EXPECT_EQ(escaped("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""); // surrogate
    EXPECT_EQ(escaped("\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\""); // overlong
    for (std::string hostile : { std::string("\xFE\xFF\"\\"), std::string("x\0y", 3), std::string("\xF4\x90\x80\x80") })
        EXPECT_TRUE(nlohmann::json::accept(escaped(hostile))) << escaped(hostile);
}

} // namespace
} // namespace placescope
