// SPDX-License-Identifier: MIT
// FlowTracker: pairs the two halves of Chrome-trace flow events ('s' start, 'f' finish) by (category, id), in
// whichever order they arrive, and reports the halves left without a partner at the end (real Kineto traces
// carry lone 'f' halves on CPU threads). Memory: one small record per open flow. Not thread-safe.
#pragma once

#include "profiler/model/trace_events.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace placescope {

class FlowTracker
{
public:
    struct Endpoint
    {
        TimeNs ts = 0;
        OptInt globalTid, deviceId, streamId;
    };

    // Returns the completed flow when this half closes one.
    std::optional<FlowEvent> add(std::string_view category, int64_t id, bool isStart, const Endpoint& point);
    // Number of halves still unpaired (call at the end of the input), then forgets them.
    uint64_t takeUnpaired();

private:
    int categoryIndex(std::string_view category);
    struct Key
    {
        int category;
        int64_t id;
        bool operator==(const Key& other) const { return category == other.category && id == other.id; }
    };
    struct KeyHash
    {
        size_t operator()(const Key& key) const { return std::hash<int64_t>()(key.id * 31 + key.category); }
    };
    std::vector<std::string> m_categories;
    std::unordered_map<Key, Endpoint, KeyHash> m_openStarts;
    std::unordered_map<Key, Endpoint, KeyHash> m_openFinishes;
    uint64_t m_replaced = 0;
};

} // namespace placescope
