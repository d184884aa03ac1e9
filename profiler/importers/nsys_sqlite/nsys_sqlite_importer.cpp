// SPDX-License-Identifier: MIT
// Nsight Systems SQLite export -> trace. The export's tables and columns vary by nsys version, so every table
// is read through NsysTable (missing columns read as NULL, missing tables are skipped). Enum ids are nsys's
// already and are copied as they are; names keep the export's StringIds ids (users' scripts may hold them), and
// serialized process/thread ids keep the export's values, hardware and VM bits included.
// Never read: ProcessStreams, META_DATA_CAPTURE and the other tables that hold the traced program's environment,
// command line or output; of TARGET_INFO_SYSTEM_ENV only the system facts system_facts.h lists.
#include "profiler/importers/nsys_sqlite/nsys_import.h"
#include "profiler/store/trace_file.h"

#include <filesystem>
#include <map>
#include <utility>

namespace placescope {
namespace nsys {

namespace {
constexpr const char* kViewInsteadOfTable = "nsys.view_instead_of_table";
constexpr const char* kViewInsteadOfTableHelp
    = "The export has a view where Nsight Systems writes a table. A view can compute anything (and may never end), so "
      "it was not read: its events are missing. Export again with nsys export, or make it a table.";
constexpr const char* kActivityTables[] = {
    "CUPTI_ACTIVITY_KIND_KERNEL",
    "CUPTI_ACTIVITY_KIND_MEMCPY",
    "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_RUNTIME",
    "CUPTI_ACTIVITY_KIND_DRIVER",
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
    "CUPTI_ACTIVITY_KIND_CUDA_EVENT",
    "NVTX_EVENTS",
    "CUDA_GPU_MEMORY_USAGE_EVENTS",
    "PROFILER_OVERHEAD",
    "OSRT_API",
};
} // namespace

Status NsysImport::run()
{
    countRows();
    PLACESCOPE_RETURN_IF_ERROR(importMeta());
    PLACESCOPE_RETURN_IF_ERROR(importGpus());
    PLACESCOPE_RETURN_IF_ERROR(importContextsAndStreams());
    PLACESCOPE_RETURN_IF_ERROR(importKernels());
    PLACESCOPE_RETURN_IF_ERROR(importMemcpys());
    PLACESCOPE_RETURN_IF_ERROR(importMemsets());
    PLACESCOPE_RETURN_IF_ERROR(importApiCalls("CUPTI_ACTIVITY_KIND_RUNTIME", std::nullopt));
    PLACESCOPE_RETURN_IF_ERROR(importApiCalls("CUPTI_ACTIVITY_KIND_DRIVER", ApiClass::Driver));
    PLACESCOPE_RETURN_IF_ERROR(importSyncs());
    PLACESCOPE_RETURN_IF_ERROR(importCudaEvents());
    PLACESCOPE_RETURN_IF_ERROR(importNvtx());
    PLACESCOPE_RETURN_IF_ERROR(importGpuMemory());
    PLACESCOPE_RETURN_IF_ERROR(importOverhead());
    PLACESCOPE_RETURN_IF_ERROR(importOsRuntime());
    return importProcessesAndThreads();
}

void NsysImport::countRows()
{
    for (const char* table : kActivityTables) {
        if (m_db.hasView(table))
            m_writer.countProblem(kViewInsteadOfTable, ProblemSeverity::DataLoss, kViewInsteadOfTableHelp, table);
        if (!m_db.hasTable(table))
            continue;
        auto count = m_db.queryInt("SELECT COUNT(*) FROM " + quoteIdentifier(table));
        if (count.isOk())
            m_totalRows += static_cast<uint64_t>(*count);
    }
}

Status NsysImport::tick()
{
    ++m_doneRows;
    if ((m_doneRows & 4095) == 0 && m_options.cancel && m_options.cancel->isCancelled())
        return Status::error("import cancelled");
    if (m_options.progress && m_totalRows && m_doneRows % (m_totalRows / 1000 + 1) == 0)
        m_options.progress(m_doneRows * m_fileBytes / m_totalRows, m_fileBytes);
    return Status::ok();
}

bool NsysImport::validInterval(std::optional<int64_t> start, std::optional<int64_t> end, const char* table)
{
    if (start && end && *end >= *start && *start > -kFarTimeNs && *end < kFarTimeNs)
        return true;
    m_writer.countProblem(kBadInterval, ProblemSeverity::DataLoss, kBadIntervalHelp,
        std::string(table) + " start=" + (start ? std::to_string(*start) : "NULL")
            + " end=" + (end ? std::to_string(*end) : "NULL"));
    return false;
}

std::string NsysImport::name(const NsysTable& table, int column, const char* what)
{
    if (auto text = table.string(column)) {
        m_writer.internString(*text, table.integer(column)); // under the export's id
        return *text;
    }
    m_writer.countProblem(
        kMissingName, ProblemSeverity::Info, kMissingNameHelp, std::string(what) + " id=" + table.text(column));
    return "[unknown]";
}

Result<NsysTable> NsysImport::openTable(
    const std::string& table, const std::vector<NsysTable::Column>& columns, const std::string& orderBy)
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable opened, NsysTable::open(m_db, table, columns, orderBy));
    opened.onNotNumber([this, table](const std::string& column) {
        m_writer.countProblem(kNotANumber, ProblemSeverity::DataLoss, kNotANumberHelp, table + "." + column);
    });
    return opened;
}

OptInt NsysImport::process(OptInt globalPid)
{
    if (!globalPid)
        return std::nullopt;
    m_processes.insert(*globalPid);
    return globalPid;
}

int64_t NsysImport::thread(int64_t globalTid)
{
    m_processes.insert(globalTid - tidOfGlobalTid(globalTid));
    m_threads.insert(globalTid);
    return globalTid;
}

Status NsysImport::importMeta()
{
    m_writer.setMeta("source_format", "nsys_sqlite");
    if (m_db.hasTable("META_DATA_EXPORT")) {
        PLACESCOPE_ASSIGN_OR_RETURN(auto stmt,
            m_db.prepare("SELECT name, value FROM META_DATA_EXPORT WHERE name"
                         " IN ('EXPORT_SCHEMA_VERSION', 'EXPORT_PRODUCT_VERSION')"));
        while (stmt.step()) {
            std::string key
                = stmt.columnText(0) == "EXPORT_SCHEMA_VERSION" ? "nsys_export_version" : "nsys_product_version";
            m_writer.setMeta(key, stmt.columnText(1));
        }
        PLACESCOPE_RETURN_IF_ERROR(stmt.status());
    }
    // The export's description of itself, for scripts that check its schema version: the EXPORT_* rows only (the
    // first input's, for a multi-file import).
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable exportMeta, openTable("META_DATA_EXPORT", { { "name" }, { "value" } }));
    while (exportMeta.next())
        if (m_options.inputIndex == 0 && exportMeta.text(0).rfind("EXPORT_", 0) == 0)
            m_writer.addExportMeta(exportMeta.text(0), exportMeta.text(1));
    PLACESCOPE_RETURN_IF_ERROR(exportMeta.status());
    PLACESCOPE_ASSIGN_OR_RETURN(
        NsysTable start, openTable("TARGET_INFO_SESSION_START_TIME", { { "utcEpochNs" }, { "localTime" } }));
    if (start.next())
        if (auto epoch = start.integer(0)) {
            m_writer.setMeta("trace_base_time_ns", std::to_string(*epoch));
            m_writer.setSessionStart(SessionStart { *epoch, start.text(1) });
        }
    PLACESCOPE_RETURN_IF_ERROR(start.status());
    return importRunDescription();
}

// The export's own description of the run, for the scripts that read it: its span, its diagnostics, the machine's
// system facts (only those system_facts.h lists: this table also holds the program's environment).
Status NsysImport::importRunDescription()
{
    PLACESCOPE_ASSIGN_OR_RETURN(
        NsysTable details, openTable("ANALYSIS_DETAILS", { { "globalVid" }, { "startTime" }, { "stopTime" } }));
    if (details.next() && details.integer(1) && details.integer(2))
        m_writer.setAnalysisSpan(
            AnalysisSpan { details.integer(0).value_or(kLocalVmId), *details.integer(1), *details.integer(2) });
    PLACESCOPE_RETURN_IF_ERROR(details.status());

    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable diagnostics,
        openTable("DIAGNOSTIC_EVENT",
            { { "timestamp" }, { "timestampType" }, { "source" }, { "severity" }, { "text" }, { "globalPid" } }));
    while (diagnostics.next())
        m_writer.add(DiagnosticEvent { diagnostics.integer(0).value_or(0), diagnostics.integer(1).value_or(0),
            diagnostics.integer(2).value_or(0), diagnostics.integer(3).value_or(0), diagnostics.text(4),
            diagnostics.integer(5) });
    PLACESCOPE_RETURN_IF_ERROR(diagnostics.status());

    PLACESCOPE_ASSIGN_OR_RETURN(
        NsysTable facts, openTable("TARGET_INFO_SYSTEM_ENV", { { "globalVid" }, { "name" }, { "value" } }));
    while (facts.next())
        m_writer.add(SystemFact { facts.text(1), facts.text(2), facts.integer(0).value_or(kLocalVmId) });
    // The export's PROCESSES lists every process on the machine (systemd, kernel workers, other users' jobs: 1,770
    // rows in the CloverLeaf export); a trace lists the processes of the run, those its events belong to, which
    // importProcessesAndThreads writes with their names.
    return facts.status();
}

// The export's CUDA contexts and streams, row for row: scripts name stream tracks and tell default from
// non-blocking streams with them.
Status NsysImport::importContextsAndStreams()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable contexts,
        openTable("TARGET_INFO_CUDA_CONTEXT_INFO",
            { { "nullStreamId" }, { "hwId" }, { "vmId" }, { "processId" }, { "deviceId" }, { "contextId" },
                { "parentContextId" }, { "isGreenContext" } }));
    while (contexts.next()) {
        if (!contexts.integer(3) || !contexts.integer(4) || !contexts.integer(5))
            continue;
        m_writer.add(CudaContextInfo { contexts.integer(0).value_or(0), contexts.integer(1).value_or(0),
            contexts.integer(2).value_or(1), *contexts.integer(3), *contexts.integer(4), *contexts.integer(5),
            contexts.integer(6), contexts.integer(7) });
    }
    PLACESCOPE_RETURN_IF_ERROR(contexts.status());
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable streams,
        openTable("TARGET_INFO_CUDA_STREAM",
            { { "streamId" }, { "hwId" }, { "vmId" }, { "processId" }, { "contextId" }, { "priority" }, { "flag" } }));
    while (streams.next()) {
        if (!streams.integer(0) || !streams.integer(3) || !streams.integer(4))
            continue;
        m_writer.add(CudaStreamInfo { *streams.integer(0), streams.integer(1).value_or(0),
            streams.integer(2).value_or(1), *streams.integer(3), *streams.integer(4), streams.integer(5).value_or(0),
            streams.integer(6).value_or(0) });
    }
    return streams.status();
}

Status NsysImport::importGpus()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("TARGET_INFO_GPU",
            { { "id" }, { "name" }, { "busLocation" }, { "uuid" }, { "totalMemory" }, { "memoryBandwidth" },
                { "clockRate" }, { "smCount" }, { "l2CacheSize" }, { "computeMajor" }, { "computeMinor" },
                { "maxThreadsPerBlock" }, { "maxRegistersPerBlock" }, { "maxShmemPerBlock" },
                { "maxShmemPerBlockOptin" }, { "maxShmemPerSm" }, { "maxRegistersPerSm" }, { "threadsPerWarp" },
                { "maxWarpsPerSm" }, { "asyncEngines" }, { "constantMemory" }, { "maxBlocksPerSm" }, { "maxBlockDimX" },
                { "maxBlockDimY" }, { "maxBlockDimZ" }, { "maxGridDimX" }, { "maxGridDimY" }, { "maxGridDimZ" },
                { "smMajor" }, { "smMinor" }, { "isDiscrete" }, { "vmId" }, { "chipName" }, { "pwGpuId" }, { "luid" },
                { "revision" }, { "nodeMask" }, { "maxIPC" }, { "ctxswDevPath" }, { "ctrlDevPath" }, { "cuDevice" } },
            "id"));
    while (t.next()) {
        GpuInfo gpu;
        gpu.id = t.integer(0).value_or(0);
        gpu.name = t.text(1);
        gpu.busLocation = t.text(2);
        gpu.uuid = t.text(3);
        OptInt* fields[] = { &gpu.totalMemory, &gpu.memoryBandwidth, &gpu.clockRate, &gpu.smCount, &gpu.l2CacheSize,
            &gpu.computeMajor, &gpu.computeMinor, &gpu.maxThreadsPerBlock, &gpu.maxRegistersPerBlock,
            &gpu.maxShmemPerBlock, &gpu.maxShmemPerBlockOptin, &gpu.maxShmemPerSm, &gpu.maxRegistersPerSm,
            &gpu.threadsPerWarp, &gpu.maxWarpsPerSm, &gpu.asyncEngines };
        for (int i = 0; i < 16; ++i)
            *fields[i] = t.integer(4 + i);
        OptInt* more[] = { &gpu.constantMemory, &gpu.maxBlocksPerSm, &gpu.maxBlockDimX, &gpu.maxBlockDimY,
            &gpu.maxBlockDimZ, &gpu.maxGridDimX, &gpu.maxGridDimY, &gpu.maxGridDimZ, &gpu.smMajor, &gpu.smMinor,
            &gpu.isDiscrete, &gpu.vmId };
        for (int i = 0; i < 12; ++i)
            *more[i] = t.integer(20 + i);
        gpu.chipName = t.text(32);
        gpu.pwGpuId = t.integer(33);
        gpu.luid = t.integer(34);
        gpu.revision = t.integer(35);
        gpu.nodeMask = t.integer(36);
        gpu.maxIPC = t.integer(37);
        gpu.ctxswDevPath = t.text(38);
        gpu.ctrlDevPath = t.text(39);
        gpu.cuDevice = t.integer(40);
        m_writer.add(gpu);
    }
    PLACESCOPE_RETURN_IF_ERROR(t.status());
    return t.exists() ? Status::ok() : importEarlyGpuTable();
}

// Exports from early 2021 and before name the table TARGET_INFO_CUDA_GPU, keyed by deviceId, with CUDA's
// property names (numMultiprocessors, computeCapabilityMajor...).
Status NsysImport::importEarlyGpuTable()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("TARGET_INFO_CUDA_GPU",
            { { "deviceId" }, { "id" }, { "name" }, { "busLocation" }, { "uuid" }, { "totalMemory" },
                { "numMultiprocessors" }, { "computeCapabilityMajor" }, { "computeCapabilityMinor" },
                { "numThreadsPerWarp" }, { "maxWarpsPerMultiprocessor" }, { "l2CacheSize" } }));
    while (t.next()) {
        GpuInfo gpu;
        gpu.id = t.integer(0).value_or(t.integer(1).value_or(0));
        gpu.name = t.text(2);
        gpu.busLocation = t.text(3);
        gpu.uuid = t.text(4);
        gpu.totalMemory = t.integer(5);
        gpu.smCount = t.integer(6);
        gpu.computeMajor = t.integer(7);
        gpu.computeMinor = t.integer(8);
        gpu.threadsPerWarp = t.integer(9);
        gpu.maxWarpsPerSm = t.integer(10);
        gpu.l2CacheSize = t.integer(11);
        m_writer.add(gpu);
    }
    return t.status();
}

std::set<int64_t> NsysImport::driverEventClasses()
{
    std::set<int64_t> ids;
    auto stmt = m_db.prepare("SELECT id FROM ENUM_NSYS_EVENT_CLASS WHERE name LIKE '%CUDA_DRIVER%'");
    if (stmt.isOk())
        while (stmt->step())
            ids.insert(stmt->columnInt(0));
    if (!m_db.hasTable("ENUM_NSYS_EVENT_CLASS"))
        ids.insert(1); // TRACE_PROCESS_EVENT_CUDA_DRIVER in every export seen
    return ids;
}

Status NsysImport::importApiCalls(const char* table, std::optional<ApiClass> forcedClass)
{
    std::set<int64_t> driverClasses = driverEventClasses();
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable(table,
            { { "start" }, { "end" }, { "eventClass" }, { "globalTid" }, { "correlationId" }, { "nameId", true },
                { "returnValue" } },
            "start"));
    while (t.next()) {
        PLACESCOPE_RETURN_IF_ERROR(tick());
        if (!validInterval(t.integer(0), t.integer(1), table))
            continue;
        if (!t.integer(3)) {
            m_writer.countProblem(kMissingThread, ProblemSeverity::DataLoss, kMissingThreadHelp, table);
            continue;
        }
        RuntimeEvent r;
        r.start = *t.integer(0);
        r.end = *t.integer(1);
        OptInt eventClass = t.integer(2);
        r.eventClass = forcedClass.value_or(
            eventClass && driverClasses.count(*eventClass) ? ApiClass::Driver : ApiClass::Runtime);
        r.globalTid = thread(*t.integer(3));
        r.correlationId = t.integer(4);
        r.name = name(t, 5, "API call nameId");
        r.returnValue = t.integer(6);
        m_writer.add(std::move(r));
    }
    return t.status();
}

// OS runtime calls, row for row, for the scripts that read them (nsys's osrt_sum, nsys2prv's pthread rows). Their
// threads are not added to PS_THREADS: Placescope's timeline and rules do not read this table.
Status NsysImport::importOsRuntime()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("OSRT_API",
            { { "start" }, { "end" }, { "eventClass" }, { "globalTid" }, { "nameId", true }, { "returnValue" },
                { "nestingLevel" }, { "callchainId" } },
            "start"));
    while (t.next()) {
        PLACESCOPE_RETURN_IF_ERROR(tick());
        if (!validInterval(t.integer(0), t.integer(1), "OSRT_API"))
            continue;
        OsRuntimeCall call;
        call.start = *t.integer(0);
        call.end = *t.integer(1);
        call.eventClass = t.integer(2).value_or(27);
        call.globalTid = t.integer(3);
        call.name = name(t, 4, "OS runtime call nameId");
        call.returnValue = t.integer(5).value_or(0);
        call.nestingLevel = t.integer(6);
        call.callchainId = t.integer(7).value_or(0);
        m_writer.add(std::move(call));
    }
    return t.status();
}

Status NsysImport::importNvtx()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("NVTX_EVENTS",
            { { "start" }, { "end" }, { "eventType" }, { "rangeId" }, { "category" }, { "color" }, { "text" },
                { "textId", true }, { "globalTid" }, { "domainId" } },
            "start"));
    while (t.next()) {
        PLACESCOPE_RETURN_IF_ERROR(tick());
        OptInt start = t.integer(0);
        OptInt end = t.integer(1);
        if (!start || (end && *end < *start)) {
            validInterval(start, end, "NVTX_EVENTS");
            continue;
        }
        NvtxEvent n;
        n.start = *start;
        n.end = end;
        n.eventType = t.integer(2).value_or(end ? 59 : 34);
        n.rangeId = t.integer(3);
        n.category = t.integer(4);
        n.color = t.integer(5);
        // Kept where the export has it: inline text in `text`, registered strings in StringIds (textId).
        n.text = t.text(6);
        if (n.text.empty())
            if (auto registered = t.string(7)) {
                m_writer.internString(*registered, t.integer(7));
                n.text = std::move(*registered);
                n.textRegistered = true;
            }
        if (auto tid = t.integer(8))
            n.globalTid = thread(*tid);
        n.domainId = t.integer(9);
        m_writer.add(std::move(n));
    }
    return t.status();
}

Status NsysImport::importOverhead()
{
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable t,
        openTable("PROFILER_OVERHEAD",
            { { "start" }, { "end" }, { "globalTid" }, { "nameId", true }, { "returnValue" } }, "start"));
    while (t.next()) {
        PLACESCOPE_RETURN_IF_ERROR(tick());
        if (!validInterval(t.integer(0), t.integer(1), "PROFILER_OVERHEAD"))
            continue;
        OverheadEvent o;
        o.start = *t.integer(0);
        o.end = *t.integer(1);
        if (auto tid = t.integer(2))
            o.globalTid = thread(*tid);
        o.name = name(t, 3, "overhead nameId");
        o.returnValue = t.integer(4);
        m_writer.add(std::move(o));
    }
    return t.status();
}

Status NsysImport::importProcessesAndThreads()
{
    std::map<int64_t, std::string> processNames;
    PLACESCOPE_ASSIGN_OR_RETURN(NsysTable processes, openTable("PROCESSES", { { "globalPid" }, { "name" } }));
    while (processes.next())
        if (auto gpid = processes.integer(0))
            processNames[*gpid] = processes.text(1);
    PLACESCOPE_RETURN_IF_ERROR(processes.status());
    std::map<int64_t, std::pair<std::string, OptInt>> threadNames; // name and priority
    PLACESCOPE_ASSIGN_OR_RETURN(
        NsysTable names, openTable("ThreadNames", { { "globalTid" }, { "nameId", true }, { "priority" } }));
    while (names.next())
        if (auto gtid = names.integer(0); gtid && names.string(1)) {
            m_writer.internString(*names.string(1), names.integer(1));
            threadNames[*gtid] = { *names.string(1), names.integer(2) };
        }
    PLACESCOPE_RETURN_IF_ERROR(names.status());
    for (int64_t gpid : m_processes) {
        ProcessInfo p;
        p.globalPid = gpid;
        p.pid = pidOfGlobalId(gpid);
        p.rank = m_options.rank;
        if (auto found = processNames.find(gpid); found != processNames.end())
            p.name = found->second;
        m_writer.add(p);
    }
    auto threadOf = [](int64_t gtid) {
        return ThreadInfo { gtid, gtid - tidOfGlobalTid(gtid), tidOfGlobalTid(gtid), std::string(), std::nullopt };
    };
    for (int64_t gtid : m_threads) {
        ThreadInfo t = threadOf(gtid);
        if (auto found = threadNames.find(gtid); found != threadNames.end()) {
            t.name = found->second.first;
            t.priority = found->second.second;
        }
        m_writer.add(t);
    }
    // Named threads without events (nsys's own threads, idle workers) keep their ThreadNames row as in the export.
    for (const auto& [gtid, name] : threadNames) {
        if (m_threads.count(gtid))
            continue;
        ThreadInfo t = threadOf(gtid);
        t.name = name.first;
        t.priority = name.second;
        m_writer.addThreadName(t);
    }
    return Status::ok();
}

} // namespace nsys

Status importNsysSqlite(const std::string& path, TraceWriter& writer, const ImportOptions& options)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::open(path, SqliteDb::Mode::ReadOnly));
    if (!looksLikeNsysExport(db))
        return Status::error(path + " is a SQLite file but not an Nsight Systems export");
    std::error_code error;
    uint64_t bytes = std::filesystem::file_size(path, error);
    nsys::NsysImport import(db, writer, options, error ? 0 : bytes);
    PLACESCOPE_RETURN_IF_ERROR(import.run());
    writer.setMeta("source_file",
        std::filesystem::path(options.sourceName.empty() ? path : options.sourceName).filename().string());
    return Status::ok();
}

} // namespace placescope
