// SPDX-License-Identifier: MIT
#include "profiler/store/trace_writer.h"

#include "profiler/model/cuda_enums.h"
#include "profiler/store/ordered_worker.h"
#include "profiler/store/trace_indexes_sql.h"
#include "profiler/store/trace_schema_sql.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>

namespace placescope {
namespace {

enum StatementIndex {
    kKernel, kMemcpy, kMemset, kRuntime, kSync, kNvtx, kGpuMemory, kOverhead, kGpu, kProcess, kThread,
    kThreadName, kOp, kExternalCorrelation, kMemory, kFlow, kStep, kStatementCount
};

// Column lists in the order the add() overloads bind them.
constexpr const char* kInsertSql[kStatementCount] = {
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid,"
    " demangledName, shortName, gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread,"
    " staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, sharedMemoryExecuted,"
    " launchType, cacheConfig, gridId, graphNodeId) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, correlationId, globalPid,"
    " bytes, copyKind, srcKind, dstKind, srcDeviceId, dstDeviceId, srcContextId, dstContextId, graphNodeId)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId, correlationId, globalPid,"
    " value, bytes, memKind, graphNodeId) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId,"
    " returnValue) VALUES (?,?,?,?,?,?,?)",
    "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, streamId, correlationId,"
    " globalPid, syncType, eventId) VALUES (?,?,?,?,?,?,?,?,?)",
    "INSERT INTO NVTX_EVENTS (start, end, eventType, rangeId, category, color, text, globalTid, endGlobalTid,"
    " textId, domainId) VALUES (?,?,?,?,?,?,NULL,?,?,?,?)",
    "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId, contextId, address, pc, bytes, memKind,"
    " memoryOperationType, correlationId, localMemoryPoolAddress, localMemoryPoolReleaseThreshold,"
    " localMemoryPoolSize, localMemoryPoolUtilizedSize) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO PROFILER_OVERHEAD (start, end, globalTid, nameId) VALUES (?,?,?,?)",
    "INSERT INTO TARGET_INFO_GPU (id, name, busLocation, uuid, totalMemory, memoryBandwidth, clockRate, smCount,"
    " l2CacheSize, computeMajor, computeMinor, maxThreadsPerBlock, maxRegistersPerBlock, maxShmemPerBlock,"
    " maxShmemPerBlockOptin, maxShmemPerSm, maxRegistersPerSm, threadsPerWarp, maxWarpsPerSm, asyncEngines,"
    " isDiscrete, cuDevice) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,1,?)",
    "INSERT OR REPLACE INTO PS_PROCESSES (globalPid, pid, rank, name, hostname) VALUES (?,?,?,?,?)",
    "INSERT OR REPLACE INTO PS_THREADS (globalTid, globalPid, tid, name) VALUES (?,?,?,?)",
    "INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (?,0,?)",
    "INSERT INTO PS_FRAMEWORK_OPS (start, end, globalTid, nameId, category, externalId, sequenceNumber,"
    " fwdThreadId, depth, inputDims, inputTypes, inputStrides, extra) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO PS_EXTERNAL_CORRELATION (correlationId, externalId, globalPid, externalKind) VALUES (?,?,?,?)",
    "INSERT INTO PS_MEMORY_EVENTS (start, globalTid, deviceType, deviceId, address, bytes, totalAllocated,"
    " totalReserved) VALUES (?,?,?,?,?,?,?,?)",
    "INSERT INTO PS_FLOWS (id, category, fromTs, fromGlobalTid, fromDeviceId, fromStreamId, toTs, toGlobalTid,"
    " toDeviceId, toStreamId) VALUES (?,?,?,?,?,?,?,?,?,?)",
    "INSERT INTO PS_STEPS (stepNumber, start, end, globalPid) VALUES (?,?,?,?)",
};

// Binds arguments to ?1, ?2, ... in order. Empty strings bind NULL (optional text columns).
void bindAt(SqliteStatement& stmt, int index, int64_t value) { stmt.bind(index, value); }
void bindAt(SqliteStatement& stmt, int index, const OptInt& value) { stmt.bind(index, value); }
void bindAt(SqliteStatement& stmt, int index, const std::string& value)
{
    if (value.empty())
        stmt.bindNull(index);
    else
        stmt.bind(index, std::string_view(value));
}
void bindAt(SqliteStatement& stmt, int index, const char* value) { stmt.bind(index, std::string_view(value)); }

template <typename... Args>
void bindAll(SqliteStatement& stmt, const Args&... args)
{
    int index = 1;
    (bindAt(stmt, index++, args), ...);
}

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
            bindAll(insert, tables[t].rows[r].id, tables[t].rows[r].name, tables[t].rows[r].label);
            PLACESCOPE_RETURN_IF_ERROR(insert.execute());
        }
    }
    PLACESCOPE_RETURN_IF_ERROR(writer->prepareStatements());
    writer->setMeta("tool_version", placescopeVersion());
    writer->setMeta("schema_version", std::to_string(kTraceSchemaVersion));
    PLACESCOPE_RETURN_IF_ERROR(writer->m_db.exec("BEGIN"));
    if (options.backgroundWriting)
        writer->m_worker = std::make_unique<OrderedWorker>();
    return writer;
}

TraceWriter::~TraceWriter()
{
    m_worker.reset(); // its queued rows go to the connection closed below
    if (m_committed)
        return;
    m_statements.clear();
    m_insertString = SqliteStatement();
    m_db.close();
    std::error_code ignored;
    std::filesystem::remove(m_partialPath, ignored);
    std::filesystem::remove(m_partialPath + "-journal", ignored);
    std::filesystem::remove(m_partialPath + "-wal", ignored);
    std::filesystem::remove(m_partialPath + "-shm", ignored);
}

Status TraceWriter::prepareStatements()
{
    for (const char* sql : kInsertSql) {
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement stmt, m_db.prepare(sql));
        m_statements.push_back(std::move(stmt));
    }
    PLACESCOPE_ASSIGN_OR_RETURN(m_insertString, m_db.prepare("INSERT INTO StringIds (id, value) VALUES (?,?)"));
    return Status::ok();
}

template <typename Row, typename Write>
void TraceWriter::submit(Row&& row, Write write)
{
    if (!m_worker) {
        write(row);
        return;
    }
    m_worker->post([write = std::move(write), copy = std::forward<Row>(row)]() { write(copy); });
}

void TraceWriter::settle()
{
    if (m_worker)
        m_worker->drain();
}

void TraceWriter::run(SqliteStatement& stmt)
{
    Status status = stmt.execute();
    if (!status.isOk() && m_firstError.isOk())
        m_firstError = status;
    ++m_eventCount;
}

int64_t TraceWriter::internString(std::string_view text)
{
    auto found = m_strings.find(text);
    if (found != m_strings.end())
        return found->second;
    int64_t id = static_cast<int64_t>(m_strings.size());
    auto inserted = m_strings.emplace(std::string(text), id).first;
    submit(inserted->first, [this, id](const std::string& value) {
        m_insertString.bind(1, id);
        m_insertString.bind(2, value);
        Status status = m_insertString.execute();
        if (!status.isOk() && m_firstError.isOk())
            m_firstError = status;
    });
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
    submit(std::move(e), [this, nameId, shortId](const KernelEvent& e) {
        auto& s = statement(kKernel);
        bindAll(s, e.start, e.end, e.deviceId, e.contextId, e.streamId, e.correlationId, e.globalPid, nameId, shortId,
                e.gridX, e.gridY, e.gridZ, e.blockX, e.blockY, e.blockZ, e.registersPerThread, e.staticSharedMemory,
                e.dynamicSharedMemory, e.localMemoryPerThread, e.localMemoryTotal, e.sharedMemoryExecuted, e.launchType,
                e.cacheConfig, e.gridId, e.graphNodeId);
        run(s);
    });
}

void TraceWriter::add(MemcpyEvent e)
{
    submit(std::move(e), [this](const MemcpyEvent& e) {
        auto& s = statement(kMemcpy);
        bindAll(s, e.start, e.end, e.deviceId, e.contextId, e.streamId, e.correlationId, e.globalPid, e.bytes, e.copyKind,
                e.srcKind, e.dstKind, e.srcDeviceId, e.dstDeviceId, e.srcContextId, e.dstContextId, e.graphNodeId);
        run(s);
    });
}

void TraceWriter::add(MemsetEvent e)
{
    submit(std::move(e), [this](const MemsetEvent& e) {
        auto& s = statement(kMemset);
        bindAll(s, e.start, e.end, e.deviceId, e.contextId, e.streamId, e.correlationId, e.globalPid, e.value, e.bytes,
                e.memKind, e.graphNodeId);
        run(s);
    });
}

void TraceWriter::add(RuntimeEvent e)
{
    int64_t nameId = internString(e.name);
    e.name = std::string();
    submit(std::move(e), [this, nameId](const RuntimeEvent& e) {
        auto& s = statement(kRuntime);
        bindAll(s, e.start, e.end, static_cast<int64_t>(e.eventClass), e.globalTid, e.correlationId, nameId,
                e.returnValue);
        run(s);
    });
}

void TraceWriter::add(SyncEvent e)
{
    submit(std::move(e), [this](const SyncEvent& e) {
        auto& s = statement(kSync);
        bindAll(s, e.start, e.end, e.deviceId, e.contextId, e.streamId, e.correlationId, e.globalPid, e.syncType,
                e.eventId);
        run(s);
    });
}

void TraceWriter::add(NvtxEvent e)
{
    int64_t textId = internString(e.text);
    e.text = std::string();
    submit(std::move(e), [this, textId](const NvtxEvent& e) {
        auto& s = statement(kNvtx);
        bindAll(s, e.start, OptInt(e.end), e.eventType, e.rangeId, e.category, e.color, e.globalTid, e.globalTid, textId,
                e.domainId);
        run(s);
    });
}

void TraceWriter::add(GpuMemoryEvent e)
{
    submit(std::move(e), [this](const GpuMemoryEvent& e) {
        auto& s = statement(kGpuMemory);
        bindAll(s, e.start, e.globalPid, e.deviceId, e.contextId, e.address, e.pc, e.bytes, e.memKind,
                e.memoryOperationType, e.correlationId, e.memoryPoolAddress, e.memoryPoolReleaseThreshold,
                e.memoryPoolSize, e.memoryPoolUtilizedSize);
        run(s);
    });
}

void TraceWriter::add(OverheadEvent e)
{
    int64_t nameId = internString(e.name);
    e.name = std::string();
    submit(std::move(e), [this, nameId](const OverheadEvent& e) {
        auto& s = statement(kOverhead);
        bindAll(s, e.start, e.end, e.globalTid, nameId);
        run(s);
    });
}

void TraceWriter::add(const GpuInfo& g)
{
    submit(g, [this](const GpuInfo& g) {
        auto& s = statement(kGpu);
        bindAll(s, g.id, g.name, g.busLocation, g.uuid, g.totalMemory, g.memoryBandwidth, g.clockRate, g.smCount,
                g.l2CacheSize, g.computeMajor, g.computeMinor, g.maxThreadsPerBlock, g.maxRegistersPerBlock,
                g.maxShmemPerBlock, g.maxShmemPerBlockOptin, g.maxShmemPerSm, g.maxRegistersPerSm, g.threadsPerWarp,
                g.maxWarpsPerSm, g.asyncEngines, g.id);
        run(s);
    });
}

void TraceWriter::add(const ProcessInfo& p)
{
    submit(p, [this](const ProcessInfo& p) {
        auto& s = statement(kProcess);
        bindAll(s, p.globalPid, p.pid, p.rank, p.name, p.hostname);
        run(s);
    });
}

void TraceWriter::add(const ThreadInfo& t)
{
    int64_t nameId = t.name.empty() ? -1 : internString(t.name);
    submit(t, [this, nameId](const ThreadInfo& t) {
        auto& s = statement(kThread);
        bindAll(s, t.globalTid, t.globalPid, t.tid, t.name);
        run(s);
        if (nameId >= 0) {
            auto& names = statement(kThreadName);
            bindAll(names, nameId, t.globalTid);
            run(names);
        }
    });
}

void TraceWriter::add(FrameworkOp op)
{
    int64_t nameId = internString(op.name);
    op.name = std::string();
    submit(std::move(op), [this, nameId](const FrameworkOp& op) {
        auto& s = statement(kOp);
        bindAll(s, op.start, op.end, op.globalTid, nameId, op.category, op.externalId, op.sequenceNumber, op.fwdThreadId,
                op.depth, op.inputDims, op.inputTypes, op.inputStrides, op.extra);
        run(s);
    });
}

void TraceWriter::add(const ExternalCorrelation& link)
{
    submit(link, [this](const ExternalCorrelation& link) {
        auto& s = statement(kExternalCorrelation);
        bindAll(s, link.correlationId, link.externalId, link.globalPid, link.externalKind);
        run(s);
    });
}

void TraceWriter::add(MemoryEvent e)
{
    submit(std::move(e), [this](const MemoryEvent& e) {
        auto& s = statement(kMemory);
        bindAll(s, e.start, e.globalTid, e.deviceType, e.deviceId, e.address, e.bytes, e.totalAllocated, e.totalReserved);
        run(s);
    });
}

void TraceWriter::add(FlowEvent f)
{
    submit(std::move(f), [this](const FlowEvent& f) {
        auto& s = statement(kFlow);
        bindAll(s, f.id, f.category, f.fromTs, f.fromGlobalTid, f.fromDeviceId, f.fromStreamId, f.toTs, f.toGlobalTid,
                f.toDeviceId, f.toStreamId);
        run(s);
    });
}

void TraceWriter::add(const StepRange& step)
{
    submit(step, [this](const StepRange& step) {
        auto& s = statement(kStep);
        bindAll(s, step.stepNumber, step.start, step.end, step.globalPid);
        run(s);
    });
}

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
        bindAll(problem, kind, std::string(problemSeverityName(p.severity)), p.count, p.help, p.example);
        PLACESCOPE_RETURN_IF_ERROR(problem.execute());
    }
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement meta, m_db.prepare("INSERT INTO PS_META (key, value) VALUES (?,?)"));
    for (const auto& [key, value] : m_meta) {
        bindAll(meta, key, value);
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
    m_statements.clear();
    m_insertString = SqliteStatement();
    m_db.close();
    m_committed = true; // keeps the destructor from removing the partial file
    return Status::ok();
}

Status TraceWriter::commit()
{
    m_worker.reset(); // writes the queued rows, then stops: the rest of the commit is on this thread
    PLACESCOPE_RETURN_IF_ERROR(m_firstError);
    setMeta("created_at_utc", utcNowIso8601());
    PLACESCOPE_RETURN_IF_ERROR(writeProblemsAndMeta());
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec(kTraceIndexesSql));
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec("COMMIT"));
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec("PRAGMA journal_mode=WAL"));
    m_statements.clear();
    m_insertString = SqliteStatement();
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
