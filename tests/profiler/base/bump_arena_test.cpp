// SPDX-License-Identifier: MIT
// BumpArena: what it hands out is aligned and stays put until reset(), large requests get their own block, and
// a reset arena serves the next batch from the blocks it kept.
#include "profiler/base/bump_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace placescope {
namespace {

TEST(BumpArenaTest, CopiesStayPutAndAlignmentsHold)
{
    BumpArena arena;
    std::vector<std::string_view> copies;
    std::vector<std::string> originals;
    for (int i = 0; i < 20000; ++i) { // several blocks' worth
        originals.push_back("text " + std::to_string(i) + std::string(static_cast<size_t>(i % 37), 'x'));
        copies.push_back(arena.copy(originals.back()));
        void* aligned = arena.allocate(24, 16);
        ASSERT_EQ(reinterpret_cast<uintptr_t>(aligned) % 16, 0u);
    }
    for (size_t i = 0; i < copies.size(); ++i)
        ASSERT_EQ(copies[i], originals[i]) << i;
    std::string large(200000, 'L'); // larger than a block
    std::string_view largeCopy = arena.copy(large);
    EXPECT_EQ(largeCopy, large);
    EXPECT_TRUE(arena.copy("").empty());
}

TEST(BumpArenaTest, AResetArenaReusesItsBlocks)
{
    BumpArena arena;
    std::string_view first = arena.copy("first batch");
    arena.reset();
    std::string_view second = arena.copy("next batch!");
    EXPECT_EQ(second, "next batch!");
    EXPECT_EQ(second.data(), first.data()); // the same block, from its start
}

} // namespace
} // namespace placescope
