// SPDX-License-Identifier: MIT
#include "profiler/importers/xplane/wire_reader.h"

#include <cstring>

namespace placescope::wire {

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

} // namespace placescope::wire
