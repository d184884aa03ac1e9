// SPDX-License-Identifier: MIT
#include "profiler/base/bump_arena.h"

#include <cstdint>
#include <cstring>

namespace placescope {
namespace {

size_t paddingFor(const std::byte* at, size_t alignment)
{
    return (alignment - reinterpret_cast<uintptr_t>(at) % alignment) % alignment;
}

} // namespace

void* BumpArena::allocate(size_t size, size_t alignment)
{
    size_t padding = paddingFor(m_free, alignment);
    if (m_free == nullptr || padding + size > m_freeBytes) {
        if (size + alignment > kBlockBytes) {
            m_largeBlocks.push_back(std::make_unique_for_overwrite<std::byte[]>(size + alignment));
            std::byte* block = m_largeBlocks.back().get();
            return block + paddingFor(block, alignment);
        }
        if (m_blocksUsed == m_blocks.size())
            m_blocks.push_back(std::make_unique_for_overwrite<std::byte[]>(kBlockBytes));
        m_free = m_blocks[m_blocksUsed++].get();
        m_freeBytes = kBlockBytes;
        padding = paddingFor(m_free, alignment);
    }
    void* place = m_free + padding;
    m_free += padding + size;
    m_freeBytes -= padding + size;
    return place;
}

std::string_view BumpArena::copy(std::string_view text)
{
    if (text.empty())
        return {};
    void* place = allocate(text.size(), 1);
    std::memcpy(place, text.data(), text.size());
    return std::string_view(static_cast<const char*>(place), text.size());
}

void BumpArena::reset()
{
    m_blocksUsed = 0;
    m_largeBlocks.clear();
    m_free = nullptr;
    m_freeBytes = 0;
}

} // namespace placescope
