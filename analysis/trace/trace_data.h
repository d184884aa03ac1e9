// SPDX-License-Identifier: MIT
// TraceData: the parts of a trace file the findings rules read, loaded once into sorted vectors so that
// every rule runs over memory instead of issuing its own queries (a 1M-event trace loads in about a
// second). Names are kept as StringIds ids with one lookup table. Owns its data; immutable after load();
// safe to read from several threads.
#pragma once

#include "profiler/base/status.h"
#include "profiler/store/sqlite_db.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace placescope {

// A CUDA API name without the version suffix nsys adds ("cudaMemcpy_v3020" -> "cudaMemcpy").
std::string apiBaseName(const std::string& name);

struct GpuOp // a kernel, memcpy or memset on a device
{
    enum class Kind : uint8_t
    {
        Kernel,
        Memcpy,
        Memset
    };
    Kind kind = Kind::Kernel;
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t globalPid = 0;
    int64_t deviceId = 0;
    int64_t streamId = 0;
    int64_t correlationId = -1;
    int64_t nameId = -1; // kernels: demangledName
    int64_t bytes = 0; // copies and memsets
    int64_t copyKind = 0; // ENUM_CUDA_MEMCPY_OPER
    int64_t srcKind = -1; // ENUM_CUDA_MEM_KIND; memsets: memKind
    int64_t dstKind = -1;
    int64_t rowId = -1; // rowid in its table (a predicted trace rewrites the row)
    int64_t durationNs() const { return endNs - startNs; }
};

struct ApiCall // CUDA runtime/driver call on a host thread
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t globalTid = 0;
    int64_t correlationId = -1;
    int64_t nameId = -1;
    int64_t rowId = -1; // rowid in CUPTI_ACTIVITY_KIND_RUNTIME
};

struct SyncWait
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t globalPid = 0;
    int64_t deviceId = -1;
    int64_t streamId = -1; // -1: context/event sync
    int64_t correlationId = -1; // of the host call that waited
    int64_t syncType = 0; // ENUM_CUPTI_SYNC_TYPE: 1 event, 2 stream wait event, 3 stream, 4 context
    int64_t eventId = -1; // event syncs and stream waits: the event; -1 none
};

// A cudaEventRecord and the stream it recorded on (CUPTI_ACTIVITY_KIND_CUDA_EVENT).
struct EventRecord
{
    int64_t globalPid = 0;
    int64_t deviceId = -1;
    int64_t streamId = -1;
    int64_t correlationId = -1; // of the cudaEventRecord call
    int64_t eventId = -1;
};

struct HostRange // framework op or NVTX range
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t globalTid = 0;
    int64_t nameId = -1;
    int64_t externalId = -1;
    int32_t depth = -1;
    bool isNvtx = false;
    std::string category;
    std::string inputDims; // JSON, may be empty
    std::string inputTypes;
    std::string extra;
};

struct MemorySample // framework allocator event (PyTorch [memory])
{
    int64_t startNs = 0;
    int64_t globalTid = 0;
    int64_t deviceId = 0;
    int64_t bytes = 0;
    int64_t totalAllocated = -1;
    int64_t totalReserved = -1;
    int64_t address = -1; // the block's address when recorded (pairs a free with its allocation)
};

struct SegmentEvent // CUDA_GPU_MEMORY_USAGE_EVENTS: cudaMalloc/cudaFree of device memory
{
    int64_t startNs = 0;
    int64_t globalPid = 0;
    int64_t deviceId = 0;
    int64_t bytes = 0;
    bool isFree = false;
};

struct GpuAnnotationRange // PS_GPU_ANNOTATIONS: a framework annotation as the GPU ran it, on its stream
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t globalPid = 0;
    int64_t deviceId = 0;
    int64_t streamId = 0;
    int64_t nameId = -1;
};

struct RangeCounter // PS_COUNTERS: one metric of one profiled range (CUPTI range profiler, usually one kernel)
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t globalPid = 0;
    int64_t nameId = -1; // the range's (kernel's) name
    std::string metric;
    double value = 0;
    int64_t correlationId = -1; // the kernel launch it counts; -1 when unlinked
};

struct GpuDevice
{
    int64_t id = 0;
    std::string name;
    int64_t totalMemoryBytes = 0;
    int64_t computeMajor = -1;
    int64_t computeMinor = -1;
};

struct StepWindow
{
    int64_t stepNumber = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t globalPid = -1; // -1: all processes
};

struct ProcessRank
{
    int64_t globalPid = 0;
    int64_t rank = -1;
};

// What TraceData::load reads. A replay builds its graph from the store's rows directly (forEachGpuOp and
// forEachApiCall below) and needs of TraceData only the names, the sync rows, the devices, the ranks and the
// ranges that mark steps: on a 10M-event trace the full load alone would take more memory than the store.
enum class TraceParts : uint8_t
{
    Everything,
    ForReplay
};

class TraceData
{
public:
    // Loads from an open trace (openTrace). Missing optional tables are treated as empty.
    static Result<TraceData> load(SqliteDb& db, TraceParts parts = TraceParts::Everything);

    const std::string& name(int64_t nameId) const;
    // Resolves a name id from the host side (runtime API, ops) or device side; same StringIds table.
    std::optional<int64_t> findNameId(const std::string& text) const;

    std::vector<GpuOp> gpuOps; // kernels, copies and memsets, sorted by start
    std::vector<ApiCall> apiCalls; // sorted by start
    std::vector<SyncWait> syncWaits; // sorted by start
    std::vector<EventRecord> eventRecords; // sorted by (globalPid, eventId, correlationId)
    std::vector<HostRange> hostRanges; // framework ops and NVTX ranges, sorted by start
    std::vector<MemorySample> memory; // sorted by start
    std::vector<SegmentEvent> segments; // sorted by start
    std::vector<RangeCounter> counters; // sorted by start
    std::vector<GpuAnnotationRange> gpuAnnotations; // sorted by start (also NVTX ranges without a thread)
    std::vector<GpuDevice> devices;
    std::vector<StepWindow> recordedSteps; // PS_STEPS as recorded
    std::vector<ProcessRank> ranks;
    // (globalPid, correlationId) -> externalId, from PS_EXTERNAL_CORRELATION
    std::unordered_map<uint64_t, int64_t> externalIdOfCorrelation;
    std::string sourceFormat;
    TraceParts parts = TraceParts::Everything; // what load() read: with ForReplay, no GPU ops and calls

    const GpuDevice* device(int64_t id) const;
    static uint64_t correlationKey(int64_t globalPid, int64_t correlationId)
    {
        // pid (24 bits) in the top bits, correlation ids below (they stay far under 2^40).
        return (static_cast<uint64_t>(globalPid / 0x1000000 % 0x1000000) << 40) ^ static_cast<uint64_t>(correlationId);
    }

private:
    std::unordered_map<int64_t, std::string> m_names;
    std::unordered_map<std::string, int64_t> m_ids;
};

// The store's kernels, copies and memsets, and its runtime/driver calls, one struct at a time: in the store's
// order, or sorted by start (ties: kernels, copies, memsets, then by row) as TraceData's vectors are.
Status forEachGpuOp(SqliteDb& db, bool inStartOrder, const std::function<void(const GpuOp&)>& visit);
Status forEachApiCall(SqliteDb& db, bool inStartOrder, const std::function<void(const ApiCall&)>& visit);

} // namespace placescope
