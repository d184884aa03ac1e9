// SPDX-License-Identifier: MIT
// A line of an XPlane read straight from its serialized bytes: its events and their stats as plain values, strings as
// views into the bytes. This is the import's hot path (a TensorFlow capture holds four stats per event): parsed into
// the generated classes, a line cost as much as mapping it, with an arena allocation per event and stat and a copy of
// each string. The fields and their numbers are xplane.proto's; what the generated parser refuses is refused here too
// (a field cut short, a string that is not UTF-8), and fields this reader does not know are skipped, as it skips them.
#pragma once

#include "profiler/importers/xplane/xstat_view.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace placescope {

struct XEventView
{
    int64_t metadataId = 0;
    int64_t offsetPs = 0;
    int64_t durationPs = 0;
    uint32_t firstStat = 0; // into XLineView::stats
    uint32_t statCount = 0;
};

class XLineView
{
public:
    // Reads `bytes` (which must outlive the view), reusing the storage of the line read before. False when the bytes
    // are damaged or a string in them is not UTF-8.
    bool read(std::string_view bytes);

    std::span<const XStatView> statsOf(const XEventView& event) const
    {
        return std::span<const XStatView>(stats).subspan(event.firstStat, event.statCount);
    }

    int64_t id = 0;
    std::string_view name;
    std::string_view displayName;
    int64_t timestampNs = 0;
    std::vector<XEventView> events;
    std::vector<XStatView> stats; // every event's, in order
};

} // namespace placescope
