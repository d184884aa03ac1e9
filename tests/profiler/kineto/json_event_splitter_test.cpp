// SPDX-License-Identifier: MIT
// JsonEventSplitter: the events and top-level members it cuts out must not depend on how the input is chunked
// (the scanner skips string bodies and blanks 16 bytes at a time outside events and tracks strings and brackets
// 64 bytes at a time inside them, so what crosses a chunk or a block is the case to get right), and its
// recovery from an unescaped quote must hold.
#include "profiler/importers/kineto_json/json_event_splitter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace placescope {
namespace {

struct Cut
{
    std::vector<std::string> events;
    std::vector<bool> suspect;
    std::vector<std::string> members; // "key=value"
    bool closed = false;
};

Cut split(const std::string& text, size_t chunk)
{
    Cut cut;
    JsonEventSplitter splitter(JsonEventSplitter::Handler { [&](std::string_view key, std::string_view raw) {
                                                               cut.members.push_back(
                                                                   std::string(key) + "=" + std::string(raw));
                                                           },
        [&](std::string_view event, bool suspect) {
            cut.events.emplace_back(event);
            cut.suspect.push_back(suspect);
        } });
    for (size_t at = 0; at < text.size(); at += chunk)
        EXPECT_TRUE(splitter.feed(std::string_view(text).substr(at, chunk)));
    cut.closed = splitter.finish();
    return cut;
}

TEST(JsonEventSplitterTest, SameEventsForEveryChunkSize)
{
    const std::string longName(70, 'k'); // spans several 16-byte blocks
    const std::string text
        = "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [ {\"id\": 0, \"name\": \"V100\"} ],\n"
          "  \"traceEvents\": [\n"
          "  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \""
        + longName
        + "\", \"pid\": 0,\n"
          "    \"ts\": 1669783687467795.5, \"dur\": 3,\n    \"args\": {\"grid\": [1, 2, 3]}\n  },\n"
          "  {\"ph\": \"i\", \"name\": \"quote \\\" brace } bracket ] comma , backslash \\\\\", \"ts\": 1},\n"
          "  {\"ph\": \"M\", \"name\": \"thread_name\", \"args\": {\"name\": \"a\\\\\"}}\n"
          "  ],\n  \"traceName\": \"x\"\n}\n";
    Cut whole = split(text, text.size());
    ASSERT_EQ(whole.events.size(), 3u);
    EXPECT_EQ(whole.events[0].front(), '{');
    EXPECT_EQ(whole.events[0].back(), '}');
    EXPECT_NE(whole.events[0].find(longName), std::string::npos);
    EXPECT_NE(whole.events[1].find("backslash \\\\\""), std::string::npos);
    EXPECT_EQ(whole.events[2], "{\"ph\": \"M\", \"name\": \"thread_name\", \"args\": {\"name\": \"a\\\\\"}}");
    EXPECT_EQ(whole.members,
        (std::vector<std::string> {
            "schemaVersion=1", "deviceProperties=[ {\"id\": 0, \"name\": \"V100\"} ]", "traceName=\"x\"" }));
    EXPECT_TRUE(whole.closed);
    for (size_t chunk : { 1u, 2u, 3u, 7u, 15u, 16u, 17u, 31u, 64u, 100u }) {
        Cut pieces = split(text, chunk);
        EXPECT_EQ(pieces.events, whole.events) << "chunk " << chunk;
        EXPECT_EQ(pieces.members, whole.members) << "chunk " << chunk;
        EXPECT_EQ(pieces.closed, whole.closed) << "chunk " << chunk;
    }
}

TEST(JsonEventSplitterTest, UnescapedQuoteCostsOnlyItsOwnLine)
{
    // Kineto writes one event per line: the broken one ends at its newline and the next one is read intact.
    const std::string text = "{\"traceEvents\": [\n{\"ph\": \"X\", \"name\": \"bad \"quote here\", \"ts\": 1},\n"
                             "{\"ph\": \"X\", \"name\": \"good\", \"ts\": 2}\n]}";
    for (size_t chunk : { 1u, 5u, 16u, 1000u }) {
        Cut cut = split(text, chunk);
        ASSERT_GE(cut.events.size(), 2u) << "chunk " << chunk;
        EXPECT_TRUE(cut.suspect.front()) << "chunk " << chunk;
        EXPECT_EQ(cut.events.back(), "{\"ph\": \"X\", \"name\": \"good\", \"ts\": 2}") << "chunk " << chunk;
        EXPECT_FALSE(cut.suspect.back()) << "chunk " << chunk;
    }
}

} // namespace
} // namespace placescope

namespace placescope {
namespace {

// The 64-byte block scan must cut exactly where the byte-by-byte scan does (fed one byte at a time, the splitter
// never has a whole block). Every tricky byte (quotes, brackets and braces inside strings, escapes, nesting, a
// raw newline in a string) is shifted through every offset of a block.
TEST(JsonEventSplitterTest, BlockScanCutsWhereTheByteScanDoes)
{
    std::string text = "{\"traceEvents\": [\n";
    for (int shift = 0; shift < 70; ++shift) {
        const std::string pad(static_cast<size_t>(shift), 'p');
        text += "{\"name\": \"" + pad + "a } ] { [ \\\" \\\\\", \"args\": {\"grid\": [1, [2, 3]], \"s\": \"" + pad
            + "}\"}, \"x\": {}},\n";
        text += "{\"name\": \"" + pad + "\\\\\\\\\", \"args\": {\"t\": \"]]]}}}\"}},\n";
        if (shift % 10 == 3)
            text += "{\"name\": \"" + pad + "broken\n\"},\n"; // raw newline in a string: resynchronised
    }
    text += "{\"last\": true}\n]}\n";
    Cut blocks = split(text, text.size());
    Cut bytes = split(text, 1);
    ASSERT_EQ(blocks.events.size(), bytes.events.size());
    EXPECT_GE(blocks.events.size(), 140u);
    for (size_t i = 0; i < blocks.events.size(); ++i) {
        EXPECT_EQ(blocks.events[i], bytes.events[i]) << "event " << i;
        EXPECT_EQ(blocks.suspect[i], bytes.suspect[i]) << "event " << i;
    }
    EXPECT_EQ(blocks.closed, bytes.closed);
    EXPECT_TRUE(blocks.closed);
    EXPECT_EQ(blocks.events.back(), "{\"last\": true}");
}

} // namespace
} // namespace placescope
