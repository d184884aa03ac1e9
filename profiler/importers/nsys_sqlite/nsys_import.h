// SPDX-License-Identifier: MIT
// Internal to the nsys SQLite importer: one import of one export file. nsys_sqlite_importer.cpp holds the
// driver, metadata and host-side tables; nsys_gpu_activity.cpp the GPU activity tables. Used on one thread.
#pragma once

#include "profiler/importers/importer.h"
#include "profiler/importers/nsys_sqlite/nsys_table.h"
#include "profiler/model/trace_events.h"
#include "profiler/store/trace_writer.h"

#include <set>

namespace placescope::nsys {

// Problem kinds this importer records (PS_PROBLEMS.kind) and what they mean for the user.
inline constexpr const char* kBadInterval = "nsys.bad_interval";
inline constexpr const char* kBadIntervalHelp
    = "rows with no start or end time, ending before they start, or with a time beyond 2^62 ns (146 years: a "
      "damaged cell) were skipped";
// nsys times count from the session's start (or from the epoch): a time beyond this, such as INT64_MAX, is no
// time of a run, and would stretch the trace's span to centuries.
inline constexpr int64_t kFarTimeNs = int64_t(1) << 62;
inline constexpr const char* kMissingLane = "nsys.missing_lane";
inline constexpr const char* kMissingLaneHelp = "GPU activity rows without a device or stream id were skipped";
inline constexpr const char* kMissingName = "nsys.missing_name";
inline constexpr const char* kMissingNameHelp
    = "the row's name id is not in StringIds; the row was kept with the name '[unknown]'";
inline constexpr const char* kNotANumber = "nsys.not_a_number";
inline constexpr const char* kNotANumberHelp
    = "cells holding text where the export has numbers (ids, times, sizes) were read as missing, not as 0; "
      "the rows they decide (an interval, a stream) may have been skipped";
inline constexpr const char* kMissingThread = "nsys.missing_thread";
inline constexpr const char* kMissingThreadHelp = "host API rows without a thread id (globalTid) were skipped";

class NsysImport
{
public:
    NsysImport(SqliteDb& db, TraceWriter& writer, const ImportOptions& options, uint64_t fileBytes)
        : m_db(db)
        , m_writer(writer)
        , m_options(options)
        , m_fileBytes(fileBytes)
    { }

    Status run();

private:
    void countRows();
    Status tick();
    bool validInterval(std::optional<int64_t> start, std::optional<int64_t> end, const char* table);
    std::string name(const NsysTable& table, int column, const char* what);
    OptInt process(OptInt globalPid);
    // NsysTable::open with text in a number column counted as a problem (kNotANumber, example table.column).
    Result<NsysTable> openTable(
        const std::string& table, const std::vector<NsysTable::Column>& columns, const std::string& orderBy = {});
    int64_t thread(int64_t globalTid);

    Status importMeta();
    Status importRunDescription();
    Status importGpus();
    Status importContextsAndStreams();
    Status importEarlyGpuTable();
    Status importKernels();
    Status importMemcpys();
    Status importMemsets();
    std::set<int64_t> driverEventClasses();
    Status importApiCalls(const char* table, std::optional<ApiClass> forcedClass);
    Status importSyncs();
    Status importCudaEvents();
    Status importNvtx();
    Status importGpuMemory();
    Status importOverhead();
    Status importOsRuntime();
    Status importProcessesAndThreads();

    SqliteDb& m_db;
    TraceWriter& m_writer;
    const ImportOptions& m_options;
    uint64_t m_fileBytes = 0;
    uint64_t m_totalRows = 0;
    uint64_t m_doneRows = 0;
    std::set<int64_t> m_processes; // normalized globalPid / globalTid the events refer to
    std::set<int64_t> m_threads;
};

} // namespace placescope::nsys
