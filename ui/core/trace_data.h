// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace placescope::ui {

// What an event on a timeline row is; selects its colour and the table its details come from.
// GpuAnnotation: a range a framework marked on a GPU stream (Kineto gpu_user_annotation, PS_GPU_ANNOTATIONS).
enum class EventKind : uint8_t
{
    Kernel,
    Memcpy,
    Memset,
    Runtime,
    Nvtx,
    FrameworkOp,
    Predicted,
    GpuAnnotation
};

// A full name equal to the event's name (LaneRow::push, PendingEvent).
inline constexpr uint32_t kSameName = UINT32_MAX;

// One row of a lane: events that do not overlap, sorted by start (struct of arrays, Tracy style).
// prefixDurationNs[i] is the summed duration of events [0, i), so the total time of any run of
// events is two lookups: folding keeps the exact total time of what it folds.
// Per event: 8 + 8 + 8 + 4 + 4 + 4 + 4 + 1 = 41 bytes.
struct LaneRow
{
    std::vector<int64_t> startNs;
    std::vector<int64_t> endNs;
    std::vector<int64_t> prefixDurationNs; // size() + 1 entries once finished
    std::vector<uint32_t> nameIndex; // into LoadedTrace::names (a kernel's short name)
    std::vector<uint32_t> fullNameIndex; // into LoadedTrace::names: a kernel's demangled name (templates and
                                         // all, what nsys stats and the kernel table show); nameIndex otherwise
    std::vector<uint32_t> sourceRow; // rowid in the source table (details on demand)
    std::vector<uint32_t> correlationId; // CUPTI correlation id, 0 when none
    std::vector<EventKind> kind;

    size_t size() const { return startNs.size(); }
    int64_t durationNs(size_t i) const { return endNs[i] - startNs[i]; }
    void push(int64_t start, int64_t end, uint32_t name, uint32_t row, uint32_t correlation, EventKind eventKind,
        uint32_t fullName = kSameName);
    void finish(); // builds prefixDurationNs and trims capacity
    size_t memoryBytes() const;
};

// A lane: a host thread's framework ops / API calls / NVTX, or one device stream. Rows are nesting levels.
struct Lane
{
    enum class Group : uint8_t
    {
        Host,
        Device,
        Predicted
    };
    Group group = Group::Host;
    std::string title;
    int64_t sortKey = 0;
    int64_t globalTid = -1; // host lanes: the thread (PS_THREADS globalTid), to find an event by thread and start
    std::vector<LaneRow> rows;
    size_t eventCount() const;
};

// A counter track, sorted by time (a step function): memory of one device (allocated and reserved bytes), or a
// report's time series with one line (queue length per stream, copy bandwidth per kind; ui/window/report_counters).
enum class CounterUnit : uint8_t
{
    Bytes,
    Count,
    BytesPerSecond
};
struct CounterSeries
{
    std::string title;
    CounterUnit unit = CounterUnit::Bytes;
    std::string primaryLabel = "allocated"; // the first line's name (legend, tooltip)
    std::string secondaryLabel = "reserved"; // the second line's; empty: one line
    std::vector<int64_t> timeNs;
    std::vector<int64_t> allocatedBytes; // the first line's values (memory: allocated bytes)
    std::vector<int64_t> reservedBytes; // the second line's (-1 where the source does not say); empty with one line
    int64_t maxBytes = 0; // the largest value of either line
};

// The GUI's own read-only copy of a trace: lanes of sorted arrays plus interned names. Built by the loader
// on a worker thread, then handed to the UI thread whole and read there only (immutable after load).
struct LoadedTrace
{
    std::string path;
    std::vector<std::string> names;
    std::vector<Lane> lanes;
    std::vector<CounterSeries> counters;
    int64_t firstNs = 0;
    int64_t lastNs = 0;
    uint64_t eventCount = 0;
    uint64_t problemCount = 0;

    size_t memoryBytes() const;
};

// Lanes that are not read from the trace (the placement engine's predicted timeline): their own names and a time
// base starting at 0. Shared with the timeline as an immutable snapshot, replaced whole when the plan changes.
struct PredictedLanes
{
    std::vector<std::string> names;
    std::vector<Lane> lanes;
    int64_t lengthNs = 0; // end of the last span
};

// Assigns each event (sorted by start) the first row whose last event ended by its start: nesting depth for
// properly nested ranges, extra rows for overlapping kernels. Events are given as parallel arrays.
struct PendingEvent
{
    int64_t startNs;
    int64_t endNs;
    uint32_t nameIndex;
    uint32_t sourceRow;
    uint32_t correlationId;
    EventKind kind;
    uint32_t fullNameIndex = kSameName; // a kernel's demangled name where it differs from nameIndex
};
void buildRows(std::vector<PendingEvent>& events, Lane& lane);

} // namespace placescope::ui
