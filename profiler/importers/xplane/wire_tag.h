// SPDX-License-Identifier: MIT
// Reading a field's tag as protobuf's generated parser reads it, for the hand-written readers of XPlane's wire format
// (xspace_wire.cpp, xline_view.cpp): CodedInputStream::ReadTag takes a tag of up to ten bytes and drops the bits past
// 32, where the generated parser refuses the message, so the readers would accept inputs the parser refuses.
#pragma once

#include <google/protobuf/io/coded_stream.h>

#include <cstdint>

namespace placescope {

// The next tag: a varint of at most five bytes whose value fits 32 bits; 0 for anything else (0 is no tag).
inline uint32_t readFieldTag(google::protobuf::io::CodedInputStream& in)
{
    constexpr int kMostTagBytes = 5;
    const int before = in.CurrentPosition();
    uint64_t tag = 0;
    if (!in.ReadVarint64(&tag) || tag > UINT32_MAX || in.CurrentPosition() - before > kMostTagBytes)
        return 0;
    return static_cast<uint32_t>(tag);
}

} // namespace placescope
