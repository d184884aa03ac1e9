// SPDX-License-Identifier: MIT
// TraceWriter: writes one trace file (schema in trace_schema.sql) from event records.
//
// Output is all-or-nothing, through an OutputFile (profiler/base/output_file.h): rows go to a temporary file
// beside <path>, unique to this writer (committed every few thousand rows, so the pages are written while the
// producer still runs, unless crashSafePartial); commit() adds the indexes, the metadata and the problem counts,
// switches the file to WAL, checkpoints and closes it (one self-contained file) and renames it to <path>. A
// writer destroyed without commit() removes the temporary file, so a failed import never leaves output behind.
// Producers that must survive their own process being killed (the capture) set crashSafePartial: the file is
// then "<path>.partial", a name their parent can find, and they call flush() periodically: what was flushed is
// a valid trace in the .partial file, which their parent can finish.
//
// Not thread-safe: one writer, used from one thread (with backgroundWriting, the writer's own thread runs the
// inserts; flush(), commit() and the other calls that use the connection wait for it first). add() never fails
// loudly; the first SQLite error is kept and returned by flush()/commit().
#pragma once

#include "profiler/base/output_file.h"
#include "profiler/base/status.h"
#include "profiler/model/trace_events.h"
#include "profiler/store/sqlite_db.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace placescope {

inline constexpr int kTraceSchemaVersion = 1;
// The name a kernel without one is stored under (counted as trace.unnamed_kernel in PS_PROBLEMS).
inline constexpr const char* kUnnamedKernel = "[unnamed kernel]";
std::string_view placescopeVersion();

enum class ProblemSeverity
{
    Info,
    Error,
    DataLoss
};
std::string_view problemSeverityName(ProblemSeverity severity);

struct TraceWriterOptions
{
    // Journals the .partial file in WAL mode so that whatever flush() committed survives the writing process
    // being killed at any moment (SIGKILL, a crash), even during a flush. Used by the capture's part files.
    // Only flush() commits then, so what survives is always whole flushes.
    bool crashSafePartial = false;
    // Runs the SQLite inserts on a background thread so that parsing the input and writing the file overlap
    // (the importers). add() still returns at once and string ids are still assigned synchronously.
    bool backgroundWriting = false;
};

class OrderedWorker;
class RowInserts;
template <typename Row> class BatchedInsert;

class TraceWriter
{
public:
    static Result<std::unique_ptr<TraceWriter>> create(const std::string& path, TraceWriterOptions options = {});
    // Writes into `output`, made by a caller that checked it against its inputs (importTraces).
    static Result<std::unique_ptr<TraceWriter>> create(OutputFile output, TraceWriterOptions options = {});
    ~TraceWriter();
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    // The StringIds id of `text`, added if new. A new string takes `preferredId` when no other string has it (an
    // nsys import keeps the export's ids, which users' scripts may hold), else the next free id.
    int64_t internString(std::string_view text, OptInt preferredId = std::nullopt);

    // Rows are taken by value: a caller done with a row moves it in, and it reaches the writer's thread without
    // a copy (names are interned here, so their text is not carried along).
    void add(KernelEvent event);
    void add(MemcpyEvent event);
    void add(MemsetEvent event);
    void add(RuntimeEvent event);
    void add(SyncEvent event);
    void add(CudaEventRecord record);
    void add(NvtxEvent event);
    void add(GpuMemoryEvent event);
    void add(OverheadEvent event);
    void add(const GpuInfo& gpu);
    // PS_PROCESSES, and PROCESSES the first time the process is seen.
    void add(const ProcessInfo& process);
    // PROCESSES only: a process of the recorded machine that has no events (nsys exports list every process).
    void addProcessName(const ProcessInfo& process);
    // OSRT_API (an nsys export's OS runtime calls).
    void add(OsRuntimeCall call);
    // TARGET_INFO_CUDA_CONTEXT_INFO / TARGET_INFO_CUDA_STREAM, each row as given.
    void add(const CudaContextInfo& context);
    void add(const CudaStreamInfo& stream);
    // ThreadNames (when named) and PS_THREADS.
    void add(const ThreadInfo& thread);
    // ThreadNames only: a named thread that has no events (nsys exports name every thread they saw).
    void addThreadName(const ThreadInfo& thread);
    void add(FrameworkOp op);
    void add(const ExternalCorrelation& link);
    void add(MemoryEvent event);
    void add(FlowEvent flow);
    void add(const StepRange& step);
    void add(DiagnosticEvent event);
    void add(GpuAnnotation annotation);
    void add(CounterSample sample);
    // Kept only under the names system_facts.h lists (never the program's environment); returns whether kept.
    bool add(const SystemFact& fact);
    // TARGET_INFO_SESSION_START_TIME. Without it the row comes from the meta key trace_base_time_ns, if set.
    void setSessionStart(SessionStart start) { m_sessionStart = std::move(start); }
    // ANALYSIS_DETAILS. Without it commit() writes the span of the events added.
    void setAnalysisSpan(const AnalysisSpan& span) { m_analysisSpan = span; }

    void setMeta(std::string_view key, std::string_view value);
    // A META_DATA_EXPORT row of the source (an nsys export's own EXPORT_* rows); without any, the file gets
    // Placescope's (product, and the nsys schema version whose names it follows).
    void addExportMeta(std::string name, std::string value)
    {
        m_exportMeta.emplace_back(std::move(name), std::move(value));
    }
    // Counts one bad or unusual record of `kind` ('kineto.bad_timestamp'); the help text says what it means
    // for the user. The first example is kept (truncated to 200 bytes).
    void countProblem(std::string_view kind, ProblemSeverity severity, std::string_view help,
        std::string_view example = {}, int64_t count = 1);
    int64_t problemCount(std::string_view kind) const;
    int64_t totalProblemCount() const; // of every kind
    // The kinds of one severity with their counts, by kind (the import summary names the records it lost).
    std::vector<std::pair<std::string, int64_t>> problemCounts(ProblemSeverity severity) const;
    uint64_t eventCount() const { return m_eventCount.load(std::memory_order_relaxed); }

    // Commits what was added so far (in the .partial file) and opens a new transaction.
    Status flush();
    // Runs `work` on the writer's connection outside any transaction (ATTACH needs that, e.g. to merge other
    // trace files in bulk): commits what was added so far, runs work, then opens a new transaction. Strings that
    // work stores must come from internString() so the writer's string table stays consistent.
    Status withConnection(const std::function<Status(SqliteDb&)>& work);
    // Commits what was added and closes the file, leaving it as "<path>.partial" for another process to read
    // (the capture's parent merges such parts). The writer cannot be used afterwards.
    Status closePartial();
    // Finishes the file and moves it to its final path. The writer cannot be used afterwards.
    Status commit();
    const std::string& path() const { return m_path; }
    const std::string& partialPath() const { return m_partialPath; } // the file written until commit()

private:
    TraceWriter() = default;
    // Hands `row` to its table's batched insert, now or on the background thread. Strings are not events.
    template <typename Row> void queue(BatchedInsert<Row>& table, Row&& row, bool isEvent = true);
    // Writes every queued row, including those waiting for a full multi-row statement (before the connection
    // is used from this thread).
    void settle();
    void closeStatements();
    Status writeProblemsAndMeta();
    // The run description written once the events are in: problems as DIAGNOSTIC_EVENT rows, ANALYSIS_DETAILS,
    // TARGET_INFO_SESSION_START_TIME.
    Status writeRunDescription();
    // Drops the nsys-named tables that got no row, as nsys creates a table only for data it has.
    Status dropEmptyTables();
    void noteSpan(TimeNs start, TimeNs end)
    {
        m_firstStart = std::min(m_firstStart, start);
        m_lastEnd = std::max(m_lastEnd, end);
    }

    struct Problem
    {
        ProblemSeverity severity;
        int64_t count = 0;
        std::string help;
        std::string example;
    };

    SqliteDb m_db;
    std::string m_path;
    std::string m_partialPath;
    std::unique_ptr<OutputFile> m_output; // null once committed or closed as a partial file
    Status m_firstError;
    std::atomic<uint64_t> m_eventCount = 0;
    uint64_t m_commitEveryRows = 0; // 0: only flush() and commit() commit
    uint64_t m_rowsSinceCommit = 0; // on the writing thread
    std::unique_ptr<RowInserts> m_inserts;
    struct StringHash
    {
        using is_transparent = void;
        size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
    };
    // Looked up by string_view: no allocation for a string seen before (nearly every event's name).
    std::unordered_map<std::string, int64_t, StringHash, std::equal_to<>> m_strings;
    std::unordered_map<int64_t, int64_t> m_shortNameIds; // demangled name id -> derived short name id
    std::unordered_set<int64_t> m_takenStringIds;
    int64_t m_nextStringId = 0;
    std::unordered_set<int64_t> m_listedProcesses; // globalPids written to PROCESSES
    std::optional<SessionStart> m_sessionStart;
    std::optional<AnalysisSpan> m_analysisSpan;
    std::vector<std::pair<std::string, std::string>> m_exportMeta;
    TimeNs m_firstStart = std::numeric_limits<TimeNs>::max(); // span of the events added
    TimeNs m_lastEnd = std::numeric_limits<TimeNs>::min();
    std::map<std::string, std::string, std::less<>> m_meta;
    std::map<std::string, Problem, std::less<>> m_problems;
    std::unique_ptr<OrderedWorker> m_worker; // declared last: stopped before the statements and the connection
};

} // namespace placescope
