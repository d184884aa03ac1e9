// SPDX-License-Identifier: MIT
// GPU activity tables of an nsys export: kernels, memcpys, memsets, synchronizations, GPU memory usage.
#include "profiler/importers/nsys_sqlite/nsys_import.h"

#include <utility>

namespace placescope::nsys {

Status NsysImport::importKernels()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("CUPTI_ACTIVITY_KIND_KERNEL",
            { { "start" }, { "end" }, { "deviceId" }, { "contextId" }, { "streamId" }, { "correlationId" },
                { "globalPid" }, { "demangledName", true }, { "shortName", true }, { "gridX" }, { "gridY" },
                { "gridZ" }, { "blockX" }, { "blockY" }, { "blockZ" }, { "registersPerThread" },
                { "staticSharedMemory" }, { "dynamicSharedMemory" }, { "localMemoryPerThread" }, { "localMemoryTotal" },
                { "sharedMemoryExecuted" }, { "launchType" }, { "cacheConfig" }, { "gridId" }, { "graphNodeId" },
                { "greenContextId" }, { "mangledName", true }, { "sharedMemoryLimitConfig" } },
            "start"));
    while (t.next()) {
        PLACESCOPE_RETURN_IF_ERROR(tick());
        if (!validInterval(t.integer(0), t.integer(1), "CUPTI_ACTIVITY_KIND_KERNEL"))
            continue;
        if (!t.integer(2) || !t.integer(4)) {
            m_writer.countProblem(kMissingLane, ProblemSeverity::DataLoss, kMissingLaneHelp, "kernel");
            continue;
        }
        KernelEvent k;
        k.start = *t.integer(0);
        k.end = *t.integer(1);
        k.deviceId = *t.integer(2);
        k.contextId = t.integer(3);
        k.streamId = *t.integer(4);
        k.correlationId = t.integer(5);
        k.globalPid = process(t.integer(6));
        k.demangledName = name(t, 7, "kernel demangledName");
        k.shortName = t.string(8).value_or(std::string());
        if (k.shortName.size())
            m_writer.internString(k.shortName, t.integer(8)); // the export's id, which scripts may hold
        k.greenContextId = t.integer(25);
        k.sharedMemoryLimitConfig = t.integer(27);
        if (auto mangled = t.string(26)) {
            m_writer.internString(*mangled, t.integer(26));
            k.mangledName = std::move(*mangled);
        }
        OptInt* fields[] = { &k.gridX, &k.gridY, &k.gridZ, &k.blockX, &k.blockY, &k.blockZ, &k.registersPerThread,
            &k.staticSharedMemory, &k.dynamicSharedMemory, &k.localMemoryPerThread, &k.localMemoryTotal,
            &k.sharedMemoryExecuted, &k.launchType, &k.cacheConfig, &k.gridId, &k.graphNodeId };
        for (int i = 0; i < 16; ++i)
            *fields[i] = t.integer(9 + i);
        m_writer.add(std::move(k));
    }
    return t.status();
}

Status NsysImport::importMemcpys()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("CUPTI_ACTIVITY_KIND_MEMCPY",
            { { "start" }, { "end" }, { "deviceId" }, { "contextId" }, { "streamId" }, { "correlationId" },
                { "globalPid" }, { "bytes" }, { "copyKind" }, { "srcKind" }, { "dstKind" }, { "srcDeviceId" },
                { "dstDeviceId" }, { "srcContextId" }, { "dstContextId" }, { "graphNodeId" }, { "greenContextId" } },
            "start"));
    while (t.next()) {
        PLACESCOPE_RETURN_IF_ERROR(tick());
        if (!validInterval(t.integer(0), t.integer(1), "CUPTI_ACTIVITY_KIND_MEMCPY"))
            continue;
        if (!t.integer(2) || !t.integer(4)) {
            m_writer.countProblem(kMissingLane, ProblemSeverity::DataLoss, kMissingLaneHelp, "memcpy");
            continue;
        }
        MemcpyEvent m;
        m.start = *t.integer(0);
        m.end = *t.integer(1);
        m.deviceId = *t.integer(2);
        m.contextId = t.integer(3);
        m.streamId = *t.integer(4);
        m.correlationId = t.integer(5);
        m.globalPid = process(t.integer(6));
        m.bytes = t.integer(7).value_or(0);
        m.copyKind = t.integer(8).value_or(0);
        m.srcKind = t.integer(9);
        m.dstKind = t.integer(10);
        m.srcDeviceId = t.integer(11);
        m.dstDeviceId = t.integer(12);
        m.srcContextId = t.integer(13);
        m.dstContextId = t.integer(14);
        m.graphNodeId = t.integer(15);
        m.greenContextId = t.integer(16);
        m_writer.add(std::move(m));
    }
    return t.status();
}

Status NsysImport::importMemsets()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("CUPTI_ACTIVITY_KIND_MEMSET",
            { { "start" }, { "end" }, { "deviceId" }, { "contextId" }, { "streamId" }, { "correlationId" },
                { "globalPid" }, { "value" }, { "bytes" }, { "memKind" }, { "graphNodeId" }, { "greenContextId" } },
            "start"));
    while (t.next()) {
        PLACESCOPE_RETURN_IF_ERROR(tick());
        if (!validInterval(t.integer(0), t.integer(1), "CUPTI_ACTIVITY_KIND_MEMSET"))
            continue;
        if (!t.integer(2) || !t.integer(4)) {
            m_writer.countProblem(kMissingLane, ProblemSeverity::DataLoss, kMissingLaneHelp, "memset");
            continue;
        }
        MemsetEvent m;
        m.start = *t.integer(0);
        m.end = *t.integer(1);
        m.deviceId = *t.integer(2);
        m.contextId = t.integer(3);
        m.streamId = *t.integer(4);
        m.correlationId = t.integer(5);
        m.globalPid = process(t.integer(6));
        m.value = t.integer(7);
        m.bytes = t.integer(8).value_or(0);
        m.memKind = t.integer(9);
        m.graphNodeId = t.integer(10);
        m.greenContextId = t.integer(11);
        m_writer.add(std::move(m));
    }
    return t.status();
}

Status NsysImport::importSyncs()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
            { { "start" }, { "end" }, { "deviceId" }, { "contextId" }, { "streamId" }, { "correlationId" },
                { "globalPid" }, { "syncType" }, { "eventId" }, { "greenContextId" } },
            "start"));
    while (t.next()) {
        PLACESCOPE_RETURN_IF_ERROR(tick());
        if (!validInterval(t.integer(0), t.integer(1), "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"))
            continue;
        SyncEvent s;
        s.start = *t.integer(0);
        s.end = *t.integer(1);
        s.deviceId = t.integer(2);
        s.contextId = t.integer(3);
        // nsys writes the all-ones id for "no stream" (context and device syncs) and "no event"; kept as it is.
        OptInt stream = t.integer(4);
        s.streamId = stream && *stream >= 0 ? *stream : kNoSyncId;
        s.correlationId = t.integer(5);
        s.globalPid = process(t.integer(6));
        s.syncType = t.integer(7);
        OptInt event = t.integer(8);
        s.eventId = event && *event >= 0 ? *event : kNoSyncId;
        s.greenContextId = t.integer(9);
        m_writer.add(std::move(s));
    }
    return t.status();
}

// Which stream each cudaEventRecord recorded on: what ties a stream-wait-event to the work it waits for.
Status NsysImport::importCudaEvents()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("CUPTI_ACTIVITY_KIND_CUDA_EVENT",
            { { "deviceId" }, { "contextId" }, { "streamId" }, { "correlationId" }, { "globalPid" }, { "eventId" } },
            "correlationId"));
    while (t.next()) {
        PLACESCOPE_RETURN_IF_ERROR(tick());
        OptInt stream = t.integer(2);
        OptInt event = t.integer(5);
        if (!stream || *stream < 0 || !event || *event < 0)
            continue; // names no stream or no event: ties nothing
        CudaEventRecord e;
        e.deviceId = t.integer(0);
        e.contextId = t.integer(1);
        e.streamId = *stream;
        e.correlationId = t.integer(3);
        e.globalPid = process(t.integer(4));
        e.eventId = *event;
        m_writer.add(std::move(e));
    }
    return t.status();
}

Status NsysImport::importGpuMemory()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("CUDA_GPU_MEMORY_USAGE_EVENTS",
            { { "start" }, { "globalPid" }, { "deviceId" }, { "contextId" }, { "address" }, { "pc" }, { "bytes" },
                { "memKind" }, { "memoryOperationType" }, { "correlationId" }, { "localMemoryPoolAddress" },
                { "localMemoryPoolReleaseThreshold" }, { "localMemoryPoolSize" }, { "localMemoryPoolUtilizedSize" } },
            "start"));
    while (t.next()) {
        PLACESCOPE_RETURN_IF_ERROR(tick());
        if (!t.integer(0) || !t.integer(6)) {
            m_writer.countProblem("nsys.bad_memory_event", ProblemSeverity::DataLoss,
                "GPU memory usage rows without a time or a size were skipped", "CUDA_GPU_MEMORY_USAGE_EVENTS");
            continue;
        }
        GpuMemoryEvent m;
        m.start = *t.integer(0);
        m.globalPid = process(t.integer(1));
        m.deviceId = t.integer(2);
        m.contextId = t.integer(3);
        m.address = t.integer(4);
        m.pc = t.integer(5);
        m.bytes = *t.integer(6);
        m.memKind = t.integer(7);
        m.memoryOperationType = t.integer(8).value_or(0);
        m.correlationId = t.integer(9);
        m.memoryPoolAddress = t.integer(10);
        m.memoryPoolReleaseThreshold = t.integer(11);
        m.memoryPoolSize = t.integer(12);
        m.memoryPoolUtilizedSize = t.integer(13);
        m_writer.add(std::move(m));
    }
    return t.status();
}

} // namespace placescope::nsys
