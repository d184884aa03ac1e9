// SPDX-License-Identifier: MIT
// Trace summaries: what `placescope stats` prints and what the GUI's summary panel and the findings reuse.
// Pure functions over an open trace (SqliteDb from openTrace): SQL aggregates backed by the indexes in
// trace_indexes.sql, no event list held in memory. Times in ns, sizes in bytes. Thread-safe as far as each
// call gets its own SqliteDb.
#pragma once

#include "profiler/base/status.h"
#include "profiler/store/sqlite_db.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace placescope {

// Distribution of one group's durations, as in nsys's cuda_gpu_kern_sum (StdDev is the sample deviation).
struct DurationStats
{
    int64_t count = 0;
    int64_t totalNs = 0;
    double averageNs = 0;
    double medianNs = 0;
    int64_t minNs = 0;
    int64_t maxNs = 0;
    double stddevNs = 0;
};

struct KernelSummaryRow
{
    std::string name;
    double timePercent = 0; // share of all kernel time in the trace
    DurationStats time;
};

struct KernelSummary
{
    int64_t kernelCount = 0;
    int64_t totalNs = 0; // sum of all kernel durations (overlaps counted twice)
    int64_t distinctNames = 0;
    std::vector<KernelSummaryRow> rows; // by total time, longest first; at most topN
};

enum class KernelNameKind
{
    Demangled,
    Short
};

// Kernels grouped by name (StringIds text). topN == 0 keeps every name.
Result<KernelSummary> kernelSummary(SqliteDb& db, size_t topN, KernelNameKind nameKind = KernelNameKind::Demangled);

// One copy kind and memory type pair ("Memcpy HtoD", "Pageable -> Device") or one memset memory type.
struct MemoryOpRow
{
    std::string operation; // "Memcpy HtoD", "Memcpy DtoD", "Memset"
    std::string memoryTypes; // "Pageable -> Device"; "Device" for memsets
    std::optional<int64_t> copyKind; // ENUM_CUDA_MEMCPY_OPER id; empty for memsets
    std::optional<int64_t> srcKind, dstKind; // ENUM_CUDA_MEM_KIND ids (dstKind empty for memsets)
    DurationStats time;
    int64_t totalBytes = 0;
    double bandwidthGBps = 0; // totalBytes / total time (1 GB = 1e9 bytes)
};

// Memcpys by (copyKind, srcKind, dstKind), then memsets by memKind; each part by total time, longest first.
Result<std::vector<MemoryOpRow>> memoryOpSummary(SqliteDb& db);

struct TraceSpan
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    bool empty = true;
    int64_t durationNs() const { return empty ? 0 : endNs - startNs; }
};

// First start and last end over every timed table of the trace (GPU activity, API calls, ops, NVTX, memory).
Result<TraceSpan> traceSpan(SqliteDb& db);

struct DeviceUtilization
{
    int64_t deviceId = 0;
    std::string name; // TARGET_INFO_GPU.name when known
    int64_t kernelNs = 0; // summed durations per kind (overlaps counted twice)
    int64_t memcpyNs = 0;
    int64_t memsetNs = 0;
    int64_t busyNs = 0; // union of all kernel/memcpy/memset intervals: time anything ran
    int64_t firstStartNs = 0; // first and last GPU activity on this device
    int64_t lastEndNs = 0;
    double utilizationOfTrace = 0; // busyNs / trace span
    double utilizationOfActive = 0; // busyNs / (lastEndNs - firstStartNs)
};

// Per device, with busy time from a k-way merge of the per-stream lanes (each read in start order from the
// lane index), so memory stays O(lanes) whatever the trace size.
Result<std::vector<DeviceUtilization>> deviceUtilization(SqliteDb& db, const TraceSpan& span);

struct ProblemRow
{
    std::string kind;
    std::string severity;
    int64_t count = 0;
    std::string help;
    std::string example;
};

Result<std::vector<ProblemRow>> importProblems(SqliteDb& db);

struct TraceCounts
{
    std::string sourceFormat;
    int64_t kernels = 0, memcpys = 0, memsets = 0, apiCalls = 0, syncs = 0, nvtx = 0, frameworkOps = 0,
            memoryEvents = 0;
    // What "events" means wherever a count of them is shown (the import summary, `stats`, the app's status bar): the
    // run's timed records above. Flows, correlations, processes, threads and steps describe them and are not counted.
    int64_t events() const
    {
        return kernels + memcpys + memsets + apiCalls + syncs + nvtx + frameworkOps + memoryEvents;
    }
};

Result<TraceCounts> traceCounts(SqliteDb& db);

struct StatsOptions
{
    size_t topKernels = 20; // 0: all
    KernelNameKind nameKind = KernelNameKind::Demangled;
};

struct TraceStats
{
    TraceCounts counts;
    TraceSpan span;
    KernelSummary kernels;
    std::vector<MemoryOpRow> memoryOps;
    std::vector<DeviceUtilization> devices;
    std::vector<ProblemRow> problems;
};

Result<TraceStats> computeTraceStats(SqliteDb& db, const StatsOptions& options);

} // namespace placescope
