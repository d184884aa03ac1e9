// SPDX-License-Identifier: MIT
// Reading XPlane's protobuf wire format by hand, for the import's hot path (xline_view.h, xspace_wire.h): what the
// generated parser of xplane.proto refuses is refused here too. Strings are views into the buffer being read.
#pragma once

#include "profiler/importers/xplane/xstat_view.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/stubs/common.h>
#include <google/protobuf/wire_format_lite.h>

#include <climits>
#include <cstdint>
#include <string_view>

namespace placescope::wire {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

// The next tag as the generated parser reads it: a varint of at most five bytes whose value fits 32 bits; 0 for
// anything else (0 is no tag). CodedInputStream::ReadTag takes up to ten bytes and drops the bits past 32, where the
// generated parser refuses the message.
inline uint32_t readFieldTag(CodedInputStream& in)
{
    constexpr int kMostTagBytes = 5;
    const int before = in.CurrentPosition();
    uint64_t tag = 0;
    if (!in.ReadVarint64(&tag) || tag > UINT32_MAX || in.CurrentPosition() - before > kMostTagBytes)
        return 0;
    return static_cast<uint32_t>(tag);
}

inline constexpr auto kVarint = WireFormatLite::WIRETYPE_VARINT;
inline constexpr auto kFixed64 = WireFormatLite::WIRETYPE_FIXED64;
inline constexpr auto kLengthDelimited = WireFormatLite::WIRETYPE_LENGTH_DELIMITED;

// The next field's tag, split. Only called where bytes remain: a tag of 0 there is damage, not an end.
inline uint32_t nextTag(CodedInputStream& in, int& number, WireFormatLite::WireType& type)
{
    const uint32_t tag = readFieldTag(in);
    number = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
    type = WireFormatLite::GetTagWireType(tag);
    return tag;
}

// A length-delimited payload as a view into `bytes`, the buffer `in` reads.
inline bool readView(CodedInputStream& in, std::string_view bytes, std::string_view& out)
{
    uint32_t length = 0;
    if (!in.ReadVarint32(&length))
        return false;
    const int at = in.CurrentPosition();
    if (!in.Skip(static_cast<int>(length)))
        return false;
    out = bytes.substr(static_cast<size_t>(at), length);
    return true;
}

// A proto3 string field: its bytes must be UTF-8, as the generated parser checks.
inline bool readString(CodedInputStream& in, std::string_view bytes, std::string_view& out)
{
    return readView(in, bytes, out)
        && google::protobuf::internal::IsStructurallyValidUTF8(out.data(), static_cast<int>(out.size()));
}

inline bool readInt64(CodedInputStream& in, int64_t& out)
{
    uint64_t value = 0;
    if (!in.ReadVarint64(&value))
        return false;
    out = static_cast<int64_t>(value);
    return true;
}

// Reads a nested message's fields with `field(number, type, tag)`, which returns false on a damaged field.
template <typename Field> bool readNested(CodedInputStream& in, Field&& field)
{
    uint32_t length = 0;
    if (!in.ReadVarint32(&length) || length > static_cast<uint32_t>(INT_MAX))
        return false;
    const auto limit = in.PushLimit(static_cast<int>(length));
    if (in.BytesUntilLimit() != static_cast<int>(length))
        return false; // the length runs past the end of the enclosing message
    int number = 0;
    WireFormatLite::WireType type {};
    while (in.BytesUntilLimit() > 0) {
        const uint32_t tag = nextTag(in, number, type);
        if (tag == 0 || !field(number, type, tag))
            return false;
    }
    in.PopLimit(limit);
    return true;
}

// A packed repeated varint field (proto3's encoding of repeated integers): read for its damage, values dropped.
inline bool readPackedVarints(CodedInputStream& in, std::string_view bytes)
{
    std::string_view packed;
    if (!readView(in, bytes, packed))
        return false;
    CodedInputStream values(reinterpret_cast<const uint8_t*>(packed.data()), static_cast<int>(packed.size()));
    uint64_t value = 0;
    while (values.CurrentPosition() < static_cast<int>(packed.size()))
        if (!values.ReadVarint64(&value))
            return false;
    return true;
}

// One XStat (a nested message) into `stat`.
bool readStat(CodedInputStream& in, std::string_view bytes, XStatView& stat);

} // namespace placescope::wire
