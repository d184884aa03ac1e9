// SPDX-License-Identifier: MIT
// KinetoEventMapper: turns one Kineto (PyTorch profiler) trace event, parsed into a KinetoRecord, into rows of
// the trace tables (kernels, copies, memsets, API calls, syncs, framework ops, memory events, flows, steps...).
// Bad records are counted in PS_PROBLEMS by kind and skipped or kept with NULLs; the mapper never fails: no event
// is dropped without a problem counted (a phase it does not map, a missing ph or pid, a B without its E).
// B/E (begin/end) pairs become the same rows as X (complete) events, paired per thread as the Chrome format says.
// One mapper per input file; it keeps per-input state (thread nesting, open flows, pid/tid names, stream ends).
// Not thread-safe.
#pragma once

#include "profiler/importers/common/flow_tracker.h"
#include "profiler/importers/kineto_json/kineto_record.h"
#include "profiler/model/trace_events.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace placescope {

class TraceWriter;

// Parses a JSON number token in microseconds ("1419116234278.335", "12", "1.5e3") into integer nanoseconds
// without going through double for plain decimals (base times are ~1.7e15 us). Rounds beyond 3 decimals.
std::optional<int64_t> parseMicrosecondsToNs(std::string_view token);

class KinetoEventMapper
{
public:
    // `inputIndex` separates the process ids of different inputs (the same OS pid on two hosts).
    KinetoEventMapper(TraceWriter& writer, int inputIndex);

    // Maps one event, in file order, counting the problems its parse found.
    void addRecord(const KinetoRecord& record);
    // Writes what depends on the whole input (processes and threads with their names and rank, unpaired flows).
    void finish(std::optional<int64_t> rank, const std::string& hostname);
    uint64_t eventsSeen() const { return m_eventsSeen; }

private:
    struct Id
    {
        int64_t value = 0;
        bool isString = false;
    };
    Id resolveId(const RawId& id);
    int64_t syntheticId(std::string_view text);
    int64_t globalPid(int64_t pid) const { return m_pidSalt + makeGlobalPid(pid); }
    int64_t globalTid(int64_t pid, int64_t tid) const { return m_pidSalt + makeGlobalTid(pid, tid); }
    int64_t ownerGlobalPid();
    void noteHostThread(int64_t pid, int64_t tid);
    void problem(std::string_view kind, std::string_view example);
    // What a span (an X event, or a B/E pair) needs to become a row.
    struct Span
    {
        std::string_view cat, name;
        const KinetoArgs* args = nullptr;
        Id pid, tid;
        TimeNs start = 0, end = 0;
        std::optional<int64_t> depth; // a framework op's nesting, when known from its B (else from m_openOps)
    };
    void addSpan(const Span& span);
    // A B event waiting for its E: its strings owned, as the record's views die with its batch.
    struct OpenBegin
    {
        std::string cat, name;
        OwnedKinetoArgs args;
        Id pid, tid;
        TimeNs start = 0;
        int64_t depth = 0;
        bool isFrameworkOp = false;
    };
    void beginSpan(std::string_view cat, std::string_view name, const KinetoArgs& args, Id pid, Id tid, TimeNs start);
    // `endArgs`: the E's args, merged into the B's (Chrome trace format).
    void endSpan(Id pid, Id tid, TimeNs end, std::string_view name, const KinetoArgs& endArgs);

    TraceWriter& m_writer;
    int64_t m_pidSalt;
    uint64_t m_eventsSeen = 0;
    FlowTracker m_flows;
    std::unordered_map<std::string, int64_t> m_stringIds;
    std::map<int64_t, std::string> m_processNames;
    std::map<std::pair<int64_t, int64_t>, std::string> m_threadNames;
    std::set<std::pair<int64_t, int64_t>> m_hostThreads;
    std::optional<int64_t> m_firstHostPid;
    std::unordered_map<int64_t, std::vector<TimeNs>> m_openOps; // globalTid -> end times of enclosing ops
    std::unordered_map<int64_t, TimeNs> m_streamEnds; // device<<32|stream -> last kernel end
    // cuda_profiler_range counters wait for finish(), which pairs the n-th range with the n-th kernel launch.
    void addCounterRange(const KinetoRecord& record, std::string_view name, Id pid, TimeNs start, TimeNs end);
    std::vector<std::vector<CounterSample>> m_counterRanges; // one entry per range, in file order
    std::vector<std::pair<TimeNs, int64_t>> m_kernelLaunches; // (start, correlation id) of cudaLaunchKernel calls
    std::map<std::pair<int64_t, int64_t>, std::vector<OpenBegin>> m_openBegins; // (pid, tid) -> B events not ended
    int64_t m_nextSyntheticId = 0xFFFFFF;
};

} // namespace placescope
