// SPDX-License-Identifier: MIT
// Queries users run on nsys exports (tests/data/nsys_queries, with their sources) run unchanged on the real nsys
// export and on our import of it, through a plain SQLite connection as a user's sqlite3 or script would open the
// file, and must give the same rows. Also: NVTX text as nsys stores it (inline or registered), the export's ids,
// tables only for data the trace has, and the queries whose tables a Kineto import has run on it.
#include "profiler/importers/importer.h"
#include "profiler/store/sqlite_db.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace placescope {
namespace {

const std::string kCloverleaf
    = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
const std::string kQueries = std::string(PLACESCOPE_DATA_DIR) + "/nsys_queries";

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Every row of `sql`, each as its columns joined by '|'; an error is returned as one "error: ..." row.
std::vector<std::string> rowsOf(SqliteDb& db, const std::string& sql)
{
    auto statement = db.prepare(sql);
    if (!statement.isOk())
        return { "error: " + statement.status().message() };
    std::vector<std::string> rows;
    while (statement->step()) {
        std::string row;
        for (int c = 0; c < statement->columnCount(); ++c)
            row += (c ? "|" : "") + (statement->isNull(c) ? std::string("NULL") : statement->columnText(c));
        rows.push_back(row);
    }
    if (!statement->status().isOk())
        rows.push_back("error: " + statement->status().message());
    return rows;
}

class NsysQueryCompat : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path()
            / ("ps_nsysq_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(m_dir);
        m_out = (m_dir / "ours.sqlite").string();
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    // Opened as a user opens it: plain SQLite, no Placescope stand-ins.
    static SqliteDb openPlain(const std::string& path)
    {
        auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
        EXPECT_TRUE(db.isOk()) << path;
        return std::move(*db);
    }

    std::filesystem::path m_dir;
    std::string m_out;
};

TEST_F(NsysQueryCompat, EveryCollectedQueryGivesTheExportsRowsOnOurImport)
{
    ASSERT_TRUE(importTraces({ kCloverleaf }, m_out, {}).isOk());
    SqliteDb original = openPlain(kCloverleaf);
    SqliteDb ours = openPlain(m_out);
    int queries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kQueries)) {
        if (entry.path().extension() != ".sql")
            continue;
        ++queries;
        const std::string sql = readFile(entry.path());
        std::vector<std::string> expected = rowsOf(original, sql);
        ASSERT_FALSE(expected.empty()) << entry.path().filename() << " gives no row on the export: it proves nothing";
        ASSERT_EQ(expected[0].rfind("error: ", 0), std::string::npos) << entry.path().filename() << ": " << expected[0];
        EXPECT_EQ(rowsOf(ours, sql), expected) << entry.path().filename();
    }
    EXPECT_GE(queries, 34);
}

TEST_F(NsysQueryCompat, RawIdsAndNamesAreTheExports)
{
    ASSERT_TRUE(importTraces({ kCloverleaf }, m_out, {}).isOk());
    SqliteDb ours = openPlain(m_out);
    // The CUDA process as nsys serializes it: VM 1 in bits 48+, pid 1701896 in bits 24-47.
    EXPECT_EQ(rowsOf(ours, "SELECT DISTINCT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL"),
        std::vector<std::string> { std::to_string((int64_t(1) << 48) + int64_t(1701896) * 16777216) });
    EXPECT_EQ(rowsOf(ours, "SELECT globalPid, pid FROM PS_PROCESSES"),
        std::vector<std::string> { "310028053512192|1701896" });
    // Every string id our rows use names the same text as in the export.
    ASSERT_TRUE(ours.exec("ATTACH DATABASE '" + kCloverleaf + "' AS nsys").isOk()) << ours.lastError();
    EXPECT_EQ(
        rowsOf(ours, "SELECT COUNT(*) FROM StringIds s JOIN nsys.StringIds n ON n.id = s.id AND n.value <> s.value"),
        std::vector<std::string> { "0" });
    EXPECT_EQ(rowsOf(ours,
                  "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
                  " WHERE k.demangledName NOT IN (SELECT id FROM nsys.StringIds)"),
        std::vector<std::string> { "0" });
    // ThreadNames: every row of the export, raw ids and priority included.
    const std::vector<std::string> exportThreads
        = rowsOf(ours, "SELECT nameId, priority, globalTid FROM nsys.ThreadNames ORDER BY globalTid, nameId");
    EXPECT_EQ(exportThreads.size(), 6u);
    EXPECT_EQ(
        rowsOf(ours, "SELECT nameId, priority, globalTid FROM ThreadNames ORDER BY globalTid, nameId"), exportThreads);
}

// nsys names every thread it saw, also those with no row in a table we import (a thread with only OS runtime calls,
// an idle worker). Their ThreadNames rows stay: scripts join events to ThreadNames and label tracks from it.
TEST_F(NsysQueryCompat, NamedThreadsWithoutEventsKeepTheirRows)
{
    const std::string exportPath = (m_dir / "threads_export.sqlite").string();
    {
        auto db = SqliteDb::open(exportPath, SqliteDb::Mode::Create);
        ASSERT_TRUE(db.isOk());
        // pid 4242: the main thread calls CUDA, tid 4250 has only OS runtime calls, tid 4251 has no row at all.
        ASSERT_TRUE(db->exec(R"sql(
            CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO StringIds VALUES (1, 'python'), (2, 'pt_autograd_0'), (3, 'cudaLaunchKernel_v7000'),
                (4, 'gemm'), (5, 'pthread_cond_wait'), (6, 'dataloader');
            CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
            INSERT INTO ThreadNames VALUES (1, 20, 281546145665170), (6, 20, 281546145665178), (2, 10, 281546145665179);
            CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
                globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL,
                nestingLevel INTEGER, callchainId INTEGER);
            INSERT INTO OSRT_API VALUES (5, 95, 27, 281546145665178, 1, 5, 0, 0, NULL);
            CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER,
                globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER);
            INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (20, 30, 0, 281546145665170, 1, 3, 0);
            CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
                deviceId INTEGER NOT NULL, contextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER,
                globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL);
            INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (40, 90, 0, 1, 7, 1, 281546145660928, 4, 4);
        )sql")
                        .isOk());
    }
    ASSERT_TRUE(importTraces({ exportPath }, m_out, {}).isOk());
    SqliteDb original = openPlain(exportPath);
    SqliteDb ours = openPlain(m_out);
    const std::string names = "SELECT t.globalTid, t.priority, s.value FROM ThreadNames t JOIN StringIds s"
                              " ON s.id = t.nameId ORDER BY t.globalTid";
    EXPECT_EQ(rowsOf(ours, names),
        (std::vector<std::string> {
            "281546145665170|20|python", "281546145665178|20|dataloader", "281546145665179|10|pt_autograd_0" }));
    EXPECT_EQ(rowsOf(ours, names), rowsOf(original, names));
    // Placescope's own thread list keeps the threads that have events.
    EXPECT_EQ(rowsOf(ours, "SELECT tid, name FROM PS_THREADS"), std::vector<std::string> { "4242|python" });
}

TEST_F(NsysQueryCompat, SystemFactsOnlyNeverTheEnvironment)
{
    ASSERT_TRUE(importTraces({ kCloverleaf }, m_out, {}).isOk());
    SqliteDb original = openPlain(kCloverleaf);
    SqliteDb ours = openPlain(m_out);
    std::vector<std::string> names = rowsOf(ours, "SELECT DISTINCT name FROM TARGET_INFO_SYSTEM_ENV ORDER BY name");
    EXPECT_EQ(names,
        (std::vector<std::string> { "CpuArchitecture", "CpuCores", "CpuDescription", "CpuSpeedMhz", "CudaDriverVersion",
            "HardwarePlatform", "Hostname", "NvDriverVersion", "OsDescription", "SoftwarePlatform",
            "SoftwareReleaseVersion" }));
    // The export has many more rows there (install paths, capabilities...).
    EXPECT_GT(std::stoi(rowsOf(original, "SELECT COUNT(*) FROM TARGET_INFO_SYSTEM_ENV")[0]),
        std::stoi(rowsOf(ours, "SELECT COUNT(*) FROM TARGET_INFO_SYSTEM_ENV")[0]) + 50);
}

// An nsys-shaped export with NVTX ranges both ways nsys stores text: inline (`text`) and registered (`textId`).
TEST_F(NsysQueryCompat, NvtxTextStaysWhereNsysPutsIt)
{
    const std::string exportPath = (m_dir / "nvtx_export.sqlite").string();
    {
        auto db = SqliteDb::open(exportPath, SqliteDb::Mode::Create);
        ASSERT_TRUE(db.isOk());
        ASSERT_TRUE(db->exec(R"sql(
            CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO StringIds VALUES (7, 'registered step'), (9, 'cudaLaunchKernel_v7000'), (11, 'k');
            CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
            INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '2023-11-14T22:13:20', NULL);
            CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
                category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
                domainId INTEGER, jsonText TEXT);
            INSERT INTO NVTX_EVENTS VALUES (10, 500, 59, NULL, NULL, NULL, 'forward', 281475681353771, NULL, NULL, 0, NULL),
                (600, 900, 59, NULL, NULL, NULL, NULL, 281475681353771, NULL, 7, 0, NULL),
                (950, 990, 60, 3, NULL, NULL, 'forward', 281475681353771, NULL, NULL, 0, NULL),
                (995, NULL, 34, NULL, NULL, NULL, 'marker', 281475681353771, NULL, NULL, 0, NULL);
            CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER,
                globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER);
            INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (20, 30, 0, 281475681353771, 1, 9, 0);
            CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
                deviceId INTEGER NOT NULL, contextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER,
                globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL);
            INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (40, 90, 0, 1, 7, 1, 281475681353728, 11, 11);
        )sql")
                        .isOk());
    }
    ASSERT_TRUE(importTraces({ exportPath }, m_out, {}).isOk());
    SqliteDb original = openPlain(exportPath);
    SqliteDb ours = openPlain(m_out);
    // nvtx_sum's grouping: by COALESCE(text, registered string), ranges only.
    const std::string nvtxSum = "SELECT COALESCE(n.text, s.value) AS name, COUNT(*), SUM(n.end - n.start)"
                                " FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId"
                                " WHERE n.eventType IN (59, 60) GROUP BY name ORDER BY name";
    EXPECT_EQ(rowsOf(ours, nvtxSum), (std::vector<std::string> { "forward|2|530", "registered step|1|300" }));
    EXPECT_EQ(rowsOf(ours, nvtxSum), rowsOf(original, nvtxSum));
    const std::string raw = "SELECT start, text, textId, globalTid, eventType FROM NVTX_EVENTS ORDER BY start";
    EXPECT_EQ(rowsOf(ours, raw), rowsOf(original, raw));
    // The collected NVTX queries (nsys_queries/nvtx) give the export's rows.
    int nvtxQueries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kQueries + "/nvtx")) {
        if (entry.path().extension() != ".sql")
            continue;
        ++nvtxQueries;
        const std::vector<std::string> expected = rowsOf(original, readFile(entry.path()));
        ASSERT_FALSE(expected.empty()) << entry.path().filename();
        ASSERT_EQ(expected[0].rfind("error: ", 0), std::string::npos) << entry.path().filename() << ": " << expected[0];
        EXPECT_EQ(rowsOf(ours, readFile(entry.path())), expected) << entry.path().filename();
    }
    EXPECT_GE(nvtxQueries, 1);
    EXPECT_EQ(rowsOf(ours, "SELECT utcEpochNs, utcTime FROM TARGET_INFO_SESSION_START_TIME"),
        std::vector<std::string> { "1700000000000000000|2023-11-14T22:13:20" });
    // Tables only for the data the export had, as nsys: no memcpys, memsets, syncs, GPU memory or overhead.
    EXPECT_EQ(rowsOf(ours,
                  "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'CUPTI_ACTIVITY_KIND_%'"
                  " OR name IN ('NVTX_EVENTS', 'CUDA_GPU_MEMORY_USAGE_EVENTS', 'PROFILER_OVERHEAD'))"
                  " ORDER BY name"),
        (std::vector<std::string> { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS" }));
    // Placescope's own readers still see every schema table (empty stand-ins of the connection).
    auto trace = openTrace(m_out);
    ASSERT_TRUE(trace.isOk()) << trace.status().message();
    EXPECT_EQ(rowsOf(*trace, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"), std::vector<std::string> { "0" });
}

// A Kineto import runs the collected queries whose tables it has, without error and with rows.
TEST_F(NsysQueryCompat, QueriesRunOnAKinetoImport)
{
    ASSERT_TRUE(importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz" }, m_out, {})
                    .isOk());
    SqliteDb ours = openPlain(m_out);
    for (const char* name : { "kern_sum.sql", "kern_base_sum.sql", "api_sum.sql", "mem_time_sum.sql", "gpu_trace.sql",
             "launch_to_kernel.sql", "analysis_span.sql", "processes.sql", "utc_times.sql", "activity_tables.sql",
             "sync_rows.sql", "sync_sum.sql", "thread_names.sql", "pipit_cuda_api.sql", "pipit_kernels.sql",
             "pipit_memcpys.sql", "pipit_syncs.sql", "nsys2prv_kernels.sql", "nsys2prv_memcpy.sql",
             "nsys_cuda_gpu_trace.sql", "nsys_kern_exec_trace.sql", "nsys_gpu_sum.sql", "export_schema.sql" }) {
        std::vector<std::string> rows = rowsOf(ours, readFile(std::filesystem::path(kQueries) / name));
        ASSERT_FALSE(rows.empty()) << name;
        EXPECT_EQ(rows[0].rfind("error: ", 0), std::string::npos) << name << ": " << rows[0];
    }
    // The file names its writer and the nsys export schema whose names it follows (not nsys as the product).
    EXPECT_EQ(rowsOf(ours, "SELECT name, value FROM META_DATA_EXPORT ORDER BY name"),
        (std::vector<std::string> { "EXPORT_PRODUCT_NAME|Placescope", "EXPORT_SCHEMA_VERSION|3.13.2",
            "EXPORT_SCHEMA_VERSION_MAJOR|3", "EXPORT_SCHEMA_VERSION_MICRO|2", "EXPORT_SCHEMA_VERSION_MINOR|13" }));
    // NVTX queries on a Kineto trace whose GPU annotations (DistributedDataParallel.forward, nccl:broadcast...)
    // become NVTX ranges: 30 of them in the NCCL rank's file.
    const std::string nccl = (m_dir / "nccl.sqlite").string();
    ASSERT_TRUE(
        importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_nccl_a100_rank0of2_layout.json.gz" }, nccl, {})
            .isOk());
    SqliteDb ncclDb = openPlain(nccl);
    std::vector<std::string> nvtxRows
        = rowsOf(ncclDb, readFile(std::filesystem::path(kQueries) / "nvtx/pipit_nvtx.sql"));
    ASSERT_EQ(nvtxRows.size(), 30u);
    EXPECT_EQ(nvtxRows[0].rfind("error: ", 0), std::string::npos) << nvtxRows[0];
    // Every nsys-named event table in the file has rows.
    for (const std::string& table : rowsOf(ours,
             "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT"
             " LIKE 'PS_%' AND name NOT LIKE 'ENUM_%' AND name <> 'StringIds'"))
        EXPECT_EQ(rowsOf(ours, "SELECT EXISTS (SELECT 1 FROM \"" + table + "\")"), std::vector<std::string> { "1" })
            << table;
}

} // namespace
} // namespace placescope
