// SPDX-License-Identifier: MIT
#include "profiler/capture/record_conversion.h"

#include "profiler/model/cuda_enums.h"

#include <cstdio>
#include <cstdlib>
#include <cxxabi.h>

namespace placescope::capture {
namespace {

TimeNs hostTime(uint64_t cuptiNs, const ConversionContext& context)
{
    return static_cast<TimeNs>(cuptiNs) + context.clockOffsetNs;
}

// CUPTI marks "not applicable" with all-ones ids.
OptInt validId(uint32_t id)
{
    if (id == 0xFFFFFFFFu)
        return std::nullopt;
    return static_cast<int64_t>(id);
}

} // namespace

KernelEvent kernelEvent(const CUpti_ActivityKernel10& r, const ConversionContext& context)
{
    KernelEvent e;
    e.start = hostTime(r.start, context);
    e.end = hostTime(r.end, context);
    e.deviceId = r.deviceId;
    e.contextId = r.contextId;
    e.streamId = r.streamId;
    e.correlationId = r.correlationId;
    e.globalPid = context.globalPid;
    e.demangledName = r.name ? r.name : "";
    e.gridX = r.gridX;
    e.gridY = r.gridY;
    e.gridZ = r.gridZ;
    e.blockX = r.blockX;
    e.blockY = r.blockY;
    e.blockZ = r.blockZ;
    e.registersPerThread = r.registersPerThread;
    e.staticSharedMemory = r.staticSharedMemory;
    e.dynamicSharedMemory = r.dynamicSharedMemory;
    e.localMemoryPerThread = r.localMemoryPerThread;
    e.localMemoryTotal = r.localMemoryTotal_v2;
    e.sharedMemoryExecuted = r.sharedMemoryExecuted;
    // ENUM_CUDA_KERNEL_LAUNCH_TYPE is CUPTI's CUpti_ActivityLaunchType plus one (nsys: 0 Unknown, 1 Regular).
    e.launchType = static_cast<int64_t>(r.launchType) + 1;
    e.cacheConfig = r.cacheConfig.config.executed;
    e.gridId = r.gridId;
    if (r.graphNodeId)
        e.graphNodeId = static_cast<int64_t>(r.graphNodeId);
    return e;
}

MemcpyEvent memcpyEvent(const CUpti_ActivityMemcpy6& r, const ConversionContext& context)
{
    MemcpyEvent e;
    e.start = hostTime(r.start, context);
    e.end = hostTime(r.end, context);
    e.deviceId = r.deviceId;
    e.contextId = r.contextId;
    e.streamId = r.streamId;
    e.correlationId = r.correlationId;
    e.globalPid = context.globalPid;
    e.bytes = static_cast<int64_t>(r.bytes);
    // CUPTI's CUpti_ActivityMemcpyKind ids 0-10 are nsys's ENUM_CUDA_MEMCPY_OPER ids.
    e.copyKind = r.copyKind <= static_cast<int>(CopyKind::PtoP) ? r.copyKind : 0;
    e.srcKind = memKindFromCupti(r.srcKind);
    e.dstKind = memKindFromCupti(r.dstKind);
    if (r.graphNodeId)
        e.graphNodeId = static_cast<int64_t>(r.graphNodeId);
    return e;
}

MemcpyEvent peerMemcpyEvent(const CUpti_ActivityMemcpyPtoP4& r, const ConversionContext& context)
{
    MemcpyEvent e;
    e.start = hostTime(r.start, context);
    e.end = hostTime(r.end, context);
    e.deviceId = r.deviceId;
    e.contextId = r.contextId;
    e.streamId = r.streamId;
    e.correlationId = r.correlationId;
    e.globalPid = context.globalPid;
    e.bytes = static_cast<int64_t>(r.bytes);
    e.copyKind = static_cast<int64_t>(CopyKind::PtoP);
    e.srcKind = memKindFromCupti(r.srcKind);
    e.dstKind = memKindFromCupti(r.dstKind);
    e.srcDeviceId = r.srcDeviceId;
    e.dstDeviceId = r.dstDeviceId;
    e.srcContextId = r.srcContextId;
    e.dstContextId = r.dstContextId;
    if (r.graphNodeId)
        e.graphNodeId = static_cast<int64_t>(r.graphNodeId);
    return e;
}

MemsetEvent memsetEvent(const CUpti_ActivityMemset4& r, const ConversionContext& context)
{
    MemsetEvent e;
    e.start = hostTime(r.start, context);
    e.end = hostTime(r.end, context);
    e.deviceId = r.deviceId;
    e.contextId = r.contextId;
    e.streamId = r.streamId;
    e.correlationId = r.correlationId;
    e.globalPid = context.globalPid;
    e.value = r.value;
    e.bytes = static_cast<int64_t>(r.bytes);
    e.memKind = memKindFromCupti(r.memoryKind);
    if (r.graphNodeId)
        e.graphNodeId = static_cast<int64_t>(r.graphNodeId);
    return e;
}

GpuMemoryEvent gpuMemoryEvent(const CUpti_ActivityMemory4& r, const ConversionContext& context)
{
    GpuMemoryEvent e;
    e.start = hostTime(r.timestamp, context);
    e.globalPid = context.globalPid;
    e.deviceId = validId(r.deviceId);
    e.contextId = validId(r.contextId);
    e.address = static_cast<int64_t>(r.address);
    e.pc = static_cast<int64_t>(r.PC);
    e.bytes = static_cast<int64_t>(r.bytes);
    e.memKind = memKindFromCupti(r.memoryKind);
    e.memoryOperationType = memoryOperationFromCupti(r.memoryOperationType);
    e.correlationId = r.correlationId;
    // Stream-ordered allocations (cudaMallocAsync) come from a pool; a local pool reports its size here.
    if (r.isAsync && r.memoryPoolConfig.memoryPoolType == CUPTI_ACTIVITY_MEMORY_POOL_TYPE_LOCAL) {
        e.memoryPoolAddress = static_cast<int64_t>(r.memoryPoolConfig.address);
        e.memoryPoolReleaseThreshold = static_cast<int64_t>(r.memoryPoolConfig.releaseThreshold);
        e.memoryPoolSize = static_cast<int64_t>(r.memoryPoolConfig.pool.size);
        e.memoryPoolUtilizedSize = static_cast<int64_t>(r.memoryPoolConfig.utilizedSize);
    }
    return e;
}

RuntimeEvent apiEvent(const CUpti_ActivityAPI& r, const ConversionContext& context)
{
    RuntimeEvent e;
    e.start = hostTime(r.start, context);
    e.end = hostTime(r.end, context);
    e.eventClass = r.kind == CUPTI_ACTIVITY_KIND_DRIVER ? ApiClass::Driver : ApiClass::Runtime;
    e.globalTid = makeGlobalTid(r.processId, r.threadId);
    e.correlationId = r.correlationId;
    e.returnValue = r.returnValue;
    return e;
}

SyncEvent syncEvent(const CUpti_ActivitySynchronization2& r, const ConversionContext& context)
{
    SyncEvent e;
    e.start = hostTime(r.start, context);
    e.end = hostTime(r.end, context);
    e.contextId = validId(r.contextId);
    e.streamId = r.streamId; // all ones (kNoSyncId) for "no stream", kept as nsys keeps it
    e.correlationId = r.correlationId;
    e.globalPid = context.globalPid;
    e.syncType = static_cast<int64_t>(r.type); // ENUM_CUPTI_SYNC_TYPE keeps CUPTI's ids
    e.eventId = r.cudaEventId; // likewise for "no event"
    return e;
}

ExternalCorrelation externalCorrelation(const CUpti_ActivityExternalCorrelation& r, const ConversionContext& context)
{
    ExternalCorrelation link;
    link.correlationId = r.correlationId;
    link.externalId = static_cast<int64_t>(r.externalId);
    link.globalPid = context.globalPid;
    link.externalKind = static_cast<int64_t>(r.externalKind);
    return link;
}

OverheadEvent overheadEvent(const CUpti_ActivityOverhead3& r, const ConversionContext& context)
{
    OverheadEvent e;
    e.start = hostTime(r.start, context);
    e.end = hostTime(r.end, context);
    if (r.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || r.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS)
        e.globalTid = makeGlobalTid(
            r.objectId.pt.processId, r.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? r.objectId.pt.threadId : 0);
    e.name = overheadKindName(r.overheadKind);
    return e;
}

GpuInfo gpuInfo(const CUpti_ActivityDevice5& r)
{
    GpuInfo g;
    g.id = r.id;
    g.name = r.name ? r.name : "";
    g.uuid = uuidText(r.uuid);
    g.totalMemory = static_cast<int64_t>(r.globalMemorySize);
    g.memoryBandwidth = static_cast<int64_t>(r.globalMemoryBandwidth) * 1000; // CUPTI: KB/s
    g.clockRate = static_cast<int64_t>(r.coreClockRate) * 1000; // CUPTI: kHz
    g.smCount = r.numMultiprocessors;
    g.l2CacheSize = r.l2CacheSize;
    g.computeMajor = r.computeCapabilityMajor;
    g.computeMinor = r.computeCapabilityMinor;
    g.maxThreadsPerBlock = r.maxThreadsPerBlock;
    g.maxRegistersPerBlock = r.maxRegistersPerBlock;
    g.maxShmemPerBlock = r.maxSharedMemoryPerBlock;
    g.maxShmemPerSm = r.maxSharedMemoryPerMultiprocessor;
    g.maxRegistersPerSm = r.maxRegistersPerMultiprocessor;
    g.threadsPerWarp = r.numThreadsPerWarp;
    g.maxWarpsPerSm = r.maxWarpsPerMultiprocessor;
    g.asyncEngines = r.numMemcpyEngines;
    g.maxBlocksPerSm = r.maxBlocksPerMultiprocessor;
    g.maxIPC = r.maxIPC;
    g.maxBlockDimX = r.maxBlockDimX;
    g.maxBlockDimY = r.maxBlockDimY;
    g.maxBlockDimZ = r.maxBlockDimZ;
    g.maxGridDimX = r.maxGridDimX;
    g.maxGridDimY = r.maxGridDimY;
    g.maxGridDimZ = r.maxGridDimZ;
    return g;
}

std::string overheadKindName(CUpti_ActivityOverheadKind kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
        return "Driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
        return "CUPTI buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
        return "CUPTI instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
        return "CUPTI resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
        return "Runtime-triggered module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
        return "Lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
        return "Command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
        return "CUPTI activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
        return "UVM activity init";
    default:
        return "Unknown overhead " + std::to_string(static_cast<int64_t>(kind));
    }
}

std::string uuidText(const CUuuid& uuid)
{
    std::string text;
    char hex[3];
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            text += '-';
        std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
        text += hex;
    }
    return text;
}

std::string demangleKernelName(const char* mangled)
{
    if (!mangled)
        return {};
    int status = 0;
    char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    if (status != 0 || !demangled)
        return mangled;
    std::string text(demangled);
    std::free(demangled);
    return text;
}

} // namespace placescope::capture
