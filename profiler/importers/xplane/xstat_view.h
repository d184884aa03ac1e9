// SPDX-License-Identifier: MIT
// An XStat as plain values: what the hand-written readers of XPlane's wire format (xline_view.h, xspace_wire.h) read
// an event's stats into, and what XPlaneStats reads every stat from, a plane's own stats (parsed by the generated
// classes) included.
#pragma once

#include "profiler/importers/xplane/xplane.pb.h"

#include <cstdint>
#include <string_view>

namespace placescope {

struct XStatView
{
    enum class Kind : uint8_t
    {
        None,
        Double,
        Uint64,
        Int64,
        Str,
        Bytes,
        Ref
    };
    int64_t metadataId = 0;
    Kind kind = Kind::None; // which value the stat holds (a oneof: the last one written wins)
    double doubleValue = 0;
    uint64_t unsignedValue = 0; // Uint64 and Ref (an id into the plane's stat metadata)
    int64_t signedValue = 0;
    std::string_view text; // Str and Bytes
};

// A stat of a plane or an event's metadata, as the generated classes hold it.
XStatView statView(const tensorflow::profiler::XStat& stat);

} // namespace placescope
