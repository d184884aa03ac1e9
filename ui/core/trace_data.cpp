// SPDX-License-Identifier: MIT
#include "ui/core/trace_data.h"

#include <algorithm>

namespace placescope::ui {

void LaneRow::push(int64_t start, int64_t end, uint32_t name, uint32_t row, uint32_t correlation, EventKind eventKind,
    uint32_t fullName)
{
    fullNameIndex.push_back(fullName == kSameName ? name : fullName);
    startNs.push_back(start);
    endNs.push_back(std::max(end, start));
    nameIndex.push_back(name);
    sourceRow.push_back(row);
    correlationId.push_back(correlation);
    kind.push_back(eventKind);
}

void LaneRow::finish()
{
    prefixDurationNs.assign(size() + 1, 0);
    for (size_t i = 0; i < size(); ++i)
        prefixDurationNs[i + 1] = prefixDurationNs[i] + durationNs(i);
    startNs.shrink_to_fit();
    endNs.shrink_to_fit();
    nameIndex.shrink_to_fit();
    fullNameIndex.shrink_to_fit();
    sourceRow.shrink_to_fit();
    correlationId.shrink_to_fit();
    kind.shrink_to_fit();
}

size_t LaneRow::memoryBytes() const
{
    return startNs.capacity() * 8 + endNs.capacity() * 8 + prefixDurationNs.capacity() * 8 + nameIndex.capacity() * 4
        + fullNameIndex.capacity() * 4 + sourceRow.capacity() * 4 + correlationId.capacity() * 4 + kind.capacity();
}

size_t Lane::eventCount() const
{
    size_t n = 0;
    for (const auto& row : rows)
        n += row.size();
    return n;
}

size_t LoadedTrace::memoryBytes() const
{
    size_t bytes = 0;
    for (const auto& name : names)
        bytes += sizeof(std::string) + name.capacity();
    for (const auto& lane : lanes) {
        bytes += sizeof(Lane) + lane.title.capacity();
        for (const auto& row : lane.rows)
            bytes += sizeof(LaneRow) + row.memoryBytes();
    }
    for (const auto& series : counters)
        bytes += (series.timeNs.capacity() + series.allocatedBytes.capacity() + series.reservedBytes.capacity()) * 8;
    return bytes;
}

void buildRows(std::vector<PendingEvent>& events, Lane& lane)
{
    std::stable_sort(events.begin(), events.end(), [](const PendingEvent& a, const PendingEvent& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs > b.endNs; // parents before children
    });
    std::vector<int64_t> rowEnd;
    for (const auto& event : events) {
        size_t level = 0;
        while (level < rowEnd.size() && rowEnd[level] > event.startNs)
            ++level;
        if (level == rowEnd.size()) {
            rowEnd.push_back(event.endNs);
            lane.rows.emplace_back();
        }
        rowEnd[level] = std::max(event.endNs, event.startNs);
        lane.rows[level].push(event.startNs, event.endNs, event.nameIndex, event.sourceRow, event.correlationId,
            event.kind, event.fullNameIndex);
    }
    for (auto& row : lane.rows)
        row.finish();
    events.clear();
    events.shrink_to_fit();
}

} // namespace placescope::ui
