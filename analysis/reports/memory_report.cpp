// SPDX-License-Identifier: MIT
// memory (HTA's / the TB plugin's memory timeline): per device, the framework allocator's allocated and reserved bytes
// over time (PyTorch's [memory] events: totalAllocated / totalReserved after each event), as the largest values in
// each of 50 buckets, and in the notes the peak, when it happened, and what was live at the peak: the blocks allocated
// and not yet freed (paired by address), largest first, with the framework op that allocated each. A trace with only
// CUDA segment events (nsys, capture) gets reserved = the running sum of cudaMalloc minus cudaFree.
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <array>
#include <climits>
#include <map>
#include <set>
#include <unordered_map>

namespace placescope {
namespace {

constexpr int64_t kBuckets = 50;
constexpr size_t kLiveShown = 5;

struct Point
{
    int64_t timeNs = 0, allocated = -1, reserved = -1;
    const MemorySample* sample = nullptr;
};

// The innermost framework op on the thread that was running at `timeNs`; empty when none.
std::string allocatingOp(const TraceData& trace, int64_t globalTid, int64_t timeNs)
{
    auto end = std::upper_bound(trace.hostRanges.begin(), trace.hostRanges.end(), timeNs,
        [](int64_t t, const HostRange& r) { return t < r.startNs; });
    const HostRange* best = nullptr;
    for (auto it = trace.hostRanges.begin(); it != end; ++it)
        if (it->globalTid == globalTid && !it->isNvtx && it->endNs >= timeNs && (!best || it->startNs >= best->startNs))
            best = &*it;
    return best ? trace.name(best->nameId) : std::string();
}

void addPeakNotes(
    const ReportContext& ctx, int64_t device, const std::vector<Point>& points, bool rebuilt, ReportTable& table)
{
    const auto peak = std::max_element(
        points.begin(), points.end(), [](const Point& a, const Point& b) { return a.allocated < b.allocated; });
    const auto peakReserved = std::max_element(
        points.begin(), points.end(), [](const Point& a, const Point& b) { return a.reserved < b.reserved; });
    std::string note = "device " + std::to_string(device) + ": ";
    if (peak->allocated >= 0)
        note += "peak allocated " + formatBytes(peak->allocated) + " at +"
            + formatNanoseconds(static_cast<double>(peak->timeNs - ctx.originNs())) + "; ";
    // A figure the trace does not record is said to be missing, never printed as its -1 sentinel.
    if (peakReserved->reserved >= 0)
        note += "peak reserved " + formatBytes(peakReserved->reserved) + " at +"
            + formatNanoseconds(static_cast<double>(peakReserved->timeNs - ctx.originNs()));
    else
        note += "reserved not recorded by this trace";
    table.notes.push_back(note);
    if (rebuilt)
        table.notes.push_back("device " + std::to_string(device)
            + ": the trace records each allocation's size but not the allocator's totals; allocated is their "
              "running sum since the trace began (at least what the device held: earlier blocks are not seen)");
    if (peak->allocated < 0 || !peak->sample)
        return;
    // Blocks live at the peak: allocations up to it whose address was not freed since.
    std::unordered_map<int64_t, const MemorySample*> live;
    bool addressed = false;
    for (const Point& p : points) {
        const MemorySample* m = p.sample;
        if (m->address >= 0) {
            addressed = true;
            if (m->bytes > 0)
                live[m->address] = m;
            else
                live.erase(m->address);
        }
        if (&p == &*peak)
            break;
    }
    if (!addressed) {
        table.notes.push_back("device " + std::to_string(device)
            + ": the trace records no block addresses, so what was live at the peak is unknown");
        return;
    }
    std::vector<const MemorySample*> blocks;
    int64_t liveBytes = 0;
    for (const auto& [address, m] : live) {
        blocks.push_back(m);
        liveBytes += m->bytes;
    }
    std::sort(blocks.begin(), blocks.end(), [](const MemorySample* a, const MemorySample* b) {
        return a->bytes != b->bytes ? a->bytes > b->bytes : a->startNs < b->startNs;
    });
    table.notes.push_back("device " + std::to_string(device) + ": live at the peak: "
        + withThousands(static_cast<int64_t>(blocks.size())) + " block(s), " + formatBytes(liveBytes)
        + " allocated since the trace (or the step) began; blocks from before it are not seen");
    for (size_t i = 0; i < std::min(kLiveShown, blocks.size()); ++i) {
        const std::string op = allocatingOp(ctx.trace(), blocks[i]->globalTid, blocks[i]->startNs);
        table.notes.push_back("  " + formatBytes(blocks[i]->bytes) + " allocated at +"
            + formatNanoseconds(static_cast<double>(blocks[i]->startNs - ctx.originNs()))
            + (op.empty() ? std::string() : " in " + op));
    }
}

// Older PyTorch profilers (the 2021 legacy schema) record each [memory] event's size but not the allocator's totals.
// The devices with sizes and no total at all: their allocated memory is rebuilt from the sizes (allocations positive,
// frees negative). Reserved memory cannot be rebuilt and stays unknown.
std::set<int64_t> rebuildAllocated(const std::vector<MemorySample>& memory)
{
    std::set<int64_t> withTotals, withSizes;
    for (const MemorySample& m : memory)
        (m.totalAllocated >= 0 ? withTotals : withSizes).insert(m.deviceId);
    std::set<int64_t> rebuilt;
    for (int64_t device : withSizes)
        if (!withTotals.count(device))
            rebuilt.insert(device);
    return rebuilt;
}

} // namespace

ReportTable memoryReport(const ReportContext& ctx)
{
    const TraceData& trace = ctx.trace();
    std::map<int64_t, std::vector<Point>> byDevice;
    const std::set<int64_t> rebuilt = rebuildAllocated(trace.memory);
    std::map<int64_t, int64_t> running; // rebuilt devices: the running sum of the sizes
    for (const MemorySample& m : trace.memory) {
        int64_t allocated = m.totalAllocated;
        if (rebuilt.count(m.deviceId))
            allocated = running[m.deviceId] += m.bytes;
        if (ctx.hostInScope(m.globalTid, m.startNs))
            byDevice[m.deviceId].push_back({ m.startNs, allocated, m.totalReserved, &m });
    }
    // Shifted so the rebuilt curve never goes below zero (blocks from before the trace are not seen): the least the
    // device can have held.
    for (int64_t device : rebuilt) {
        int64_t lowest = 0, sum = 0;
        for (const MemorySample& m : trace.memory)
            if (m.deviceId == device)
                lowest = std::min(lowest, sum += m.bytes);
        for (Point& p : byDevice[device])
            p.allocated -= lowest;
    }
    const bool fromSegments = byDevice.empty() && !trace.segments.empty();
    if (fromSegments) {
        std::map<int64_t, int64_t> reserved;
        for (const SegmentEvent& s : trace.segments) {
            int64_t& total = reserved[s.deviceId];
            total += s.isFree ? -s.bytes : s.bytes;
            if (ctx.hostInScope(s.globalPid, s.startNs))
                byDevice[s.deviceId].push_back({ s.startNs, -1, total, nullptr });
        }
    }
    ReportTable table;
    table.title = "Device memory over time (largest value in each bucket)";
    table.columns = { { "device", "Device", ColumnKind::Count }, { "bucket_start_ns", "Bucket", ColumnKind::Timestamp },
        { "bucket_ns", "Width", ColumnKind::Ns }, { "events", "Events", ColumnKind::Count },
        { "allocated_max", "Allocated max", ColumnKind::Bytes },
        { "reserved_max", "Reserved max", ColumnKind::Bytes } };
    if (byDevice.empty()) {
        table.notes.push_back("the trace has no memory events (PyTorch profile_memory=True records them)");
        return table;
    }
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const auto& [device, points] : byDevice) {
        first = std::min(first, points.front().timeNs);
        last = std::max(last, points.back().timeNs);
    }
    const int64_t width = std::max<int64_t>(1, (last - first + kBuckets) / kBuckets);
    for (const auto& [device, points] : byDevice) {
        std::map<int64_t, std::array<int64_t, 3>> buckets; // events, allocated max, reserved max
        for (const Point& p : points) {
            auto [it, inserted] = buckets.try_emplace((p.timeNs - first) / width, std::array<int64_t, 3> { 0, -1, -1 });
            ++it->second[0];
            it->second[1] = std::max(it->second[1], p.allocated);
            it->second[2] = std::max(it->second[2], p.reserved);
        }
        for (const auto& [b, v] : buckets)
            table.rows.push_back(
                { device, first + b * width, width, v[0], nullIfNegative(v[1]), nullIfNegative(v[2]) });
        addPeakNotes(ctx, device, points, rebuilt.count(device) > 0, table);
    }
    if (fromSegments)
        table.notes.push_back(
            "reserved = cudaMalloc minus cudaFree of device memory (CUDA_GPU_MEMORY_USAGE_EVENTS); the "
            "trace has no framework allocator events, so allocated is unknown");
    return table;
}

} // namespace placescope
