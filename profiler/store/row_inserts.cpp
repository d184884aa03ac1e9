// SPDX-License-Identifier: MIT
#include "profiler/store/row_inserts.h"

#include "profiler/store/sqlite_bind.h"
#include "profiler/store/trace_indexes_sql.h"

namespace placescope {
namespace {

// Each table's "INSERT INTO t (columns)" and its row of values, in the order the bind functions below bind them.
constexpr const char* kKernelInsert
    = "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId,"
      " greenContextId, streamId, correlationId, globalPid, demangledName, shortName, mangledName, gridX, gridY, gridZ,"
      " blockX, blockY, blockZ, registersPerThread, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread,"
      " localMemoryTotal, sharedMemoryExecuted, launchType, cacheConfig, gridId, graphNodeId, sharedMemoryLimitConfig)";
constexpr const char* kKernelValues = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kMemcpyInsert = "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId,"
                                      " greenContextId, streamId, correlationId, globalPid, bytes, copyKind, srcKind, "
                                      "dstKind, srcDeviceId, dstDeviceId, srcContextId,"
                                      " dstContextId, graphNodeId)";
constexpr const char* kMemcpyValues = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kMemsetInsert
    = "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId,"
      " greenContextId, streamId, correlationId, globalPid, value, bytes, memKind, graphNodeId)";
constexpr const char* kMemsetValues = "(?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kRuntimeInsert = "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,"
                                       " correlationId, nameId, returnValue)";
constexpr const char* kRuntimeValues = "(?,?,?,?,?,?,?)";
constexpr const char* kSyncInsert
    = "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId,"
      " contextId, greenContextId, streamId, correlationId, globalPid, syncType, eventId)";
constexpr const char* kSyncValues = "(?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kCudaEventInsert = "INSERT INTO CUPTI_ACTIVITY_KIND_CUDA_EVENT (deviceId, contextId,"
                                         " streamId, correlationId, globalPid, eventId)";
constexpr const char* kCudaEventValues = "(?,?,?,?,?,?)";
constexpr const char* kNvtxInsert = "INSERT INTO NVTX_EVENTS (start, end, eventType, rangeId, category, color, text,"
                                    " globalTid, endGlobalTid, textId, domainId)";
constexpr const char* kNvtxValues = "(?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kGpuMemoryInsert
    = "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId,"
      " contextId, address, pc, bytes, memKind, memoryOperationType, correlationId, localMemoryPoolAddress,"
      " localMemoryPoolReleaseThreshold, localMemoryPoolSize, localMemoryPoolUtilizedSize)";
constexpr const char* kGpuMemoryValues = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kOverheadInsert = "INSERT INTO PROFILER_OVERHEAD (start, end, globalTid, nameId, returnValue)";
constexpr const char* kOverheadValues = "(?,?,?,?,?)";
constexpr const char* kGpuInsert
    = "INSERT INTO TARGET_INFO_GPU (id, name, busLocation, uuid, totalMemory,"
      " memoryBandwidth, clockRate, smCount, l2CacheSize, computeMajor, computeMinor, maxThreadsPerBlock,"
      " maxRegistersPerBlock, maxShmemPerBlock, maxShmemPerBlockOptin, maxShmemPerSm, maxRegistersPerSm,"
      " threadsPerWarp, maxWarpsPerSm, asyncEngines, isDiscrete, cuDevice, vmId, chipName, constantMemory,"
      " maxBlocksPerSm, maxBlockDimX, maxBlockDimY, maxBlockDimZ, maxGridDimX, maxGridDimY, maxGridDimZ, smMajor,"
      " smMinor, pwGpuId, luid, revision, nodeMask, maxIPC, ctxswDevPath, ctrlDevPath)";
constexpr const char* kGpuValues
    = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kProcessInsert = "INSERT OR REPLACE INTO PS_PROCESSES (globalPid, pid, rank, name, hostname)";
constexpr const char* kProcessValues = "(?,?,?,?,?)";
constexpr const char* kThreadInsert = "INSERT OR REPLACE INTO PS_THREADS (globalTid, globalPid, tid, name)";
constexpr const char* kThreadValues = "(?,?,?,?)";
constexpr const char* kThreadNameInsert = "INSERT INTO ThreadNames (nameId, priority, globalTid)";
constexpr const char* kThreadNameValues = "(?,?,?)";
constexpr const char* kOsRuntimeInsert = "INSERT INTO OSRT_API (start, end, eventClass, globalTid, nameId,"
                                         " returnValue, nestingLevel, callchainId)";
constexpr const char* kOsRuntimeValues = "(?,?,?,?,?,?,?,?)";
constexpr const char* kCudaContextInsert = "INSERT INTO TARGET_INFO_CUDA_CONTEXT_INFO (nullStreamId, hwId, vmId,"
                                           " processId, deviceId, contextId, parentContextId, isGreenContext)";
constexpr const char* kCudaContextValues = "(?,?,?,?,?,?,?,?)";
constexpr const char* kCudaStreamInsert = "INSERT INTO TARGET_INFO_CUDA_STREAM (streamId, hwId, vmId, processId,"
                                          " contextId, priority, flag)";
constexpr const char* kCudaStreamValues = "(?,?,?,?,?,?,?)";
constexpr const char* kNsysProcessInsert = "INSERT INTO PROCESSES (globalPid, pid, name)";
constexpr const char* kNsysProcessValues = "(?,?,?)";
constexpr const char* kDiagnosticInsert = "INSERT INTO DIAGNOSTIC_EVENT (timestamp, timestampType, source, severity,"
                                          " text, globalPid)";
constexpr const char* kDiagnosticValues = "(?,?,?,?,?,?)";
constexpr const char* kSystemFactInsert = "INSERT INTO TARGET_INFO_SYSTEM_ENV (globalVid, devStateName, name, nameEnum,"
                                          " value)";
constexpr const char* kSystemFactValues = "(?,'Local',?,?,?)";
constexpr const char* kGpuAnnotationInsert = "INSERT INTO PS_GPU_ANNOTATIONS (start, end, deviceId, streamId, nameId,"
                                             " externalId, globalPid)";
constexpr const char* kGpuAnnotationValues = "(?,?,?,?,?,?,?)";
constexpr const char* kCounterInsert = "INSERT INTO PS_COUNTERS (start, end, deviceId, nameId, metric, value,"
                                       " correlationId, globalPid)";
constexpr const char* kCounterValues = "(?,?,?,?,?,?,?,?)";
constexpr const char* kOpInsert
    = "INSERT INTO PS_FRAMEWORK_OPS (start, end, globalTid, nameId, category,"
      " externalId, sequenceNumber, fwdThreadId, depth, inputDims, inputTypes, inputStrides, extra)";
constexpr const char* kOpValues = "(?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kExternalCorrelationInsert = "INSERT INTO PS_EXTERNAL_CORRELATION (correlationId, externalId,"
                                                   " globalPid, externalKind)";
constexpr const char* kExternalCorrelationValues = "(?,?,?,?)";
constexpr const char* kMemoryInsert = "INSERT INTO PS_MEMORY_EVENTS (start, globalTid, deviceType, deviceId,"
                                      " address, bytes, totalAllocated, totalReserved)";
constexpr const char* kMemoryValues = "(?,?,?,?,?,?,?,?)";
constexpr const char* kFlowInsert = "INSERT INTO PS_FLOWS (id, category, fromTs, fromGlobalTid, fromDeviceId,"
                                    " fromStreamId, toTs, toGlobalTid, toDeviceId, toStreamId)";
constexpr const char* kFlowValues = "(?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kStepInsert = "INSERT INTO PS_STEPS (stepNumber, start, end, globalPid)";
constexpr const char* kStepValues = "(?,?,?,?)";
constexpr const char* kStringInsert = "INSERT INTO StringIds (id, value)";
constexpr const char* kStringValues = "(?,?)";

void bindKernel(SqliteStatement& s, int first, const KernelRow& row)
{
    const KernelEvent& e = row.event;
    bindFrom(s, first, e.start, e.end, e.deviceId, e.contextId, e.greenContextId, e.streamId, e.correlationId,
        e.globalPid, row.nameId, row.shortId, row.mangledId, e.gridX, e.gridY, e.gridZ, e.blockX, e.blockY, e.blockZ,
        e.registersPerThread, e.staticSharedMemory, e.dynamicSharedMemory, e.localMemoryPerThread, e.localMemoryTotal,
        e.sharedMemoryExecuted, e.launchType, e.cacheConfig, e.gridId, e.graphNodeId, e.sharedMemoryLimitConfig);
}
void bindMemcpy(SqliteStatement& s, int first, const MemcpyEvent& e)
{
    bindFrom(s, first, e.start, e.end, e.deviceId, e.contextId, e.greenContextId, e.streamId, e.correlationId,
        e.globalPid, e.bytes, e.copyKind, e.srcKind, e.dstKind, e.srcDeviceId, e.dstDeviceId, e.srcContextId,
        e.dstContextId, e.graphNodeId);
}
void bindMemset(SqliteStatement& s, int first, const MemsetEvent& e)
{
    bindFrom(s, first, e.start, e.end, e.deviceId, e.contextId, e.greenContextId, e.streamId, e.correlationId,
        e.globalPid, e.value, e.bytes, e.memKind, e.graphNodeId);
}
void bindRuntime(SqliteStatement& s, int first, const RuntimeRow& row)
{
    const RuntimeEvent& e = row.event;
    bindFrom(s, first, e.start, e.end, static_cast<int64_t>(e.eventClass), e.globalTid, e.correlationId, row.nameId,
        e.returnValue);
}
void bindSync(SqliteStatement& s, int first, const SyncEvent& e)
{
    bindFrom(s, first, e.start, e.end, e.deviceId, e.contextId, e.greenContextId, e.streamId, e.correlationId,
        e.globalPid, e.syncType, e.eventId);
}
void bindCudaEvent(SqliteStatement& s, int first, const CudaEventRecord& e)
{
    bindFrom(s, first, e.deviceId, e.contextId, e.streamId, e.correlationId, e.globalPid, e.eventId);
}
void bindNvtx(SqliteStatement& s, int first, const NvtxRow& row)
{
    const NvtxEvent& e = row.event;
    bindFrom(s, first, e.start, OptInt(e.end), e.eventType, e.rangeId, e.category, e.color, e.text, e.globalTid,
        e.globalTid, row.textId, e.domainId);
}
void bindGpuMemory(SqliteStatement& s, int first, const GpuMemoryEvent& e)
{
    bindFrom(s, first, e.start, e.globalPid, e.deviceId, e.contextId, e.address, e.pc, e.bytes, e.memKind,
        e.memoryOperationType, e.correlationId, e.memoryPoolAddress, e.memoryPoolReleaseThreshold, e.memoryPoolSize,
        e.memoryPoolUtilizedSize);
}
void bindOverhead(SqliteStatement& s, int first, const OverheadRow& row)
{
    bindFrom(s, first, row.event.start, row.event.end, row.event.globalTid, row.nameId, row.event.returnValue);
}
void bindGpu(SqliteStatement& s, int first, const GpuInfo& g)
{
    bindFrom(s, first, g.id, g.name, g.busLocation, g.uuid, g.totalMemory, g.memoryBandwidth, g.clockRate, g.smCount,
        g.l2CacheSize, g.computeMajor, g.computeMinor, g.maxThreadsPerBlock, g.maxRegistersPerBlock, g.maxShmemPerBlock,
        g.maxShmemPerBlockOptin, g.maxShmemPerSm, g.maxRegistersPerSm, g.threadsPerWarp, g.maxWarpsPerSm,
        g.asyncEngines, g.isDiscrete.value_or(1), g.cuDevice.value_or(g.id), g.vmId.value_or(kLocalVmId), g.chipName,
        g.constantMemory, g.maxBlocksPerSm, g.maxBlockDimX, g.maxBlockDimY, g.maxBlockDimZ, g.maxGridDimX,
        g.maxGridDimY, g.maxGridDimZ, g.smMajor, g.smMinor, g.pwGpuId, g.luid, g.revision, g.nodeMask, g.maxIPC,
        std::string_view(g.ctxswDevPath), std::string_view(g.ctrlDevPath));
}
void bindProcess(SqliteStatement& s, int first, const ProcessInfo& p)
{
    bindFrom(s, first, p.globalPid, p.pid, p.rank, p.name, p.hostname);
}
void bindThread(SqliteStatement& s, int first, const ThreadInfo& t)
{
    bindFrom(s, first, t.globalTid, t.globalPid, t.tid, t.name);
}
void bindThreadName(SqliteStatement& s, int first, const ThreadNameRow& row)
{
    bindFrom(s, first, row.nameId, row.priority, row.globalTid);
}
void bindNsysProcess(SqliteStatement& s, int first, const ProcessInfo& p)
{
    bindFrom(s, first, p.globalPid, p.pid, p.name);
}
void bindOsRuntime(SqliteStatement& s, int first, const OsRuntimeRow& row)
{
    const OsRuntimeCall& e = row.event;
    bindFrom(
        s, first, e.start, e.end, e.eventClass, e.globalTid, row.nameId, e.returnValue, e.nestingLevel, e.callchainId);
}
void bindCudaContext(SqliteStatement& s, int first, const CudaContextInfo& c)
{
    bindFrom(s, first, c.nullStreamId, c.hwId, c.vmId, c.processId, c.deviceId, c.contextId, c.parentContextId,
        c.isGreenContext);
}
void bindCudaStream(SqliteStatement& s, int first, const CudaStreamInfo& c)
{
    bindFrom(s, first, c.streamId, c.hwId, c.vmId, c.processId, c.contextId, c.priority, c.flag);
}
void bindDiagnostic(SqliteStatement& s, int first, const DiagnosticEvent& d)
{
    bindFrom(s, first, d.timestamp, d.timestampType, d.source, d.severity, d.text, d.globalPid);
}
void bindCounter(SqliteStatement& s, int first, const CounterRow& row)
{
    const CounterSample& c = row.sample;
    bindFrom(s, first, c.start, c.end, c.deviceId, row.nameId, c.metric);
    s.bind(first + 5, c.value);
    bindFrom(s, first + 6, c.correlationId, c.globalPid);
}
void bindGpuAnnotation(SqliteStatement& s, int first, const GpuAnnotationRow& row)
{
    const GpuAnnotation& a = row.annotation;
    bindFrom(s, first, a.start, a.end, a.deviceId, a.streamId, row.nameId, a.externalId, a.globalPid);
}
void bindSystemFact(SqliteStatement& s, int first, const SystemFactRow& row)
{
    bindFrom(s, first, row.fact.globalVid, row.fact.name, row.nameEnum, row.fact.value);
}
void bindOp(SqliteStatement& s, int first, const OpRow& row)
{
    const FrameworkOp& op = row.op;
    bindFrom(s, first, op.start, op.end, op.globalTid, row.nameId, op.category, op.externalId, op.sequenceNumber,
        op.fwdThreadId, op.depth, op.inputDims, op.inputTypes, op.inputStrides, op.extra);
}
void bindExternalCorrelation(SqliteStatement& s, int first, const ExternalCorrelation& link)
{
    bindFrom(s, first, link.correlationId, link.externalId, link.globalPid, link.externalKind);
}
void bindMemory(SqliteStatement& s, int first, const MemoryEvent& e)
{
    bindFrom(s, first, e.start, e.globalTid, e.deviceType, e.deviceId, e.address, e.bytes, e.totalAllocated,
        e.totalReserved);
}
void bindFlow(SqliteStatement& s, int first, const FlowEvent& f)
{
    bindFrom(s, first, f.id, f.category, f.fromTs, f.fromGlobalTid, f.fromDeviceId, f.fromStreamId, f.toTs,
        f.toGlobalTid, f.toDeviceId, f.toStreamId);
}
void bindStep(SqliteStatement& s, int first, const StepRange& step)
{
    bindFrom(s, first, step.stepNumber, step.start, step.end, step.globalPid);
}
// An empty string is '' here, not NULL as bindFrom binds it elsewhere: StringIds.value is NOT NULL, and an export's
// empty string (nsys keeps one) failed the whole import.
void bindString(SqliteStatement& s, int first, const StringRow& row)
{
    s.bind(first, row.id);
    s.bindBorrowed(first + 1, row.value.empty() ? std::string_view("") : std::string_view(row.value));
}

} // namespace

RowInserts::RowInserts()
    : indexer(kTraceIndexesSql)
{ }

Status RowInserts::flush()
{
    Status first;
    forEach([&first](auto& table) {
        Status status = table.flush();
        if (first.isOk())
            first = status;
    });
    return first;
}

void RowInserts::close()
{
    forEach([](auto& table) { table.close(); });
    indexer.close();
}

void RowInserts::define(SqliteDb& db)
{
    kernels.define(db, kKernelInsert, kKernelValues, bindKernel);
    memcpys.define(db, kMemcpyInsert, kMemcpyValues, bindMemcpy);
    memsets.define(db, kMemsetInsert, kMemsetValues, bindMemset);
    runtime.define(db, kRuntimeInsert, kRuntimeValues, bindRuntime);
    syncs.define(db, kSyncInsert, kSyncValues, bindSync);
    cudaEvents.define(db, kCudaEventInsert, kCudaEventValues, bindCudaEvent);
    nvtx.define(db, kNvtxInsert, kNvtxValues, bindNvtx);
    gpuMemory.define(db, kGpuMemoryInsert, kGpuMemoryValues, bindGpuMemory);
    overhead.define(db, kOverheadInsert, kOverheadValues, bindOverhead);
    gpus.define(db, kGpuInsert, kGpuValues, bindGpu);
    processes.define(db, kProcessInsert, kProcessValues, bindProcess);
    threads.define(db, kThreadInsert, kThreadValues, bindThread);
    threadNames.define(db, kThreadNameInsert, kThreadNameValues, bindThreadName);
    nsysProcesses.define(db, kNsysProcessInsert, kNsysProcessValues, bindNsysProcess);
    diagnostics.define(db, kDiagnosticInsert, kDiagnosticValues, bindDiagnostic);
    systemFacts.define(db, kSystemFactInsert, kSystemFactValues, bindSystemFact);
    osRuntime.define(db, kOsRuntimeInsert, kOsRuntimeValues, bindOsRuntime);
    cudaContexts.define(db, kCudaContextInsert, kCudaContextValues, bindCudaContext);
    cudaStreams.define(db, kCudaStreamInsert, kCudaStreamValues, bindCudaStream);
    gpuAnnotations.define(db, kGpuAnnotationInsert, kGpuAnnotationValues, bindGpuAnnotation);
    counters.define(db, kCounterInsert, kCounterValues, bindCounter);
    ops.define(db, kOpInsert, kOpValues, bindOp);
    externalCorrelations.define(db, kExternalCorrelationInsert, kExternalCorrelationValues, bindExternalCorrelation);
    memory.define(db, kMemoryInsert, kMemoryValues, bindMemory);
    flows.define(db, kFlowInsert, kFlowValues, bindFlow);
    steps.define(db, kStepInsert, kStepValues, bindStep);
    strings.define(db, kStringInsert, kStringValues, bindString);
}

} // namespace placescope
