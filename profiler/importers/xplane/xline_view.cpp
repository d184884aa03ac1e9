// SPDX-License-Identifier: MIT
#include "profiler/importers/xplane/xline_view.h"
#include "profiler/importers/xplane/wire_reader.h"

#include <climits>

namespace placescope {

namespace {

using namespace wire;

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
