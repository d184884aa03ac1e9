// SPDX-License-Identifier: MIT
// classifyFileHead: gzip and SQLite by their magic bytes, JSON by its first non-blank byte, the rest Other.
#include "profiler/base/file_head.h"

#include <gtest/gtest.h>

#include <string_view>

namespace placescope {
namespace {

TEST(FileHeadTest, MagicBytesAndTheFirstJsonByteTellInputsApart)
{
    EXPECT_EQ(classifyFileHead(std::string_view("\x1f\x8b\x08\x00", 4)), FileHeadKind::Gzip);
    EXPECT_EQ(classifyFileHead(std::string_view("SQLite format 3\0\x10\x00", 18)), FileHeadKind::Sqlite);
    EXPECT_EQ(classifyFileHead("SQLite format 3"), FileHeadKind::Other); // the magic ends with a NUL byte
    EXPECT_EQ(classifyFileHead(" \r\n\t{\"traceEvents\""), FileHeadKind::JsonObject);
    EXPECT_EQ(classifyFileHead("\n[{\"ph\": \"X\"}"), FileHeadKind::JsonArray);
    EXPECT_EQ(classifyFileHead("\v{"), FileHeadKind::Other); // not a JSON blank
    EXPECT_EQ(classifyFileHead(std::string_view("\x08\x07\x12", 3)), FileHeadKind::Other); // ONNX: the loader's call
    EXPECT_EQ(classifyFileHead(""), FileHeadKind::Other);
    EXPECT_EQ(classifyFileHead("\xEF\xBB\xBF{\"traceEvents\""), FileHeadKind::JsonObject); // a UTF-8 BOM first
    EXPECT_EQ(classifyFileHead("\xEF\xBB\xBF \n["), FileHeadKind::JsonArray);
    EXPECT_EQ(classifyFileHead("\xEF\xBB{"), FileHeadKind::Other); // not a whole BOM
    EXPECT_EQ(classifyFileHead(std::string_view("{\0\"\0", 4)), FileHeadKind::Other); // UTF-16
}

} // namespace
} // namespace placescope
