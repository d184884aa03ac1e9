// SPDX-License-Identifier: MIT
// The damaged copies the wire-reader tests feed to both the hand-written readers and the generated parser.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace placescope::testing {

// Calls visit(copy, what) for every prefix of `bytes` and for every byte of it set to each of a few values: tags and
// lengths of xplane.proto's fields (0x08, 0x12, 0x1a, 0x22), continuation bytes (0x80, 0xc0) and bytes that are not
// UTF-8 (0xff). Returns how many copies it made: bytes.size() * 11.
inline size_t forEachDamagedCopy(
    const std::string& bytes, const std::function<void(const std::string& copy, const std::string& what)>& visit)
{
    size_t copies = 0;
    for (size_t length = 0; length < bytes.size(); ++length, ++copies)
        visit(bytes.substr(0, length), "cut at " + std::to_string(length));
    for (size_t at = 0; at < bytes.size(); ++at)
        for (unsigned char value : { 0x00, 0x01, 0x08, 0x12, 0x1a, 0x22, 0x7f, 0x80, 0xc0, 0xff }) {
            std::string changed = bytes;
            changed[at] = static_cast<char>(value);
            visit(changed, "byte " + std::to_string(at) + " = " + std::to_string(value));
            ++copies;
        }
    return copies;
}

} // namespace placescope::testing
