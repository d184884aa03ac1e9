// SPDX-License-Identifier: MIT
#include "profiler/importers/xplane/xspace_wire.h"
#include "profiler/importers/xplane/wire_reader.h"

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
constexpr int kPlaneEventMetadata = 4;
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
        WireField field;
        const uint32_t tag = wire::nextTag(input, field.number, field.type);
        if (tag == 0)
            return begin == static_cast<int>(bytes.size()); // the end, or a tag that is not a varint / is 0
        bool read = false;
        if (field.type == wire::kLengthDelimited)
            read = wire::readView(input, bytes, field.payload);
        else if (field.type == wire::kVarint)
            read = input.ReadVarint64(&field.varint);
        else
            read = WireFormatLite::SkipField(&input, tag);
        if (!read)
            return false;
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

// One entry of a plane's map<int64, XEventMetadata>: its key and the metadata's name go into `names` (a later entry
// of the same key wins, as in the generated map). Every field of the metadata is read as the generated parser reads
// it, strings checked for UTF-8, though only the name is kept.
bool readEventMetadataEntry(std::string_view entry, std::unordered_map<int64_t, std::string_view>& names)
{
    using namespace wire;
    CodedInputStream in(reinterpret_cast<const uint8_t*>(entry.data()), static_cast<int>(entry.size()));
    int64_t key = 0;
    std::string_view name;
    int number = 0;
    WireFormatLite::WireType type {};
    while (in.CurrentPosition() < static_cast<int>(entry.size())) {
        const uint32_t tag = nextTag(in, number, type);
        if (tag == 0)
            return false;
        bool read = true;
        if (number == 1 && type == kVarint)
            read = readInt64(in, key);
        else if (number == 2 && type == kLengthDelimited)
            read = readNested(in, [&](int field, WireFormatLite::WireType fieldType, uint32_t fieldTag) {
                std::string_view ignored;
                XStatView ignoredStat;
                if (field == 2 && fieldType == kLengthDelimited)
                    return readString(in, entry, name);
                if (field == 4 && fieldType == kLengthDelimited) // display_name
                    return readString(in, entry, ignored);
                if (field == 5 && fieldType == kLengthDelimited)
                    return readStat(in, entry, ignoredStat);
                if (field == 6 && fieldType == kLengthDelimited) // child_id, packed: every varint must be whole
                    return readPackedVarints(in, entry);
                return WireFormatLite::SkipField(&in, fieldTag); // id, metadata (bytes), child_id unpacked
            });
        else
            read = WireFormatLite::SkipField(&in, tag);
        if (!read)
            return false;
    }
    names.insert_or_assign(key, name);
    return true;
}

} // namespace

std::optional<XSpaceParts> splitXSpace(std::string_view bytes, google::protobuf::Arena& arena)
{
    auto* header = google::protobuf::Arena::CreateMessage<tensorflow::profiler::XSpace>(&arena);
    XSpaceParts parts;
    std::string rest; // the other fields, concatenated: they parse as one message
    const bool walked = forEachField(bytes, [&](const WireField& field) {
        if (field.number == kSpacePlanes && field.type == WireFormatLite::WIRETYPE_LENGTH_DELIMITED)
            parts.planes.push_back(field.payload);
        else
            rest.append(field.whole);
    });
    if (!walked || !parseQuietly(*header, rest))
        return std::nullopt;
    parts.header = header;
    return parts;
}

std::optional<XPlaneParts> splitXPlane(std::string_view planeBytes, google::protobuf::Arena& arena)
{
    auto* header = google::protobuf::Arena::CreateMessage<tensorflow::profiler::XPlane>(&arena);
    XPlaneParts parts;
    std::string rest; // the fields neither lines nor event metadata, concatenated: they parse as one message
    bool entriesRead = true;
    const bool walked = forEachField(planeBytes, [&](const WireField& field) {
        if (field.type != WireFormatLite::WIRETYPE_LENGTH_DELIMITED)
            rest.append(field.whole);
        else if (field.number == kPlaneLines)
            parts.lines.push_back(field.payload);
        else if (field.number == kPlaneEventMetadata)
            entriesRead = entriesRead && readEventMetadataEntry(field.payload, parts.eventNames);
        else
            rest.append(field.whole);
    });
    if (!walked || !entriesRead || !parseQuietly(*header, rest))
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
