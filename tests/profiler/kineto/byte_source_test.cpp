// SPDX-License-Identifier: MIT
// ByteSource on real gzip bytes: concatenated members with zero padding read as one stream, a CRC mismatch and
// a cut stream are errors, and a plain file passes through.
#include "profiler/importers/common/byte_source.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace placescope {
namespace {

const std::string kGzipTrace = std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz";

std::string fileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

std::string writeTemp(const std::string& name, const std::string& bytes)
{
    std::string path
        = (std::filesystem::temp_directory_path() / ("byte_source_" + std::to_string(::getpid()) + name)).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// Reads the whole content in small pieces, so members and padding straddle the reads.
Result<std::string> readAll(const std::string& path)
{
    PLACESCOPE_ASSIGN_OR_RETURN(std::unique_ptr<ByteSource> source, ByteSource::open(path));
    std::string content;
    char buffer[4096];
    for (;;) {
        PLACESCOPE_ASSIGN_OR_RETURN(size_t n, source->read(buffer, sizeof buffer));
        if (n == 0)
            return content;
        content.append(buffer, n);
    }
}

TEST(ByteSourceTest, ConcatenatedMembersWithZeroPaddingReadAsOneStream)
{
    const std::string member = fileBytes(kGzipTrace);
    auto single = readAll(kGzipTrace);
    ASSERT_TRUE(single.isOk()) << single.status().message();
    ASSERT_GT(single->size(), member.size()); // it was inflated
    auto joined = readAll(writeTemp("joined.gz", member + std::string(7, '\0') + member + std::string(100, '\0')));
    ASSERT_TRUE(joined.isOk()) << joined.status().message();
    EXPECT_EQ(*joined, *single + *single);
}

TEST(ByteSourceTest, ACrcMismatchIsAnError)
{
    std::string bytes = fileBytes(kGzipTrace);
    bytes[bytes.size() - 8] ^= 0x01; // the trailer's CRC-32
    auto content = readAll(writeTemp("crc.gz", bytes));
    ASSERT_FALSE(content.isOk());
    EXPECT_NE(content.status().message().find("CRC mismatch"), std::string::npos) << content.status().message();
}

TEST(ByteSourceTest, ACutStreamIsAnError)
{
    std::string bytes = fileBytes(kGzipTrace);
    auto content = readAll(writeTemp("cut.gz", bytes.substr(0, bytes.size() - 20)));
    ASSERT_FALSE(content.isOk());
    EXPECT_NE(content.status().message().find("truncated gzip"), std::string::npos) << content.status().message();
}

TEST(ByteSourceTest, TrailingBytesThatAreNotGzipAreCorruptNotCut)
{
    auto content = readAll(writeTemp("trailing.gz", fileBytes(kGzipTrace) + "xyz"));
    ASSERT_FALSE(content.isOk());
    EXPECT_NE(content.status().message().find("bytes after the last member are not gzip"), std::string::npos)
        << content.status().message();
}

TEST(ByteSourceTest, APlainFilePassesThrough)
{
    auto content = readAll(writeTemp("plain.json", "{\"traceEvents\": []}"));
    ASSERT_TRUE(content.isOk());
    EXPECT_EQ(*content, "{\"traceEvents\": []}");
}

} // namespace
} // namespace placescope
