// SPDX-License-Identifier: MIT
#include "placement/proposal/byte_size.h"
#include "placement/proposal/layout_facts.h"

#include <gtest/gtest.h>

namespace placescope {
namespace {

TEST(ByteSizeTest, BinaryAndDecimalUnits)
{
    EXPECT_EQ(*parseByteSize("16GiB"), int64_t(16) << 30);
    EXPECT_EQ(*parseByteSize("16 gib"), int64_t(16) << 30);
    EXPECT_EQ(*parseByteSize("512MB"), int64_t(512000000));
    EXPECT_EQ(*parseByteSize("1.5KiB"), int64_t(1536));
    EXPECT_EQ(*parseByteSize("1e9"), int64_t(1000000000));
    EXPECT_EQ(*parseByteSize("4096"), int64_t(4096));
}

TEST(ByteSizeTest, BadSizesNameTheText)
{
    for (const char* bad : { "", "GiB", "16XB", "-1GiB", "0", "16 GiB extra", "nan" }) {
        auto size = parseByteSize(bad);
        ASSERT_FALSE(size.isOk()) << bad;
        EXPECT_NE(size.status().message().find(std::string("'") + bad + "'"), std::string::npos);
    }
}

TEST(LayoutFactsTest, ComputeCapabilityFromTheGpuName)
{
    EXPECT_DOUBLE_EQ(computeCapabilityFromName("NVIDIA H100 SXM5 80GB"), 9.0);
    EXPECT_DOUBLE_EQ(computeCapabilityFromName("NVIDIA A100-SXM4-80GB"), 8.0);
    EXPECT_DOUBLE_EQ(computeCapabilityFromName("Tesla V100-SXM2-16GB"), 7.0);
    EXPECT_DOUBLE_EQ(computeCapabilityFromName("NVIDIA A10"), 8.6);
    EXPECT_DOUBLE_EQ(computeCapabilityFromName("GeForce GTX 1080"), 0.0);
}

} // namespace
} // namespace placescope
