// SPDX-License-Identifier: MIT
#include "profiler/importers/xplane/xspace_wire.h"
#include "profiler/importers/xplane/wire_tag.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/stubs/common.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/wire_format_lite.h>

#include <climits>
#include <string>

namespace placescope {

namespace {

using google::protobuf::internal::WireFormatLite;

// Field numbers of xplane.proto.
constexpr int kSpacePlanes = 1;
constexpr int kPlaneLines = 3;
constexpr int kIdOfPlaneOrLine = 1;
constexpr int kNameOfPlaneOrLine = 2;

struct WireField
{
    int number = 0;
    WireFormatLite::WireType type = WireFormatLite::WIRETYPE_VARINT;
    std::string_view whole; // tag, length and payload: the field as it can be parsed on its own
    std::string_view payload; // a length-delimited field's contents
    uint64_t varint = 0; // a varint field's value
};

// Calls `onField(const WireField&)` for each top-level field of the serialized message `bytes`, in order. False when
// the bytes end inside a field or hold a tag no message can.
template <typename OnField> bool forEachField(std::string_view bytes, OnField&& onField)
{
    if (bytes.size() > static_cast<size_t>(INT_MAX))
        return false;
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    google::protobuf::io::CodedInputStream input(data, static_cast<int>(bytes.size()));
    for (;;) {
        const int begin = input.CurrentPosition();
        const uint32_t tag = readFieldTag(input);
        if (tag == 0)
            return begin == static_cast<int>(bytes.size()); // the end, or a tag that is not a varint / is 0
        WireField field;
        field.number = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
        field.type = WireFormatLite::GetTagWireType(tag);
        if (field.type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            uint32_t length = 0;
            if (!input.ReadVarint32(&length))
                return false;
            const int payloadBegin = input.CurrentPosition();
            if (!input.Skip(static_cast<int>(length)))
                return false;
            field.payload = bytes.substr(static_cast<size_t>(payloadBegin), length);
        } else if (field.type == WireFormatLite::WIRETYPE_VARINT) {
            if (!input.ReadVarint64(&field.varint))
                return false;
        } else if (!WireFormatLite::SkipField(&input, tag)) {
            return false;
        }
        field.whole = bytes.substr(static_cast<size_t>(begin), static_cast<size_t>(input.CurrentPosition() - begin));
        onField(field);
    }
}

// Parses `bytes` into `message`; protobuf's own log line for a bad string is silenced, the caller's error says it.
bool parseQuietly(google::protobuf::MessageLite& message, std::string_view bytes)
{
    google::protobuf::LogSilencer quiet;
    return bytes.size() <= static_cast<size_t>(INT_MAX)
        && message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

// The fields of `bytes` other than field `splitNumber` parsed into `header`, and the payloads of that field.
template <typename Message>
bool splitMessage(std::string_view bytes, int splitNumber, Message& header, std::vector<std::string_view>& parts)
{
    std::string rest; // concatenated fields parse as one message
    const bool walked = forEachField(bytes, [&](const WireField& field) {
        if (field.number == splitNumber && field.type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED)
            parts.push_back(field.payload);
        else
            rest.append(field.whole);
    });
    return walked && parseQuietly(header, rest);
}

} // namespace

std::optional<XSpaceParts> splitXSpace(std::string_view bytes, google::protobuf::Arena& arena)
{
    auto* header = google::protobuf::Arena::CreateMessage<tensorflow::profiler::XSpace>(&arena);
    XSpaceParts parts;
    if (!splitMessage(bytes, kSpacePlanes, *header, parts.planes))
        return std::nullopt;
    parts.header = header;
    return parts;
}

std::optional<XPlaneParts> splitXPlane(std::string_view planeBytes, google::protobuf::Arena& arena)
{
    auto* header = google::protobuf::Arena::CreateMessage<tensorflow::profiler::XPlane>(&arena);
    XPlaneParts parts;
    if (!splitMessage(planeBytes, kPlaneLines, *header, parts.lines))
        return std::nullopt;
    parts.header = header;
    return parts;
}

std::optional<XIdAndName> peekIdAndName(std::string_view bytes)
{
    XIdAndName key;
    const bool walked = forEachField(bytes, [&](const WireField& field) {
        if (field.number == kIdOfPlaneOrLine && field.type == WireFormatLite::WIRETYPE_VARINT)
            key.id = static_cast<int64_t>(field.varint);
        else if (field.number == kNameOfPlaneOrLine && field.type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED)
            key.name = field.payload;
    });
    const bool utf8
        = google::protobuf::internal::IsStructurallyValidUTF8(key.name.data(), static_cast<int>(key.name.size()));
    return walked && utf8 ? std::optional<XIdAndName>(key) : std::nullopt;
}

} // namespace placescope
