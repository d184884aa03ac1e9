// SPDX-License-Identifier: MIT
#include "profiler/importers/common/flow_tracker.h"

namespace placescope {

int FlowTracker::categoryIndex(std::string_view category)
{
    for (size_t i = 0; i < m_categories.size(); ++i)
        if (m_categories[i] == category)
            return static_cast<int>(i);
    m_categories.emplace_back(category);
    return static_cast<int>(m_categories.size() - 1);
}

std::optional<FlowEvent> FlowTracker::add(std::string_view category, int64_t id, bool isStart, const Endpoint& point)
{
    Key key { categoryIndex(category), id };
    auto& partners = isStart ? m_openFinishes : m_openStarts;
    auto found = partners.find(key);
    if (found == partners.end()) {
        // A second half of the same kind replaces the first: the older one stays unpaired.
        auto& own = isStart ? m_openStarts : m_openFinishes;
        auto [it, inserted] = own.try_emplace(key, point);
        if (!inserted) {
            it->second = point;
            ++m_replaced;
        }
        return std::nullopt;
    }
    const Endpoint& from = isStart ? point : found->second;
    const Endpoint& to = isStart ? found->second : point;
    FlowEvent flow;
    flow.id = id;
    flow.category = std::string(category);
    flow.fromTs = from.ts;
    flow.fromGlobalTid = from.globalTid;
    flow.fromDeviceId = from.deviceId;
    flow.fromStreamId = from.streamId;
    flow.toTs = to.ts;
    flow.toGlobalTid = to.globalTid;
    flow.toDeviceId = to.deviceId;
    flow.toStreamId = to.streamId;
    partners.erase(found);
    return flow;
}

uint64_t FlowTracker::takeUnpaired()
{
    uint64_t count = m_openStarts.size() + m_openFinishes.size() + m_replaced;
    m_openStarts.clear();
    m_openFinishes.clear();
    m_replaced = 0;
    return count;
}

} // namespace placescope
