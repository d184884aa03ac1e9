// SPDX-License-Identifier: MIT
#include "profiler/importers/xplane/xline_view.h"
#include "profiler/importers/xplane/wire_tag.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/stubs/common.h>
#include <google/protobuf/wire_format_lite.h>

#include <climits>
#include <cstring>

namespace placescope {

namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

constexpr auto kVarint = WireFormatLite::WIRETYPE_VARINT;
constexpr auto kFixed64 = WireFormatLite::WIRETYPE_FIXED64;
constexpr auto kLengthDelimited = WireFormatLite::WIRETYPE_LENGTH_DELIMITED;

// The next field's tag, split. Only called where bytes remain: a tag of 0 there is damage, not an end.
uint32_t nextTag(CodedInputStream& in, int& number, WireFormatLite::WireType& type)
{
    const uint32_t tag = readFieldTag(in);
    number = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
    type = WireFormatLite::GetTagWireType(tag);
    return tag;
}

// A length-delimited payload as a view into `bytes`, the buffer `in` reads.
bool readView(CodedInputStream& in, std::string_view bytes, std::string_view& out)
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
bool readString(CodedInputStream& in, std::string_view bytes, std::string_view& out)
{
    return readView(in, bytes, out)
        && google::protobuf::internal::IsStructurallyValidUTF8(out.data(), static_cast<int>(out.size()));
}

bool readInt64(CodedInputStream& in, int64_t& out)
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

bool readStat(CodedInputStream& in, std::string_view bytes, XStatView& stat)
{
    using Kind = XStatView::Kind;
    return readNested(in, [&](int number, WireFormatLite::WireType type, uint32_t tag) {
        if (number == 1 && type == kVarint)
            return readInt64(in, stat.metadataId);
        if (number == 2 && type == kFixed64) {
            uint64_t raw = 0;
            if (!in.ReadLittleEndian64(&raw))
                return false;
            std::memcpy(&stat.doubleValue, &raw, sizeof raw);
            stat.kind = Kind::Double;
            return true;
        }
        if ((number == 3 || number == 7) && type == kVarint) {
            stat.kind = number == 3 ? Kind::Uint64 : Kind::Ref;
            return in.ReadVarint64(&stat.unsignedValue);
        }
        if (number == 4 && type == kVarint) {
            stat.kind = Kind::Int64;
            return readInt64(in, stat.signedValue);
        }
        if (number == 5 && type == kLengthDelimited) {
            stat.kind = Kind::Str;
            return readString(in, bytes, stat.text);
        }
        if (number == 6 && type == kLengthDelimited) {
            stat.kind = Kind::Bytes;
            return readView(in, bytes, stat.text);
        }
        return WireFormatLite::SkipField(&in, tag);
    });
}

bool readEvent(CodedInputStream& in, std::string_view bytes, XEventView& event, std::vector<XStatView>& stats)
{
    event.firstStat = static_cast<uint32_t>(stats.size());
    const bool read = readNested(in, [&](int number, WireFormatLite::WireType type, uint32_t tag) {
        if (type == kVarint && (number == 1 || number == 2 || number == 3 || number == 5)) {
            int64_t value = 0;
            if (!readInt64(in, value))
                return false;
            if (number == 1)
                event.metadataId = value;
            else if (number == 2)
                event.offsetPs = value;
            else if (number == 3)
                event.durationPs = value;
            else
                event.offsetPs = 0; // num_occurrences: an aggregated event, which has no offset (the same oneof)
            return true;
        }
        if (number == 4 && type == kLengthDelimited) {
            stats.emplace_back();
            return readStat(in, bytes, stats.back());
        }
        return WireFormatLite::SkipField(&in, tag);
    });
    event.statCount = static_cast<uint32_t>(stats.size()) - event.firstStat;
    return read;
}

} // namespace

XStatView statView(const tensorflow::profiler::XStat& stat)
{
    using Stat = tensorflow::profiler::XStat;
    using Kind = XStatView::Kind;
    XStatView view;
    view.metadataId = stat.metadata_id();
    switch (stat.value_case()) {
    case Stat::kDoubleValue:
        view.kind = Kind::Double;
        view.doubleValue = stat.double_value();
        break;
    case Stat::kUint64Value:
        view.kind = Kind::Uint64;
        view.unsignedValue = stat.uint64_value();
        break;
    case Stat::kInt64Value:
        view.kind = Kind::Int64;
        view.signedValue = stat.int64_value();
        break;
    case Stat::kStrValue:
        view.kind = Kind::Str;
        view.text = stat.str_value();
        break;
    case Stat::kBytesValue:
        view.kind = Kind::Bytes;
        view.text = stat.bytes_value();
        break;
    case Stat::kRefValue:
        view.kind = Kind::Ref;
        view.unsignedValue = stat.ref_value();
        break;
    default:
        break;
    }
    return view;
}

bool XLineView::read(std::string_view bytes)
{
    id = timestampNs = 0;
    name = displayName = {};
    events.clear(); // their storage is kept for this line
    stats.clear();
    if (bytes.size() > static_cast<size_t>(INT_MAX))
        return false;
    CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<int>(bytes.size()));
    int number = 0;
    WireFormatLite::WireType type {};
    while (in.CurrentPosition() < static_cast<int>(bytes.size())) {
        const uint32_t tag = nextTag(in, number, type);
        if (tag == 0)
            return false;
        bool read = true;
        if (number == 1 && type == kVarint)
            read = readInt64(in, id);
        else if (number == 2 && type == kLengthDelimited)
            read = readString(in, bytes, name);
        else if (number == 3 && type == kVarint)
            read = readInt64(in, timestampNs);
        else if (number == 4 && type == kLengthDelimited) {
            events.emplace_back();
            read = readEvent(in, bytes, events.back(), stats);
        } else if (number == 11 && type == kLengthDelimited)
            read = readString(in, bytes, displayName);
        else
            read = WireFormatLite::SkipField(&in, tag); // duration_ps, display_id, and fields of later versions
        if (!read)
            return false;
    }
    return true;
}

} // namespace placescope
