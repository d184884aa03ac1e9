// SPDX-License-Identifier: MIT
#include "profiler/store/trace_writer.h"

#include "profiler/model/cuda_enums.h"
#include "profiler/store/batched_insert.h"
#include "profiler/store/early_indexer.h"
#include "profiler/store/ordered_worker.h"
#include "profiler/store/trace_indexes_sql.h"
#include "profiler/store/trace_schema_sql.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>

namespace placescope {
namespace {

// Each table's "INSERT INTO t (columns)" and its row of values, in the order the bind functions below bind them.
constexpr const char* kKernelInsert = "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId,"
    " streamId, correlationId, globalPid, demangledName, shortName, gridX, gridY, gridZ, blockX, blockY, blockZ,"
    " registersPerThread, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal,"
    " sharedMemoryExecuted, launchType, cacheConfig, gridId, graphNodeId)";
constexpr const char* kKernelValues = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kMemcpyInsert = "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId,"
    " streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind, srcDeviceId, dstDeviceId, srcContextId,"
    " dstContextId, graphNodeId)";
constexpr const char* kMemcpyValues = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kMemsetInsert = "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId,"
    " streamId, correlationId, globalPid, value, bytes, memKind, graphNodeId)";
constexpr const char* kMemsetValues = "(?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kRuntimeInsert = "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,"
    " correlationId, nameId, returnValue)";
constexpr const char* kRuntimeValues = "(?,?,?,?,?,?,?)";
constexpr const char* kSyncInsert = "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId,"
    " contextId, streamId, correlationId, globalPid, syncType, eventId)";
constexpr const char* kSyncValues = "(?,?,?,?,?,?,?,?,?)";
constexpr const char* kNvtxInsert = "INSERT INTO NVTX_EVENTS (start, end, eventType, rangeId, category, color, text,"
    " globalTid, endGlobalTid, textId, domainId)";
constexpr const char* kNvtxValues = "(?,?,?,?,?,?,NULL,?,?,?,?)";
constexpr const char* kGpuMemoryInsert = "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId,"
    " contextId, address, pc, bytes, memKind, memoryOperationType, correlationId, localMemoryPoolAddress,"
    " localMemoryPoolReleaseThreshold, localMemoryPoolSize, localMemoryPoolUtilizedSize)";
constexpr const char* kGpuMemoryValues = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr const char* kOverheadInsert = "INSERT INTO PROFILER_OVERHEAD (start, end, globalTid, nameId)";
constexpr const char* kOverheadValues = "(?,?,?,?)";
constexpr const char* kGpuInsert = "INSERT INTO TARGET_INFO_GPU (id, name, busLocation, uuid, totalMemory,"
    " memoryBandwidth, clockRate, smCount, l2CacheSize, computeMajor, computeMinor, maxThreadsPerBlock,"
    " maxRegistersPerBlock, maxShmemPerBlock, maxShmemPerBlockOptin, maxShmemPerSm, maxRegistersPerSm,"
    " threadsPerWarp, maxWarpsPerSm, asyncEngines, isDiscrete, cuDevice)";
constexpr const char* kGpuValues = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,1,?)";
constexpr const char* kProcessInsert = "INSERT OR REPLACE INTO PS_PROCESSES (globalPid, pid, rank, name, hostname)";
constexpr const char* kProcessValues = "(?,?,?,?,?)";
constexpr const char* kThreadInsert = "INSERT OR REPLACE INTO PS_THREADS (globalTid, globalPid, tid, name)";
constexpr const char* kThreadValues = "(?,?,?,?)";
constexpr const char* kThreadNameInsert = "INSERT INTO ThreadNames (nameId, priority, globalTid)";
constexpr const char* kThreadNameValues = "(?,0,?)";
constexpr const char* kOpInsert = "INSERT INTO PS_FRAMEWORK_OPS (start, end, globalTid, nameId, category,"
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

// Binds arguments to ?first, ?first+1, ... in order. Empty strings bind NULL (optional text columns).
// A std::string is bound in place: every caller executes the statement while the string it bound lives (rows
// wait in their BatchedInsert until their statement runs). Other text is copied.
void bindAt(SqliteStatement& stmt, int index, int64_t value) { stmt.bind(index, value); }
void bindAt(SqliteStatement& stmt, int index, const OptInt& value) { stmt.bind(index, value); }
void bindAt(SqliteStatement& stmt, int index, const std::string& value)
{
    if (value.empty())
        stmt.bindNull(index);
    else
        stmt.bindBorrowed(index, value);
}
void bindAt(SqliteStatement& stmt, int index, std::string_view value) { stmt.bind(index, value); }
void bindAt(SqliteStatement& stmt, int index, const char* value) { stmt.bind(index, std::string_view(value)); }

template <typename... Args>
void bindFrom(SqliteStatement& stmt, int first, const Args&... args)
{
    int index = first;
    (bindAt(stmt, index++, args), ...);
}

// Rows whose names were interned on the caller's thread carry the string ids instead of the text.
struct KernelRow
{
    KernelEvent event;
    int64_t nameId = 0;
    int64_t shortId = 0;
};
struct RuntimeRow
{
    RuntimeEvent event;
    int64_t nameId = 0;
};
struct NvtxRow
{
    NvtxEvent event;
    int64_t textId = 0;
};
struct OverheadRow
{
    OverheadEvent event;
    int64_t nameId = 0;
};
struct OpRow
{
    FrameworkOp op;
    int64_t nameId = 0;
};
struct ThreadNameRow
{
    int64_t nameId = 0;
    int64_t globalTid = 0;
};
struct StringRow
{
    int64_t id = 0;
    std::string value;
};

void bindKernel(SqliteStatement& s, int first, const KernelRow& row)
{
    const KernelEvent& e = row.event;
    bindFrom(s, first, e.start, e.end, e.deviceId, e.contextId, e.streamId, e.correlationId, e.globalPid, row.nameId,
             row.shortId, e.gridX, e.gridY, e.gridZ, e.blockX, e.blockY, e.blockZ, e.registersPerThread,
             e.staticSharedMemory, e.dynamicSharedMemory, e.localMemoryPerThread, e.localMemoryTotal,
             e.sharedMemoryExecuted, e.launchType, e.cacheConfig, e.gridId, e.graphNodeId);
}
void bindMemcpy(SqliteStatement& s, int first, const MemcpyEvent& e)
{
    bindFrom(s, first, e.start, e.end, e.deviceId, e.contextId, e.streamId, e.correlationId, e.globalPid, e.bytes,
             e.copyKind, e.srcKind, e.dstKind, e.srcDeviceId, e.dstDeviceId, e.srcContextId, e.dstContextId,
             e.graphNodeId);
}
void bindMemset(SqliteStatement& s, int first, const MemsetEvent& e)
{
    bindFrom(s, first, e.start, e.end, e.deviceId, e.contextId, e.streamId, e.correlationId, e.globalPid, e.value,
             e.bytes, e.memKind, e.graphNodeId);
}
void bindRuntime(SqliteStatement& s, int first, const RuntimeRow& row)
{
    const RuntimeEvent& e = row.event;
    bindFrom(s, first, e.start, e.end, static_cast<int64_t>(e.eventClass), e.globalTid, e.correlationId, row.nameId,
             e.returnValue);
}
void bindSync(SqliteStatement& s, int first, const SyncEvent& e)
{
    bindFrom(s, first, e.start, e.end, e.deviceId, e.contextId, e.streamId, e.correlationId, e.globalPid, e.syncType,
             e.eventId);
}
void bindNvtx(SqliteStatement& s, int first, const NvtxRow& row)
{
    const NvtxEvent& e = row.event;
    bindFrom(s, first, e.start, OptInt(e.end), e.eventType, e.rangeId, e.category, e.color, e.globalTid, e.globalTid,
             row.textId, e.domainId);
}
void bindGpuMemory(SqliteStatement& s, int first, const GpuMemoryEvent& e)
{
    bindFrom(s, first, e.start, e.globalPid, e.deviceId, e.contextId, e.address, e.pc, e.bytes, e.memKind,
             e.memoryOperationType, e.correlationId, e.memoryPoolAddress, e.memoryPoolReleaseThreshold,
             e.memoryPoolSize, e.memoryPoolUtilizedSize);
}
void bindOverhead(SqliteStatement& s, int first, const OverheadRow& row)
{
    bindFrom(s, first, row.event.start, row.event.end, row.event.globalTid, row.nameId);
}
void bindGpu(SqliteStatement& s, int first, const GpuInfo& g)
{
    bindFrom(s, first, g.id, g.name, g.busLocation, g.uuid, g.totalMemory, g.memoryBandwidth, g.clockRate, g.smCount,
             g.l2CacheSize, g.computeMajor, g.computeMinor, g.maxThreadsPerBlock, g.maxRegistersPerBlock,
             g.maxShmemPerBlock, g.maxShmemPerBlockOptin, g.maxShmemPerSm, g.maxRegistersPerSm, g.threadsPerWarp,
             g.maxWarpsPerSm, g.asyncEngines, g.id);
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
    bindFrom(s, first, row.nameId, row.globalTid);
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
void bindString(SqliteStatement& s, int first, const StringRow& row) { bindFrom(s, first, row.id, row.value); }

// Kernel names as nsys's shortName: the function name without return type, namespace-free template args
// and parameters ("void at::native::foo<float>(int)" -> "foo").
std::string shortKernelName(std::string_view name)
{
    size_t paren = std::string_view::npos;
    int angle = 0;
    for (size_t i = 0; i < name.size(); ++i) {
        char c = name[i];
        if (c == '<')
            ++angle;
        else if (c == '>' && angle > 0)
            --angle;
        else if (c == '(' && angle == 0) {
            paren = i;
            break;
        }
    }
    std::string_view head = name.substr(0, paren);
    // Strip template arguments at the end of the function name.
    if (!head.empty() && head.back() == '>') {
        int depth = 0;
        for (size_t i = head.size(); i-- > 0;) {
            if (head[i] == '>')
                ++depth;
            else if (head[i] == '<' && --depth == 0) {
                head = head.substr(0, i);
                break;
            }
        }
    }
    size_t start = head.find_last_of(": ");
    std::string_view result = start == std::string_view::npos ? head : head.substr(start + 1);
    return std::string(result.empty() ? name : result);
}

std::string utcNowIso8601()
{
    std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc {};
    gmtime_r(&now, &utc);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buffer;
}

} // namespace

// One batched insert per table. Declared here, not in the header, because its row types are the writer's own.
struct TraceWriter::RowInserts
{
    BatchedInsert<KernelRow> kernels;
    BatchedInsert<MemcpyEvent> memcpys;
    BatchedInsert<MemsetEvent> memsets;
    BatchedInsert<RuntimeRow> runtime;
    BatchedInsert<SyncEvent> syncs;
    BatchedInsert<NvtxRow> nvtx;
    BatchedInsert<GpuMemoryEvent> gpuMemory;
    BatchedInsert<OverheadRow> overhead;
    BatchedInsert<GpuInfo> gpus;
    BatchedInsert<ProcessInfo> processes;
    BatchedInsert<ThreadInfo> threads;
    BatchedInsert<ThreadNameRow> threadNames;
    BatchedInsert<OpRow> ops;
    BatchedInsert<ExternalCorrelation> externalCorrelations;
    BatchedInsert<MemoryEvent> memory;
    BatchedInsert<FlowEvent> flows;
    BatchedInsert<StepRange> steps;
    BatchedInsert<StringRow> strings;
    EarlyIndexer indexer { kTraceIndexesSql };

    Status prepare(SqliteDb& db)
    {
        PLACESCOPE_RETURN_IF_ERROR(kernels.prepare(db, kKernelInsert, kKernelValues, bindKernel));
        PLACESCOPE_RETURN_IF_ERROR(memcpys.prepare(db, kMemcpyInsert, kMemcpyValues, bindMemcpy));
        PLACESCOPE_RETURN_IF_ERROR(memsets.prepare(db, kMemsetInsert, kMemsetValues, bindMemset));
        PLACESCOPE_RETURN_IF_ERROR(runtime.prepare(db, kRuntimeInsert, kRuntimeValues, bindRuntime));
        PLACESCOPE_RETURN_IF_ERROR(syncs.prepare(db, kSyncInsert, kSyncValues, bindSync));
        PLACESCOPE_RETURN_IF_ERROR(nvtx.prepare(db, kNvtxInsert, kNvtxValues, bindNvtx));
        PLACESCOPE_RETURN_IF_ERROR(gpuMemory.prepare(db, kGpuMemoryInsert, kGpuMemoryValues, bindGpuMemory));
        PLACESCOPE_RETURN_IF_ERROR(overhead.prepare(db, kOverheadInsert, kOverheadValues, bindOverhead));
        PLACESCOPE_RETURN_IF_ERROR(gpus.prepare(db, kGpuInsert, kGpuValues, bindGpu));
        PLACESCOPE_RETURN_IF_ERROR(processes.prepare(db, kProcessInsert, kProcessValues, bindProcess));
        PLACESCOPE_RETURN_IF_ERROR(threads.prepare(db, kThreadInsert, kThreadValues, bindThread));
        PLACESCOPE_RETURN_IF_ERROR(threadNames.prepare(db, kThreadNameInsert, kThreadNameValues, bindThreadName));
        PLACESCOPE_RETURN_IF_ERROR(ops.prepare(db, kOpInsert, kOpValues, bindOp));
        PLACESCOPE_RETURN_IF_ERROR(externalCorrelations.prepare(db, kExternalCorrelationInsert,
                                                                kExternalCorrelationValues, bindExternalCorrelation));
        PLACESCOPE_RETURN_IF_ERROR(memory.prepare(db, kMemoryInsert, kMemoryValues, bindMemory));
        PLACESCOPE_RETURN_IF_ERROR(flows.prepare(db, kFlowInsert, kFlowValues, bindFlow));
        PLACESCOPE_RETURN_IF_ERROR(steps.prepare(db, kStepInsert, kStepValues, bindStep));
        return strings.prepare(db, kStringInsert, kStringValues, bindString);
    }

    template <typename Visit>
    void forEach(Visit visit)
    {
        visit(kernels), visit(memcpys), visit(memsets), visit(runtime), visit(syncs), visit(nvtx), visit(gpuMemory),
            visit(overhead), visit(gpus), visit(processes), visit(threads), visit(threadNames), visit(ops),
            visit(externalCorrelations), visit(memory), visit(flows), visit(steps), visit(strings);
    }

    Status flush()
    {
        Status first;
        forEach([&first](auto& table) {
            Status status = table.flush();
            if (first.isOk())
                first = status;
        });
        return first;
    }

    void close()
    {
        forEach([](auto& table) { table.close(); });
        indexer.close();
    }
};

std::string_view placescopeVersion() { return "0.1.0"; }

std::string_view problemSeverityName(ProblemSeverity severity)
{
    switch (severity) {
    case ProblemSeverity::Info:
        return "info";
    case ProblemSeverity::Error:
        return "error";
    case ProblemSeverity::DataLoss:
        return "data_loss";
    }
    return "error";
}

Result<std::unique_ptr<TraceWriter>> TraceWriter::create(const std::string& path, TraceWriterOptions options)
{
    std::unique_ptr<TraceWriter> writer(new TraceWriter());
    writer->m_path = path;
    writer->m_partialPath = path + ".partial";
    std::error_code ignored;
    std::filesystem::remove(writer->m_partialPath, ignored);
    std::filesystem::remove(writer->m_partialPath + "-journal", ignored);
    std::filesystem::remove(writer->m_partialPath + "-wal", ignored);
    std::filesystem::remove(writer->m_partialPath + "-shm", ignored);
    PLACESCOPE_ASSIGN_OR_RETURN(writer->m_db, SqliteDb::open(writer->m_partialPath, SqliteDb::Mode::Create));
    // The partial file is thrown away on failure, so durability before commit() buys nothing. A crash-safe
    // partial uses WAL: a killed process leaves at worst a torn last frame, which SQLite ignores on open.
    // synchronous=OFF still survives a killed process (the OS keeps the written pages), not a power loss.
    PLACESCOPE_RETURN_IF_ERROR(writer->m_db.exec(options.crashSafePartial
                                                     ? "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;"
                                                       "PRAGMA cache_size=-16384;"
                                                     : "PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF;"
                                                       "PRAGMA cache_size=-65536;"));
    PLACESCOPE_RETURN_IF_ERROR(writer->m_db.exec(kTraceSchemaSql));
    PLACESCOPE_RETURN_IF_ERROR(
        writer->m_db.exec("PRAGMA user_version=" + std::to_string(kTraceSchemaVersion)));
    int tableCount = 0;
    const EnumTable* tables = enumTables(&tableCount);
    for (int t = 0; t < tableCount; ++t) {
        PLACESCOPE_ASSIGN_OR_RETURN(
            SqliteStatement insert,
            writer->m_db.prepare(std::string("INSERT INTO ") + tables[t].table + " (id, name, label) VALUES (?,?,?)"));
        for (int r = 0; r < tables[t].count; ++r) {
            bindFrom(insert, 1, tables[t].rows[r].id, tables[t].rows[r].name, tables[t].rows[r].label);
            PLACESCOPE_RETURN_IF_ERROR(insert.execute());
        }
    }
    writer->m_inserts = std::make_unique<RowInserts>();
    PLACESCOPE_RETURN_IF_ERROR(writer->m_inserts->prepare(writer->m_db));
    writer->setMeta("tool_version", placescopeVersion());
    writer->setMeta("schema_version", std::to_string(kTraceSchemaVersion));
    PLACESCOPE_RETURN_IF_ERROR(writer->m_db.exec("BEGIN"));
    if (options.backgroundWriting)
        // Up to 64 batches of 2048 rows wait: an early index build holds the writer for tens of milliseconds,
        // and a shorter queue would stop the parser (and with it the reader) for that long.
        writer->m_worker = std::make_unique<OrderedWorker>(2048, 64);
    return writer;
}

TraceWriter::~TraceWriter()
{
    m_worker.reset(); // its queued rows go to the connection closed below
    if (m_committed)
        return;
    closeStatements();
    m_db.close();
    std::error_code ignored;
    std::filesystem::remove(m_partialPath, ignored);
    std::filesystem::remove(m_partialPath + "-journal", ignored);
    std::filesystem::remove(m_partialPath + "-wal", ignored);
    std::filesystem::remove(m_partialPath + "-shm", ignored);
}

template <typename Row>
void TraceWriter::queue(BatchedInsert<Row>& table, Row&& row, bool isEvent)
{
    auto write = [this, &table, isEvent](Row&& row) {
        Status status = table.add(std::move(row));
        if (status.isOk())
            status = m_inserts->indexer.rowsWritten(m_db, 1);
        if (!status.isOk() && m_firstError.isOk())
            m_firstError = status;
        if (isEvent)
            m_eventCount.fetch_add(1, std::memory_order_relaxed);
    };
    if (!m_worker) {
        write(std::move(row));
        return;
    }
    m_worker->post([write, row = std::move(row)]() mutable { write(std::move(row)); });
}

void TraceWriter::settle()
{
    if (m_worker)
        m_worker->drain();
    Status status = m_inserts->flush();
    if (!status.isOk() && m_firstError.isOk())
        m_firstError = status;
}

void TraceWriter::closeStatements()
{
    if (m_inserts)
        m_inserts->close();
}

int64_t TraceWriter::internString(std::string_view text)
{
    auto found = m_strings.find(text);
    if (found != m_strings.end())
        return found->second;
    int64_t id = static_cast<int64_t>(m_strings.size());
    m_strings.emplace(std::string(text), id);
    queue(m_inserts->strings, StringRow { id, std::string(text) }, false);
    return id;
}

void TraceWriter::add(KernelEvent e)
{
    int64_t nameId = internString(e.demangledName);
    int64_t shortId = 0;
    if (!e.shortName.empty())
        shortId = internString(e.shortName);
    else if (auto known = m_shortNameIds.find(nameId); known != m_shortNameIds.end())
        shortId = known->second;
    else
        shortId = m_shortNameIds[nameId] = internString(shortKernelName(e.demangledName));
    e.demangledName = std::string(); // the row carries the ids, not the text
    e.shortName = std::string();
    queue(m_inserts->kernels, KernelRow { std::move(e), nameId, shortId });
}

void TraceWriter::add(MemcpyEvent e) { queue(m_inserts->memcpys, std::move(e)); }

void TraceWriter::add(MemsetEvent e) { queue(m_inserts->memsets, std::move(e)); }

void TraceWriter::add(RuntimeEvent e)
{
    int64_t nameId = internString(e.name);
    e.name = std::string();
    queue(m_inserts->runtime, RuntimeRow { std::move(e), nameId });
}

void TraceWriter::add(SyncEvent e) { queue(m_inserts->syncs, std::move(e)); }

void TraceWriter::add(NvtxEvent e)
{
    int64_t textId = internString(e.text);
    e.text = std::string();
    queue(m_inserts->nvtx, NvtxRow { std::move(e), textId });
}

void TraceWriter::add(GpuMemoryEvent e) { queue(m_inserts->gpuMemory, std::move(e)); }

void TraceWriter::add(OverheadEvent e)
{
    int64_t nameId = internString(e.name);
    e.name = std::string();
    queue(m_inserts->overhead, OverheadRow { std::move(e), nameId });
}

void TraceWriter::add(const GpuInfo& gpu) { queue(m_inserts->gpus, GpuInfo(gpu)); }

void TraceWriter::add(const ProcessInfo& process) { queue(m_inserts->processes, ProcessInfo(process)); }

void TraceWriter::add(const ThreadInfo& thread)
{
    if (!thread.name.empty())
        queue(m_inserts->threadNames, ThreadNameRow { internString(thread.name), thread.globalTid });
    queue(m_inserts->threads, ThreadInfo(thread));
}

void TraceWriter::add(FrameworkOp op)
{
    int64_t nameId = internString(op.name);
    op.name = std::string();
    queue(m_inserts->ops, OpRow { std::move(op), nameId });
}

void TraceWriter::add(const ExternalCorrelation& link)
{
    queue(m_inserts->externalCorrelations, ExternalCorrelation(link));
}

void TraceWriter::add(MemoryEvent e) { queue(m_inserts->memory, std::move(e)); }

void TraceWriter::add(FlowEvent f) { queue(m_inserts->flows, std::move(f)); }

void TraceWriter::add(const StepRange& step) { queue(m_inserts->steps, StepRange(step)); }

void TraceWriter::setMeta(std::string_view key, std::string_view value)
{
    m_meta.insert_or_assign(std::string(key), std::string(value));
}

void TraceWriter::countProblem(std::string_view kind, ProblemSeverity severity, std::string_view help,
                               std::string_view example, int64_t count)
{
    auto found = m_problems.find(kind);
    if (found == m_problems.end())
        found = m_problems.emplace(std::string(kind), Problem { severity, 0, std::string(help),
                                                                std::string(example.substr(0, 200)) })
                    .first;
    found->second.count += count;
}

int64_t TraceWriter::problemCount(std::string_view kind) const
{
    auto found = m_problems.find(kind);
    return found == m_problems.end() ? 0 : found->second.count;
}

Status TraceWriter::writeProblemsAndMeta()
{
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec("DELETE FROM PS_PROBLEMS; DELETE FROM PS_META;"));
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement problem,
                                m_db.prepare("INSERT INTO PS_PROBLEMS (kind, severity, count, help, example)"
                                             " VALUES (?,?,?,?,?)"));
    for (const auto& [kind, p] : m_problems) {
        bindFrom(problem, 1, kind, problemSeverityName(p.severity), p.count, p.help, p.example);
        PLACESCOPE_RETURN_IF_ERROR(problem.execute());
    }
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement meta, m_db.prepare("INSERT INTO PS_META (key, value) VALUES (?,?)"));
    for (const auto& [key, value] : m_meta) {
        bindFrom(meta, 1, key, value);
        PLACESCOPE_RETURN_IF_ERROR(meta.execute());
    }
    return Status::ok();
}

Status TraceWriter::flush()
{
    settle();
    PLACESCOPE_RETURN_IF_ERROR(m_firstError);
    PLACESCOPE_RETURN_IF_ERROR(writeProblemsAndMeta());
    return m_db.exec("COMMIT; BEGIN");
}

Status TraceWriter::withConnection(const std::function<Status(SqliteDb&)>& work)
{
    settle();
    PLACESCOPE_RETURN_IF_ERROR(m_firstError);
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec("COMMIT"));
    Status status = work(m_db);
    // Roll back whatever transaction work left open, so the writer's own BEGIN below cannot fail on it.
    if (!status.isOk())
        (void)m_db.exec("ROLLBACK");
    Status begin = m_db.exec("BEGIN");
    if (!status.isOk())
        return status;
    return begin;
}

Status TraceWriter::closePartial()
{
    PLACESCOPE_RETURN_IF_ERROR(flush());
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec("COMMIT"));
    closeStatements();
    m_db.close();
    m_committed = true; // keeps the destructor from removing the partial file
    return Status::ok();
}

Status TraceWriter::commit()
{
    m_worker.reset(); // writes the queued rows, then stops: the rest of the commit is on this thread
    settle();
    PLACESCOPE_RETURN_IF_ERROR(m_firstError);
    setMeta("created_at_utc", utcNowIso8601());
    PLACESCOPE_RETURN_IF_ERROR(writeProblemsAndMeta());
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec(kTraceIndexesSql));
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec("COMMIT"));
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec("PRAGMA journal_mode=WAL"));
    closeStatements();
    // Checkpoint and close before the rename so no -wal file is left beside the old name.
    m_db.close();
    std::error_code error;
    std::filesystem::rename(m_partialPath, m_path, error);
    if (error)
        return Status::error("cannot move " + m_partialPath + " to " + m_path + ": " + error.message());
    m_committed = true;
    return Status::ok();
}

} // namespace placescope
