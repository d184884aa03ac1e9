// SPDX-License-Identifier: MIT
// Plain event records, one struct per trace table. Producers (importers, the CUPTI capture) fill these and
// hand them to TraceWriter; field names follow the table columns in profiler/store/trace_schema.sql.
// Strings are passed as text; TraceWriter interns them into StringIds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace placescope {

using TimeNs = int64_t;
using OptInt = std::optional<int64_t>;

// nsys serialized ids: globalPid = (vmId << 48) | (pid << 24), globalTid = globalPid | tid (pid and tid kept to 24
// bits). nsys writes vmId 1 for the recording machine (real exports: globalPid 0x1'9F80'8000'0000 for pid 1701896).
inline constexpr int64_t kLocalVmId = int64_t(1) << 48;
inline int64_t makeGlobalPid(int64_t pid) { return kLocalVmId + (pid & 0xFFFFFF) * 0x1000000; }
inline int64_t makeGlobalTid(int64_t pid, int64_t tid) { return makeGlobalPid(pid) + (tid & 0xFFFFFF); }
inline int64_t pidOfGlobalId(int64_t globalId) { return globalId / 0x1000000 % 0x1000000; }
inline int64_t tidOfGlobalTid(int64_t globalTid) { return globalTid % 0x1000000; }

// "No stream" / "no event" on a synchronization row (context and device syncs, syncs not on an event): nsys
// writes CUPTI's all-ones id (CUPTI_SYNCHRONIZATION_INVALID_VALUE) there, never NULL, and so do we. Readers
// treat it, and NULL in files written before, as "none".
inline constexpr int64_t kNoSyncId = 0xFFFFFFFF;

struct KernelEvent
{
    TimeNs start = 0;
    TimeNs end = 0;
    int64_t deviceId = 0;
    OptInt contextId;
    int64_t streamId = 0;
    OptInt correlationId;
    OptInt globalPid;
    std::string demangledName;
    std::string shortName; // empty: derived from demangledName
    std::string mangledName; // empty: unknown (NULL)
    OptInt greenContextId;
    OptInt gridX, gridY, gridZ;
    OptInt blockX, blockY, blockZ;
    OptInt registersPerThread;
    OptInt staticSharedMemory;
    OptInt dynamicSharedMemory;
    OptInt localMemoryPerThread;
    OptInt localMemoryTotal;
    OptInt sharedMemoryExecuted;
    OptInt launchType;
    OptInt cacheConfig;
    OptInt gridId;
    OptInt graphNodeId;
    OptInt sharedMemoryLimitConfig; // ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG id
};

struct MemcpyEvent
{
    TimeNs start = 0;
    TimeNs end = 0;
    int64_t deviceId = 0;
    OptInt contextId;
    OptInt greenContextId;
    int64_t streamId = 0;
    OptInt correlationId;
    OptInt globalPid;
    int64_t bytes = 0;
    int64_t copyKind = 0; // ENUM_CUDA_MEMCPY_OPER id
    OptInt srcKind; // ENUM_CUDA_MEM_KIND id (nsys ids, not CUPTI's)
    OptInt dstKind;
    OptInt srcDeviceId, dstDeviceId;
    OptInt srcContextId, dstContextId;
    OptInt graphNodeId;
};

struct MemsetEvent
{
    TimeNs start = 0;
    TimeNs end = 0;
    int64_t deviceId = 0;
    OptInt contextId;
    OptInt greenContextId;
    int64_t streamId = 0;
    OptInt correlationId;
    OptInt globalPid;
    OptInt value;
    int64_t bytes = 0;
    OptInt memKind; // ENUM_CUDA_MEM_KIND id
    OptInt graphNodeId;
};

enum class ApiClass : int64_t
{
    Runtime = 0,
    Driver = 1
};

struct RuntimeEvent
{
    TimeNs start = 0;
    TimeNs end = 0;
    ApiClass eventClass = ApiClass::Runtime;
    int64_t globalTid = 0;
    OptInt correlationId;
    std::string name; // 'cudaLaunchKernel', 'cuLaunchKernel'...
    OptInt returnValue;
};

// OSRT_API: a traced OS runtime call (pthread_mutex_lock, poll, read...) as nsys records it. Kept from nsys exports
// for the scripts that read it; Placescope's own views do not read it. callchainId is the export's (its
// OSRT_CALLCHAINS table, which holds the call stacks, is not kept).
struct OsRuntimeCall
{
    TimeNs start = 0;
    TimeNs end = 0;
    int64_t eventClass = 27; // ENUM_NSYS_EVENT_CLASS: TRACE_PROCESS_EVENT_OS_RUNTIME
    OptInt globalTid;
    std::string name; // 'pthread_cond_wait'...
    int64_t returnValue = 0;
    OptInt nestingLevel;
    int64_t callchainId = 0;
};

struct SyncEvent
{
    TimeNs start = 0;
    TimeNs end = 0;
    OptInt deviceId;
    OptInt contextId;
    OptInt greenContextId;
    int64_t streamId = kNoSyncId;
    OptInt correlationId;
    OptInt globalPid;
    OptInt syncType; // ENUM_CUPTI_SYNC_TYPE id
    int64_t eventId = kNoSyncId;
};

// Which stream a cudaEventRecord recorded an event on (nsys's CUPTI_ACTIVITY_KIND_CUDA_EVENT: no timestamp). A
// stream-wait-event or event sync names the event; this row names the stream and the record call, so a replay
// can tie the waiting stream to the work recorded before the event.
struct CudaEventRecord
{
    OptInt deviceId;
    OptInt contextId;
    int64_t streamId = kNoSyncId;
    OptInt correlationId; // of the cudaEventRecord call
    OptInt globalPid;
    int64_t eventId = kNoSyncId;
};

struct NvtxEvent
{
    TimeNs start = 0;
    std::optional<TimeNs> end; // empty for marks
    int64_t eventType = 59; // ENUM_NSYS_EVENT_TYPE: 34 mark, 59 push/pop range, 60 start/end range
    OptInt rangeId;
    OptInt category;
    OptInt color;
    std::string text;
    // A string the program registered (nvtxDomainRegisterString): stored as textId, as nsys does; other text is
    // stored inline in NVTX_EVENTS.text.
    bool textRegistered = false;
    OptInt globalTid;
    OptInt domainId;
};

struct GpuMemoryEvent
{
    TimeNs start = 0;
    OptInt globalPid;
    OptInt deviceId;
    OptInt contextId;
    OptInt address;
    OptInt pc;
    int64_t bytes = 0;
    OptInt memKind; // ENUM_CUDA_MEM_KIND id
    int64_t memoryOperationType = 0; // 0 allocation, 1 deallocation (nsys ids)
    OptInt correlationId;
    OptInt memoryPoolAddress;
    OptInt memoryPoolReleaseThreshold;
    OptInt memoryPoolSize;
    OptInt memoryPoolUtilizedSize;
};

struct OverheadEvent
{
    TimeNs start = 0;
    TimeNs end = 0;
    OptInt globalTid;
    std::string name;
    OptInt returnValue;
};

struct GpuInfo
{
    int64_t id = 0;
    std::string name;
    std::string busLocation;
    std::string uuid;
    OptInt totalMemory; // bytes
    OptInt memoryBandwidth; // bytes/s
    OptInt clockRate; // Hz
    OptInt smCount;
    OptInt l2CacheSize;
    OptInt computeMajor, computeMinor;
    OptInt maxThreadsPerBlock;
    OptInt maxRegistersPerBlock;
    OptInt maxShmemPerBlock;
    OptInt maxShmemPerBlockOptin;
    OptInt maxShmemPerSm;
    OptInt maxRegistersPerSm;
    OptInt threadsPerWarp;
    OptInt maxWarpsPerSm;
    OptInt asyncEngines;
    std::string chipName;
    OptInt constantMemory;
    OptInt maxBlocksPerSm;
    OptInt maxBlockDimX, maxBlockDimY, maxBlockDimZ;
    OptInt maxGridDimX, maxGridDimY, maxGridDimZ;
    OptInt smMajor, smMinor;
    OptInt isDiscrete; // empty: 1 (every CUDA GPU Placescope records is discrete unless told)
    OptInt vmId; // empty: kLocalVmId
    OptInt cuDevice; // empty: id (an nsys export may number CUDA devices otherwise)
    OptInt pwGpuId, luid, revision, nodeMask, maxIPC; // as an nsys export has them
    std::string ctxswDevPath, ctrlDevPath; // written as '' when unknown, as nsys does
};

// TARGET_INFO_CUDA_CONTEXT_INFO: a CUDA context of a process on a device, with its null (legacy default) stream.
// processId is the plain pid and vmId nsys's machine number (1 locally), as nsys writes them in this table.
struct CudaContextInfo
{
    int64_t nullStreamId = 0;
    int64_t hwId = 0;
    int64_t vmId = 1;
    int64_t processId = 0;
    int64_t deviceId = 0;
    int64_t contextId = 0;
    OptInt parentContextId; // of a green context
    OptInt isGreenContext;
};

// TARGET_INFO_CUDA_STREAM: a CUDA stream as created (priority, flag -> ENUM_CUPTI_STREAM_TYPE).
struct CudaStreamInfo
{
    int64_t streamId = 0;
    int64_t hwId = 0;
    int64_t vmId = 1;
    int64_t processId = 0;
    int64_t contextId = 0;
    int64_t priority = 0;
    int64_t flag = 0;
};

struct ProcessInfo
{
    int64_t globalPid = 0;
    int64_t pid = 0;
    OptInt rank;
    std::string name;
    std::string hostname;
};

struct ThreadInfo
{
    int64_t globalTid = 0;
    int64_t globalPid = 0;
    int64_t tid = 0;
    std::string name;
    OptInt priority; // ThreadNames.priority, as the source recorded it
};

struct FrameworkOp
{
    TimeNs start = 0;
    TimeNs end = 0;
    int64_t globalTid = 0;
    std::string name;
    std::string category; // 'cpu_op', 'user_annotation', 'python_function', 'nvtx'...
    OptInt externalId;
    OptInt sequenceNumber;
    OptInt fwdThreadId;
    OptInt depth;
    std::string inputDims; // JSON text or empty
    std::string inputTypes;
    std::string inputStrides;
    std::string extra;
};

struct ExternalCorrelation
{
    int64_t correlationId = 0;
    int64_t externalId = 0;
    OptInt globalPid;
    int64_t externalKind = 0;
};

struct MemoryEvent
{
    TimeNs start = 0;
    OptInt globalTid;
    int64_t deviceType = 0; // 0 CPU, 1 CUDA
    int64_t deviceId = -1;
    OptInt address;
    int64_t bytes = 0;
    OptInt totalAllocated;
    OptInt totalReserved;
};

struct FlowEvent
{
    int64_t id = 0;
    std::string category;
    TimeNs fromTs = 0;
    OptInt fromGlobalTid, fromDeviceId, fromStreamId;
    TimeNs toTs = 0;
    OptInt toGlobalTid, toDeviceId, toStreamId;
};

struct StepRange
{
    int64_t stepNumber = 0;
    TimeNs start = 0;
    TimeNs end = 0;
    OptInt globalPid;
};

// PS_GPU_ANNOTATIONS: a framework annotation as the GPU ran it (Kineto's gpu_user_annotation), on its stream.
struct GpuAnnotation
{
    TimeNs start = 0;
    TimeNs end = 0;
    int64_t deviceId = 0;
    int64_t streamId = 0;
    std::string name;
    OptInt externalId;
    OptInt globalPid;
};

// PS_COUNTERS: one hardware counter value of one profiled range (Kineto's cuda_profiler_range events: CUPTI range
// profiler metrics per kernel, e.g. smsp__sass_thread_inst_executed_op_fadd_pred_on.sum).
struct CounterSample
{
    TimeNs start = 0;
    TimeNs end = 0;
    OptInt deviceId;
    std::string name; // the range's name (the kernel)
    std::string metric;
    double value = 0;
    OptInt correlationId; // the kernel launch it counts, when known
    OptInt globalPid;
};

// TARGET_INFO_SESSION_START_TIME: the UTC time of the trace clock's zero.
struct SessionStart
{
    int64_t utcEpochNs = 0;
    std::string localTime; // ISO 8601 with offset, when the producer knows it
};

// ANALYSIS_DETAILS: the span a recording covers on the trace clock.
struct AnalysisSpan
{
    int64_t globalVid = kLocalVmId;
    TimeNs startTime = 0;
    TimeNs stopTime = 0;
};

// DIAGNOSTIC_EVENT ids: ENUM_DIAGNOSTIC_SEVERITY_LEVEL, ENUM_DIAGNOSTIC_SOURCE_TYPE, ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE.
struct DiagnosticEvent
{
    TimeNs timestamp = 0;
    int64_t timestampType = 0;
    int64_t source = 0;
    int64_t severity = 0;
    std::string text;
    OptInt globalPid;
};

// TARGET_INFO_SYSTEM_ENV row: a fact about the recording machine under nsys's name (see system_facts.h).
struct SystemFact
{
    std::string name;
    std::string value;
    int64_t globalVid = kLocalVmId;
};

} // namespace placescope
