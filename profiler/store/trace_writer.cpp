// SPDX-License-Identifier: MIT
#include "profiler/store/trace_writer.h"

#include "profiler/base/version.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/model/kernel_names.h"
#include "profiler/model/system_facts.h"
#include "profiler/store/ordered_worker.h"
#include "profiler/store/row_inserts.h"
#include "profiler/store/sqlite_bind.h"
#include "profiler/store/trace_identity.h"
#include "profiler/store/trace_indexes_sql.h"
#include "profiler/store/trace_schema_sql.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>

namespace placescope {
namespace {

// Rows between the commits of a long import (see TraceWriter::queue).
constexpr uint64_t kCommitEveryRows = 16384;

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

std::string_view placescopeVersion() { return kPlacescopeVersion; } // from project(VERSION), via version.h.in

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
    if (!options.crashSafePartial) {
        PLACESCOPE_ASSIGN_OR_RETURN(OutputFile output, OutputFile::create(path));
        return create(std::move(output), options);
    }
    // A crash-safe partial file has a fixed name, so that the capture's parent finds it when this process dies.
    // A file of that name is a leftover of an earlier process with our pid: start afresh.
    const std::string partial = path + ".partial";
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    std::filesystem::remove(partial + "-journal", ignored);
    std::filesystem::remove(partial + "-wal", ignored);
    std::filesystem::remove(partial + "-shm", ignored);
    PLACESCOPE_ASSIGN_OR_RETURN(OutputFile output, OutputFile::adopt(path, partial));
    return create(std::move(output), options);
}

Result<std::unique_ptr<TraceWriter>> TraceWriter::create(OutputFile output, TraceWriterOptions options)
{
    std::unique_ptr<TraceWriter> writer(new TraceWriter());
    writer->m_path = output.path();
    writer->m_partialPath = output.tempPath();
    writer->m_output = std::make_unique<OutputFile>(std::move(output));
    writer->m_commitEveryRows = options.crashSafePartial ? 0 : kCommitEveryRows;
    PLACESCOPE_ASSIGN_OR_RETURN(writer->m_db, SqliteDb::open(writer->m_partialPath, SqliteDb::Mode::Create));
    // The partial file is thrown away on failure, so durability before commit() buys nothing. A crash-safe
    // partial uses WAL: a killed process leaves at worst a torn last frame, which SQLite ignores on open.
    // synchronous=OFF still survives a killed process (the OS keeps the written pages), not a power loss.
    PLACESCOPE_RETURN_IF_ERROR(
        writer->m_db.exec(options.crashSafePartial ? "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;"
                                                     "PRAGMA cache_size=-16384;"
                                                   : "PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF;"
                                                     "PRAGMA cache_size=-65536;"));
    // The schema and the enum rows in one transaction: one write of the new file instead of one per statement.
    PLACESCOPE_RETURN_IF_ERROR(writer->m_db.exec("BEGIN"));
    PLACESCOPE_RETURN_IF_ERROR(writer->m_db.exec(kTraceSchemaSql));
    // What the file is, before any table is read (trace_identity.h): 'PSCT' and the schema version.
    PLACESCOPE_RETURN_IF_ERROR(writer->m_db.exec("PRAGMA application_id=" + std::to_string(kTraceApplicationId)
        + "; PRAGMA user_version=" + std::to_string(kTraceSchemaVersion)));
    int tableCount = 0;
    const EnumTable* tables = enumTables(&tableCount);
    for (int t = 0; t < tableCount; ++t) {
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement insert,
            writer->m_db.prepare(std::string("INSERT INTO ") + tables[t].table + " (id, name, label) VALUES (?,?,?)"));
        for (int r = 0; r < tables[t].count; ++r) {
            bindFrom(insert, 1, tables[t].rows[r].id, tables[t].rows[r].name, tables[t].rows[r].label);
            PLACESCOPE_RETURN_IF_ERROR(insert.execute());
        }
    }
    writer->m_inserts = std::make_unique<RowInserts>();
    writer->m_inserts->define(writer->m_db);
    writer->setMeta("tool_version", placescopeVersion());
    writer->setMeta("schema_version", std::to_string(kTraceSchemaVersion));
    PLACESCOPE_RETURN_IF_ERROR(writer->m_db.exec("COMMIT; BEGIN"));
    if (options.backgroundWriting)
        // Up to 64 batches of 2048 rows wait: an early index build holds the writer for tens of milliseconds,
        // and a shorter queue would stop the parser (and with it the reader) for that long.
        writer->m_worker = std::make_unique<OrderedWorker>(2048, 64);
    return writer;
}

TraceWriter::~TraceWriter()
{
    m_worker.reset(); // its queued rows go to the connection closed below
    if (!m_output)
        return;
    closeStatements();
    m_db.close();
    m_output.reset(); // removes the unfinished file and its SQLite sidecars
}

template <typename Row> void TraceWriter::queue(BatchedInsert<Row>& table, Row&& row, bool isEvent)
{
    auto write = [this, &table](Row&& queued) {
        Status status = table.add(std::move(queued));
        if (status.isOk())
            status = m_inserts->indexer.rowsWritten(m_db, 1);
        // A commit every so often writes the file's pages while the parser still runs, instead of all of them
        // at the end on one thread. Nothing else reads this partial file (a crash-safe one commits only whole
        // flushes), and rows still waiting for a full multi-row statement simply go into the next transaction.
        if (status.isOk() && m_commitEveryRows && ++m_rowsSinceCommit >= m_commitEveryRows) {
            m_rowsSinceCommit = 0;
            status = m_db.exec("COMMIT; BEGIN");
        }
        if (!status.isOk() && m_firstError.isOk())
            m_firstError = status;
    };
    // Counted when added, on the adding thread: the count is then exact whenever the caller reads it, not a
    // snapshot of how far the background writer has got (the import summary printed a different count each run).
    if (isEvent)
        m_eventCount.fetch_add(1, std::memory_order_relaxed);
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

int64_t TraceWriter::internString(std::string_view text, OptInt preferredId)
{
    auto found = m_strings.find(text);
    if (found != m_strings.end())
        return found->second;
    int64_t id = 0;
    if (preferredId && m_takenStringIds.insert(*preferredId).second) {
        id = *preferredId;
    } else {
        while (!m_takenStringIds.insert(m_nextStringId).second)
            ++m_nextStringId;
        id = m_nextStringId++;
    }
    m_strings.emplace(std::string(text), id);
    queue(m_inserts->strings, StringRow { id, std::string(text) }, false);
    return id;
}

void TraceWriter::add(KernelEvent e)
{
    if (e.demangledName.empty()) { // every importer's unnamed kernel (an empty or null name): kept, and said
        e.demangledName = kUnnamedKernel;
        if (e.shortName.empty())
            e.shortName = kUnnamedKernel; // not shortKernelName's cut of it ("kernel]")
        countProblem("trace.unnamed_kernel", ProblemSeverity::Error,
            "A kernel without a name (empty or null in the input); it was kept as '[unnamed kernel]', so its time "
            "counts, but no name filter or kernel class finds it by name.");
    }
    int64_t nameId = internString(e.demangledName);
    int64_t shortId = 0;
    if (!e.shortName.empty())
        shortId = internString(e.shortName);
    else if (auto known = m_shortNameIds.find(nameId); known != m_shortNameIds.end())
        shortId = known->second;
    else
        shortId = m_shortNameIds[nameId] = internString(shortKernelName(e.demangledName));
    OptInt mangledId;
    if (!e.mangledName.empty())
        mangledId = internString(e.mangledName);
    e.demangledName = std::string(); // the row carries the ids, not the text
    e.shortName = std::string();
    e.mangledName = std::string();
    noteSpan(e.start, e.end);
    queue(m_inserts->kernels, KernelRow { std::move(e), nameId, shortId, mangledId });
}

void TraceWriter::add(MemcpyEvent e)
{
    noteSpan(e.start, e.end);
    queue(m_inserts->memcpys, std::move(e));
}

void TraceWriter::add(MemsetEvent e)
{
    noteSpan(e.start, e.end);
    queue(m_inserts->memsets, std::move(e));
}

void TraceWriter::add(RuntimeEvent e)
{
    noteSpan(e.start, e.end);
    int64_t nameId = internString(e.name);
    e.name = std::string();
    queue(m_inserts->runtime, RuntimeRow { std::move(e), nameId });
}

void TraceWriter::add(SyncEvent e)
{
    noteSpan(e.start, e.end);
    queue(m_inserts->syncs, std::move(e));
}

void TraceWriter::add(CudaEventRecord e) { queue(m_inserts->cudaEvents, std::move(e)); }

void TraceWriter::add(NvtxEvent e)
{
    noteSpan(e.start, e.end.value_or(e.start));
    // nsys's convention, which scripts read as COALESCE(text, <textId's string>): inline text in `text`, StringIds
    // only for strings the program registered.
    OptInt textId;
    if (e.textRegistered) {
        textId = internString(e.text);
        e.text = std::string();
    }
    queue(m_inserts->nvtx, NvtxRow { std::move(e), textId });
}

void TraceWriter::add(GpuMemoryEvent e)
{
    noteSpan(e.start, e.start);
    queue(m_inserts->gpuMemory, std::move(e));
}

void TraceWriter::add(OverheadEvent e)
{
    noteSpan(e.start, e.end);
    int64_t nameId = internString(e.name);
    e.name = std::string();
    queue(m_inserts->overhead, OverheadRow { std::move(e), nameId });
}

void TraceWriter::add(const GpuInfo& gpu) { queue(m_inserts->gpus, GpuInfo(gpu)); }

void TraceWriter::add(const ProcessInfo& process)
{
    addProcessName(process);
    queue(m_inserts->processes, ProcessInfo(process));
}

void TraceWriter::addProcessName(const ProcessInfo& process)
{
    if (m_listedProcesses.insert(process.globalPid).second)
        queue(m_inserts->nsysProcesses, ProcessInfo(process), false);
}

void TraceWriter::add(const ThreadInfo& thread)
{
    if (!thread.name.empty())
        queue(m_inserts->threadNames, ThreadNameRow { internString(thread.name), thread.globalTid, thread.priority });
    queue(m_inserts->threads, ThreadInfo(thread));
}

void TraceWriter::add(OsRuntimeCall call)
{
    int64_t nameId = internString(call.name);
    call.name = std::string();
    queue(m_inserts->osRuntime, OsRuntimeRow { std::move(call), nameId });
}

void TraceWriter::add(const CudaContextInfo& context)
{
    queue(m_inserts->cudaContexts, CudaContextInfo(context), false);
}
void TraceWriter::add(const CudaStreamInfo& stream) { queue(m_inserts->cudaStreams, CudaStreamInfo(stream), false); }

void TraceWriter::addThreadName(const ThreadInfo& thread)
{
    if (!thread.name.empty())
        queue(m_inserts->threadNames, ThreadNameRow { internString(thread.name), thread.globalTid, thread.priority },
            false);
}

void TraceWriter::add(DiagnosticEvent event) { queue(m_inserts->diagnostics, std::move(event), false); }

void TraceWriter::add(CounterSample sample)
{
    int64_t nameId = internString(sample.name);
    sample.name = std::string();
    queue(m_inserts->counters, CounterRow { std::move(sample), nameId });
}

void TraceWriter::add(GpuAnnotation annotation)
{
    int64_t nameId = internString(annotation.name);
    annotation.name = std::string();
    noteSpan(annotation.start, annotation.end);
    // Not counted again as an event: the same range is an NVTX row too.
    queue(m_inserts->gpuAnnotations, GpuAnnotationRow { std::move(annotation), nameId }, false);
}

bool TraceWriter::add(const SystemFact& fact)
{
    OptInt nameEnum = systemFactNameEnum(fact.name);
    if (!nameEnum || fact.value.empty())
        return false;
    queue(m_inserts->systemFacts, SystemFactRow { fact, *nameEnum }, false);
    return true;
}

void TraceWriter::add(FrameworkOp op)
{
    noteSpan(op.start, op.end);
    int64_t nameId = internString(op.name);
    op.name = std::string();
    queue(m_inserts->ops, OpRow { std::move(op), nameId });
}

void TraceWriter::add(const ExternalCorrelation& link)
{
    queue(m_inserts->externalCorrelations, ExternalCorrelation(link));
}

void TraceWriter::add(MemoryEvent e)
{
    noteSpan(e.start, e.start);
    queue(m_inserts->memory, std::move(e));
}

void TraceWriter::add(FlowEvent f) { queue(m_inserts->flows, std::move(f)); }

void TraceWriter::add(const StepRange& step) { queue(m_inserts->steps, StepRange(step)); }

void TraceWriter::setMeta(std::string_view key, std::string_view value)
{
    m_meta.insert_or_assign(std::string(key), std::string(value));
}

void TraceWriter::countProblem(
    std::string_view kind, ProblemSeverity severity, std::string_view help, std::string_view example, int64_t count)
{
    auto found = m_problems.find(kind);
    if (found == m_problems.end())
        found = m_problems
                    .emplace(std::string(kind),
                        Problem { severity, 0, std::string(help), std::string(example.substr(0, 200)) })
                    .first;
    found->second.count += count;
}

int64_t TraceWriter::problemCount(std::string_view kind) const
{
    auto found = m_problems.find(kind);
    return found == m_problems.end() ? 0 : found->second.count;
}

int64_t TraceWriter::totalProblemCount() const
{
    int64_t total = 0;
    for (const auto& [kind, problem] : m_problems)
        total += problem.count;
    return total;
}

std::vector<std::pair<std::string, int64_t>> TraceWriter::problemCounts(ProblemSeverity severity) const
{
    std::vector<std::pair<std::string, int64_t>> counts;
    for (const auto& [kind, problem] : m_problems)
        if (problem.severity == severity)
            counts.emplace_back(kind, problem.count);
    return counts;
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

Status TraceWriter::writeRunDescription()
{
    // Import problems are the analysis's diagnostics in nsys's terms (source 3, Analysis), one row per kind.
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement diagnostic,
        m_db.prepare("INSERT INTO DIAGNOSTIC_EVENT (timestamp, timestampType, source, severity,"
                     " text) VALUES (0, 0, 3, ?, ?)"));
    for (const auto& [kind, p] : m_problems) {
        int64_t severity = p.severity == ProblemSeverity::Info ? 1 : p.severity == ProblemSeverity::Error ? 3 : 2;
        std::string text = kind + ": " + p.help + " (" + std::to_string(p.count) + (p.count == 1 ? " time" : " times")
            + (p.example.empty() ? ")" : "; first: " + p.example + ")");
        bindFrom(diagnostic, 1, severity, text);
        PLACESCOPE_RETURN_IF_ERROR(diagnostic.execute());
    }

    // The nsys export schema our tables follow: Nsight Systems 2024.5.1 writes 3.13.2.
    static const std::pair<std::string, std::string> kOwnExportMeta[] = {
        { "EXPORT_PRODUCT_NAME", "Placescope" },
        { "EXPORT_SCHEMA_VERSION", "3.13.2" },
        { "EXPORT_SCHEMA_VERSION_MAJOR", "3" },
        { "EXPORT_SCHEMA_VERSION_MINOR", "13" },
        { "EXPORT_SCHEMA_VERSION_MICRO", "2" },
    };
    PLACESCOPE_ASSIGN_OR_RETURN(
        SqliteStatement exportMeta, m_db.prepare("INSERT INTO META_DATA_EXPORT (name, value) VALUES (?, ?)"));
    auto addExportRow = [&](const std::string& name, const std::string& value) {
        bindFrom(exportMeta, 1, std::string_view(name), std::string_view(value));
        return exportMeta.execute();
    };
    if (m_exportMeta.empty())
        for (const auto& [name, value] : kOwnExportMeta)
            PLACESCOPE_RETURN_IF_ERROR(addExportRow(name, value));
    for (const auto& [name, value] : m_exportMeta)
        PLACESCOPE_RETURN_IF_ERROR(addExportRow(name, value));

    std::optional<AnalysisSpan> span = m_analysisSpan;
    if (!span && m_firstStart <= m_lastEnd)
        span = AnalysisSpan { kLocalVmId, m_firstStart, m_lastEnd };
    if (!span) {
        // Rows that did not come through add() (the capture's merger copies parts in SQL).
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement range,
            m_db.prepare("SELECT MIN(s), MAX(e) FROM (SELECT MIN(start) s, MAX(end) e FROM CUPTI_ACTIVITY_KIND_KERNEL"
                         " UNION ALL SELECT MIN(start), MAX(end) FROM CUPTI_ACTIVITY_KIND_MEMCPY"
                         " UNION ALL SELECT MIN(start), MAX(end) FROM CUPTI_ACTIVITY_KIND_MEMSET"
                         " UNION ALL SELECT MIN(start), MAX(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME"
                         " UNION ALL SELECT MIN(start), MAX(end) FROM PS_FRAMEWORK_OPS)"));
        if (range.step() && !range.isNull(0))
            span = AnalysisSpan { kLocalVmId, range.columnInt(0), range.columnInt(1) };
        PLACESCOPE_RETURN_IF_ERROR(range.status());
    }
    if (span) {
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement details,
            m_db.prepare("INSERT INTO ANALYSIS_DETAILS (globalVid, duration, startTime, stopTime)"
                         " VALUES (?,?,?,?)"));
        bindFrom(details, 1, span->globalVid, span->stopTime - span->startTime, span->startTime, span->stopTime);
        PLACESCOPE_RETURN_IF_ERROR(details.execute());
    }

    std::optional<SessionStart> start = m_sessionStart;
    if (auto base = m_meta.find("trace_base_time_ns"); !start && base != m_meta.end()) {
        char* end = nullptr;
        long long epoch = std::strtoll(base->second.c_str(), &end, 10);
        if (end && *end == '\0' && epoch > 0)
            start = SessionStart { epoch, {} };
    }
    // Times that are Unix time already (the capture's CLOCK_REALTIME, Kineto traces without baseTimeNanoseconds):
    // the clock's zero is the epoch. 10^18 ns is September 2001, far beyond any relative clock's reading.
    if (!start && span && span->startTime >= 1000000000000000000)
        start = SessionStart { 0, {} };
    if (start) {
        std::time_t seconds = static_cast<std::time_t>(start->utcEpochNs / 1000000000);
        std::tm utc {};
        gmtime_r(&seconds, &utc);
        char utcTime[32];
        std::strftime(utcTime, sizeof utcTime, "%Y-%m-%dT%H:%M:%S", &utc);
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement session,
            m_db.prepare("INSERT INTO TARGET_INFO_SESSION_START_TIME (utcEpochNs, utcTime,"
                         " localTime) VALUES (?,?,?)"));
        bindFrom(session, 1, start->utcEpochNs, std::string_view(utcTime), start->localTime);
        PLACESCOPE_RETURN_IF_ERROR(session.execute());
    }
    return Status::ok();
}

Status TraceWriter::dropEmptyTables()
{
    // The tables nsys creates only when it has their data. Our own PS_ tables and the enum tables always exist.
    static constexpr const char* kLazyTables[] = {
        "CUPTI_ACTIVITY_KIND_KERNEL",
        "CUPTI_ACTIVITY_KIND_MEMCPY",
        "CUPTI_ACTIVITY_KIND_MEMSET",
        "CUPTI_ACTIVITY_KIND_RUNTIME",
        "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        "CUPTI_ACTIVITY_KIND_CUDA_EVENT",
        "NVTX_EVENTS",
        "CUDA_GPU_MEMORY_USAGE_EVENTS",
        "PROFILER_OVERHEAD",
        "ThreadNames",
        "TARGET_INFO_GPU",
        "TARGET_INFO_SESSION_START_TIME",
        "ANALYSIS_DETAILS",
        "PROCESSES",
        "DIAGNOSTIC_EVENT",
        "TARGET_INFO_SYSTEM_ENV",
        "TARGET_INFO_CUDA_CONTEXT_INFO",
        "TARGET_INFO_CUDA_STREAM",
        "OSRT_API",
    };
    for (const char* table : kLazyTables) {
        PLACESCOPE_ASSIGN_OR_RETURN(
            int64_t hasRows, m_db.queryInt(std::string("SELECT EXISTS (SELECT 1 FROM ") + table + ")"));
        if (!hasRows)
            PLACESCOPE_RETURN_IF_ERROR(m_db.exec(std::string("DROP TABLE ") + table));
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
    m_output->release(); // left for another process to read and finish
    m_output.reset();
    return Status::ok();
}

Status TraceWriter::commit()
{
    m_worker.reset(); // writes the queued rows, then stops: the rest of the commit is on this thread
    settle();
    PLACESCOPE_RETURN_IF_ERROR(m_firstError);
    setMeta("created_at_utc", utcNowIso8601());
    PLACESCOPE_RETURN_IF_ERROR(writeProblemsAndMeta());
    PLACESCOPE_RETURN_IF_ERROR(writeRunDescription());
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec(kTraceIndexesSql));
    PLACESCOPE_RETURN_IF_ERROR(dropEmptyTables());
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec("COMMIT"));
    // A finished trace is in rollback-journal mode: readers open it read-only and SQLite creates nothing beside it
    // (a WAL-mode file gets a -wal and an -shm from every reader, read-only ones too, in any folder they can write).
    PLACESCOPE_RETURN_IF_ERROR(m_db.exec("PRAGMA journal_mode=DELETE"));
    closeStatements();
    // Checkpoint and close before the rename: the file is whole in itself, no -wal is left beside the old name.
    m_db.close();
    Status committed = m_output->commit(); // removes the file on failure
    m_output.reset();
    return committed;
}

} // namespace placescope
