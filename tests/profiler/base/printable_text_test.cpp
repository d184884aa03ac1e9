// SPDX-License-Identifier: MIT
#include "profiler/base/printable_text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace placescope {
namespace {

TEST(PrintableText, ControlCharactersAreShownEscaped)
{
    EXPECT_EQ(printableText("a\nb\rc\td"), "a\\nb\\rc\\td");
    EXPECT_EQ(printableText("x\x1b[2Jy"), "x\\x1b[2Jy");
    EXPECT_EQ(printableText(std::string("nul\0del\x7f", 8)), "nul\\x00del\\x7f");
    EXPECT_EQ(printableText("csi\xc2\x9b"
                            "31m"),
        "csi\\u009b31m"); // C1 CSI, as UTF-8
}

TEST(PrintableText, Utf8PassesAndOtherBytesAreShownEscaped)
{
    EXPECT_EQ(printableText("r\xc3\xa9sum\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\xa5"),
        "r\xc3\xa9sum\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\xa5");
    EXPECT_EQ(printableText("bad\xff\xfe"), "bad\\xff\\xfe");
    EXPECT_EQ(printableText("cut\xe2\x86"), "cut\\xe2\\x86"); // a sequence the text ends inside
    EXPECT_EQ(printableText("over\xc0\xaf"), "over\\xc0\\xaf"); // an overlong '/'
    EXPECT_EQ(printableText("sur\xed\xa0\x80"), "sur\\xed\\xa0\\x80"); // a UTF-16 surrogate
    EXPECT_EQ(printableText("plain ascii ~!"), "plain ascii ~!");
}

TEST(PrintableText, PrintLineWritesOneLine)
{
    std::FILE* file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    printLine(file, "placescope stats: %s: no such trace file\n", "a\nb.sqlite");
    printLine(file, "no newline at the end of %d format", 1);
    std::rewind(file);
    char buffer[256] = {};
    const size_t read = std::fread(buffer, 1, sizeof buffer - 1, file);
    std::fclose(file);
    EXPECT_EQ(std::string(buffer, read),
        "placescope stats: a\\nb.sqlite: no such trace file\nno newline at the end of 1 format\n");
}

} // namespace
} // namespace placescope
