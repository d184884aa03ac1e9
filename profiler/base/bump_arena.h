// SPDX-License-Identifier: MIT
// BumpArena: memory for many small objects that all die together (the rows of one queued batch, the strings
// of one batch of parsed events). It hands out space from 64 KB blocks that never move, so what it returned
// stays put until reset(); reset() keeps the blocks for the next batch, so a reused arena allocates nothing.
// A request larger than a block gets a block of its own, freed at reset(). Not thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace placescope {

class BumpArena
{
public:
    void* allocate(size_t size, size_t alignment);
    // A copy of `text` in the arena.
    std::string_view copy(std::string_view text);
    void reset();

private:
    static constexpr size_t kBlockBytes = 64 * 1024;
    std::vector<std::unique_ptr<std::byte[]>> m_blocks;
    size_t m_blocksUsed = 0;
    std::vector<std::unique_ptr<std::byte[]>> m_largeBlocks;
    std::byte* m_free = nullptr;
    size_t m_freeBytes = 0;
};

} // namespace placescope
