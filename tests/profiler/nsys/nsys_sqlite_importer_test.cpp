// SPDX-License-Identifier: MIT
// The Nsight Systems SQLite importer on the real CloverLeaf export (tests/data/traces) and on small exports
// written here in the shape of older/newer nsys versions (missing columns and tables, NVTX, memsets, bad rows).
#include "profiler/importers/importer.h"
#include "profiler/store/sqlite_db.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace placescope {
namespace {

const std::string kCloverleaf
    = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";

class NsysImporterTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path()
            / ("ps_nsys_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(m_dir);
        m_out = (m_dir / "out.sqlite").string();
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    // A small nsys-shaped export built from SQL.
    std::string makeExport(const std::string& sql)
    {
        std::string path = (m_dir / "export.sqlite").string();
        auto db = SqliteDb::open(path, SqliteDb::Mode::Create);
        EXPECT_TRUE(db.isOk());
        EXPECT_TRUE(db->exec(sql).isOk()) << db->lastError();
        return path;
    }

    int64_t count(SqliteDb& db, const std::string& sql)
    {
        auto value = db.queryInt(sql);
        EXPECT_TRUE(value.isOk()) << value.status().message();
        return value.isOk() ? *value : -1;
    }

    std::filesystem::path m_dir;
    std::string m_out;
};

TEST_F(NsysImporterTest, CloverleafCountsMatchTheExport)
{
    auto summary = importTraces({ kCloverleaf }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    auto db = openTrace(m_out);
    ASSERT_TRUE(db.isOk()) << db.status().message();
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1312);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"), 279);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN ENUM_CUDA_MEM_KIND e ON e.id = m.srcKind"
                  " WHERE e.name = 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE'"),
        254);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 3048);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 1"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"), 1312);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM TARGET_INFO_GPU WHERE name = 'NVIDIA A100-SXM4-80GB'"), 4);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM PS_PROBLEMS"), 0);

    // Figures straight from the export, independent of the importer.
    auto original = SqliteDb::open(kCloverleaf, SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(original.isOk());
    for (const char* table :
        { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_RUNTIME" }) {
        std::string sql = std::string("SELECT SUM(end - start) FROM ") + table;
        EXPECT_EQ(count(*db, sql), count(*original, sql)) << table;
    }
    const std::string byName
        = "SELECT COUNT(DISTINCT s.value) || ':' || SUM(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
          " JOIN StringIds s ON s.id = k.shortName WHERE s.value LIKE '%advec%'";
    auto ours = db->prepare(byName);
    auto theirs = original->prepare(byName);
    ASSERT_TRUE(ours->step() && theirs->step());
    EXPECT_EQ(ours->columnText(0), theirs->columnText(0));
    const std::string runtimeNames = "SELECT group_concat(value, ',') FROM (SELECT DISTINCT s.value FROM"
                                     " CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId ORDER BY 1)";
    ours = db->prepare(runtimeNames);
    theirs = original->prepare(runtimeNames);
    ASSERT_TRUE(ours->step() && theirs->step());
    EXPECT_EQ(ours->columnText(0), theirs->columnText(0));

    // Serialized ids: the one CUDA process and its threads, named.
    EXPECT_EQ(count(*db, "SELECT pid FROM PS_PROCESSES WHERE name = 'cuda-cloverleaf'"), 1701896);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM PS_PROCESSES"), 1);
    EXPECT_EQ(
        count(*db, "SELECT COUNT(DISTINCT globalTid / 0x1000000 % 0x1000000) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM PS_THREADS WHERE name = 'cuda-cloverleaf'"), 1);
    auto meta = db->prepare("SELECT group_concat(key || '=' || value, ';') FROM PS_META WHERE key IN"
                            " ('source_format', 'nsys_export_version', 'source_file')");
    ASSERT_TRUE(meta->step());
    EXPECT_EQ(meta->columnText(0),
        "nsys_export_version=3.13.2;source_file=pipit_cloverleaf_a100_nsys_sanitized.sqlite;"
        "source_format=nsys_sqlite");
}

TEST_F(NsysImporterTest, NeverCopiesEnvironmentArgumentsOrProgramOutput)
{
    ASSERT_TRUE(importTraces({ kCloverleaf }, m_out, {}).isOk());
    auto original = SqliteDb::open(kCloverleaf, SqliteDb::Mode::ReadOnly);
    auto secrets = original->prepare(
        "SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE length(value) > 3"
        " UNION SELECT value FROM META_DATA_CAPTURE WHERE (name LIKE '%ARGUMENT%'"
        "  OR name LIKE '%WORKING_DIR%' OR name LIKE '%USER_NAME%') AND length(value) > 3"
        " UNION SELECT s.value FROM ProcessStreams p JOIN StringIds s ON s.id IN (p.filenameId, p.contentId)"
        " WHERE length(s.value) > 3"
        " UNION SELECT value FROM META_DATA_EXPORT WHERE name IN ('EXPORT_HOST', 'EXPORT_USER', "
        "'EXPORT_PARAM_INPUT_PATH')");
    ASSERT_TRUE(secrets.isOk());
    std::set<std::string> values;
    while (secrets->step())
        values.insert(secrets->columnText(0));
    ASSERT_GT(values.size(), 20u); // the export does carry them
    // (The executable's name, e.g. 'cuda-cloverleaf', is kept as the process name: it is not an argument.)
    auto db = openTrace(m_out);
    auto strings = db->prepare("SELECT value FROM StringIds UNION ALL SELECT value FROM PS_META"
                               " UNION ALL SELECT COALESCE(name, '') FROM PS_PROCESSES");
    while (strings->step())
        EXPECT_EQ(values.count(strings->columnText(0)), 0u) << strings->columnText(0);
}

// An export shaped like an older nsys (2021-era): fewer columns, NVTX text inline, no META_DATA_EXPORT.
TEST_F(NsysImporterTest, OlderSchemaWithMissingColumnsAndTables)
{
    std::string path = makeExport(R"sql(
        CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO StringIds VALUES (1, 'void gemm<float>(float*)'), (2, 'cudaLaunchKernel_v7000'), (3, 'main');
        CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,
            streamId INT NOT NULL, correlationId INT, globalPid INT, demangledName INT NOT NULL);
        INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 300, 0, 7, 5, 42 * 16777216, 1),
            (400, 450, 0, 7, 6, 42 * 16777216, 1);
        CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT, end INT, globalTid INT, correlationId INT, nameId INT);
        INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (90, 95, 42 * 16777216 + 43, 5, 2);
        CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INT, end INT, deviceId INT, streamId INT, bytes INT, memKind INT);
        INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (500, 520, 0, 7, 4096, 2);
        CREATE TABLE NVTX_EVENTS (start INT, end INT, eventType INT, text TEXT, globalTid INT);
        INSERT INTO NVTX_EVENTS VALUES (80, 600, 59, 'step 1', 42 * 16777216 + 43), (85, NULL, 34, 'mark', NULL);
        CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INT, globalPid INT, deviceId INT, address INT, bytes INT,
            memKind INT, memoryOperationType INT);
        INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (50, 42 * 16777216, 0, 4096, 1048576, 2, 0);
        CREATE TABLE ThreadNames (nameId INT, priority INT, globalTid INT);
        INSERT INTO ThreadNames VALUES (3, 0, 42 * 16777216 + 43);
        CREATE TABLE TARGET_INFO_CUDA_GPU (deviceId INT, name TEXT, numMultiprocessors INT,
            computeCapabilityMajor INT, computeCapabilityMinor INT);
        INSERT INTO TARGET_INFO_CUDA_GPU VALUES (0, 'Tesla V100-SXM2-32GB', 80, 7, 0);
    )sql");
    auto summary = importTraces({ path }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    auto db = openTrace(m_out);
    ASSERT_TRUE(db.isOk());
    EXPECT_EQ(count(*db, "SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 250);
    auto shortName
        = db->prepare("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName");
    ASSERT_TRUE(shortName->step());
    EXPECT_EQ(shortName->columnText(0), "gemm"); // derived, the old export has no shortName column
    EXPECT_EQ(count(*db, "SELECT bytes FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE memKind = 2"), 4096);
    // Inline text stays inline, as nsys stores it (scripts read `text`).
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM NVTX_EVENTS WHERE text IN ('step 1', 'mark') AND textId IS NULL"), 2);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM NVTX_EVENTS WHERE end IS NULL AND eventType = 34"), 1);
    EXPECT_EQ(count(*db, "SELECT bytes FROM CUDA_GPU_MEMORY_USAGE_EVENTS"), 1048576);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN CUPTI_ACTIVITY_KIND_KERNEL k"
                  " ON k.correlationId = r.correlationId AND k.globalPid = r.globalTid / 0x1000000 * 0x1000000"),
        1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM PS_THREADS WHERE tid = 43 AND name = 'main'"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM PS_META WHERE key = 'nsys_export_version'"), 0);
    EXPECT_EQ(count(*db,
                  "SELECT smCount * 10 + computeMajor FROM TARGET_INFO_GPU WHERE id = 0"
                  " AND name = 'Tesla V100-SXM2-32GB'"),
        807);
}

TEST_F(NsysImporterTest, BadRowsAreCountedAndSkipped)
{
    std::string path = makeExport(R"sql(
        CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO StringIds VALUES (1, 'k');
        CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, deviceId INT, streamId INT, demangledName INT);
        INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 50, 0, 7, 1), (NULL, 50, 0, 7, 1), (10, 20, 0, 7, 99),
            (10, 20, NULL, 7, 1), (30, 40, 0, 7, 1),
            (9223372036854775000, 9223372036854775807, 0, 7, 1), (-9223372036854775807, 10, 0, 7, 1);
        CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT, end INT, globalTid INT, nameId INT);
        INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1, 2, NULL, 1);
    )sql");
    auto summary = importTraces({ path }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    auto db = openTrace(m_out);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 2);
    // Two rows end before they start or lack a start; two lie near INT64_MIN / INT64_MAX (a kernel 290 years
    // later stretched the span to centuries, issue 27).
    EXPECT_EQ(count(*db, "SELECT count FROM PS_PROBLEMS WHERE kind = 'nsys.bad_interval'"), 4);
    EXPECT_EQ(count(*db, "SELECT MAX(end) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 40);
    EXPECT_EQ(count(*db, "SELECT count FROM PS_PROBLEMS WHERE kind = 'nsys.missing_lane'"), 1);
    EXPECT_EQ(count(*db, "SELECT count FROM PS_PROBLEMS WHERE kind = 'nsys.missing_name'"), 1);
    EXPECT_EQ(count(*db, "SELECT count FROM PS_PROBLEMS WHERE kind = 'nsys.missing_thread'"), 1);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName"
                  " WHERE s.value = '[unknown]'"),
        1);
    EXPECT_EQ(summary->problems, 7u);
}

// SQLite keeps text in an INT column (it converts only text that looks like a number). Such a cell must not read as
// the 0 sqlite3_column_int64 gives it: it reads as missing, and each is counted with its table and column.
TEST_F(NsysImporterTest, TextInANumberColumnIsCountedNotReadAsZero)
{
    std::string path = makeExport(R"sql(
        CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO StringIds VALUES (1, 'k');
        CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, deviceId INT, streamId INT, demangledName INT);
        INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ('soon', 50, 0, 7, 1), (10, 20, 0, 'seven', 1),
            (30, 40, 0, 7, 1), (60, '70', 0, 7, 1);
    )sql");
    auto summary = importTraces({ path }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    auto db = openTrace(m_out);
    // '70' is stored as the integer 70 by the column's affinity: a number, kept.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 2);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start = 0 OR streamId = 0"), 0);
    EXPECT_EQ(count(*db, "SELECT count FROM PS_PROBLEMS WHERE kind = 'nsys.not_a_number'"), 2);
    auto example = db->prepare("SELECT example FROM PS_PROBLEMS WHERE kind = 'nsys.not_a_number'");
    ASSERT_TRUE(example.isOk());
    ASSERT_TRUE(example->step());
    EXPECT_NE(example->columnText(0).find("CUPTI_ACTIVITY_KIND_KERNEL."), std::string::npos) << example->columnText(0);
}

TEST_F(NsysImporterTest, SqliteThatIsNotAnExportIsAClearError)
{
    std::string path = makeExport("CREATE TABLE photos (id INTEGER, data BLOB); INSERT INTO photos VALUES (1, x'00');");
    auto summary = importTraces({ path }, m_out, {});
    ASSERT_FALSE(summary.isOk());
    EXPECT_NE(summary.status().message().find("not an Nsight Systems export"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(m_out));
    EXPECT_FALSE(std::filesystem::exists(m_out + ".partial"));
}

TEST_F(NsysImporterTest, TruncatedExportLeavesNoOutput)
{
    std::string truncated = (m_dir / "truncated.sqlite").string();
    {
        std::ifstream in(kCloverleaf, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(truncated, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 3));
    }
    auto summary = importTraces({ truncated }, m_out, {});
    EXPECT_FALSE(summary.isOk());
    EXPECT_FALSE(summary.status().message().empty());
    EXPECT_FALSE(std::filesystem::exists(m_out));
    EXPECT_FALSE(std::filesystem::exists(m_out + ".partial"));
}

// Garbage written over pages of the real export (not only at its end): each import either succeeds or fails with
// a message, never crashes, and leaves no output when it fails.
TEST_F(NsysImporterTest, CorruptPagesFailCleanly)
{
    std::ifstream in(kCloverleaf, std::ios::binary);
    const std::string original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    int failures = 0;
    for (size_t offset : { size_t(4096), size_t(64 * 1024), original.size() / 2, original.size() - 8192 }) {
        std::string bytes = original;
        for (size_t i = 0; i < 4096 && offset + i < bytes.size(); ++i)
            bytes[offset + i] = static_cast<char>((i * 131 + offset) & 0xFF);
        std::string corrupt = (m_dir / ("corrupt_" + std::to_string(offset) + ".sqlite")).string();
        std::ofstream(corrupt, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        std::string out = (m_dir / ("out_" + std::to_string(offset) + ".sqlite")).string();
        auto summary = importTraces({ corrupt }, out, {});
        if (!summary.isOk()) {
            ++failures;
            EXPECT_FALSE(summary.status().message().empty());
            EXPECT_EQ(summary.status().message().find('\n'), std::string::npos);
            EXPECT_FALSE(std::filesystem::exists(out));
        }
        EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
    }
    EXPECT_GT(failures, 0); // SQLite notices at least some of the damage
}

TEST_F(NsysImporterTest, ReportsProgressAndHonoursCancel)
{
    ImportOptions options;
    uint64_t calls = 0, last = 0, total = 0;
    options.progress = [&](uint64_t done, uint64_t all) {
        ++calls;
        EXPECT_GE(done, last);
        last = done;
        total = all;
    };
    ASSERT_TRUE(importTraces({ kCloverleaf }, m_out, options).isOk());
    EXPECT_GT(calls, 100u);
    EXPECT_EQ(total, std::filesystem::file_size(kCloverleaf));
    CancelToken cancel;
    cancel.cancel();
    ImportOptions cancelled;
    cancelled.cancel = &cancel;
    std::string second = (m_dir / "second.sqlite").string();
    EXPECT_FALSE(importTraces({ kCloverleaf }, second, cancelled).isOk());
    EXPECT_FALSE(std::filesystem::exists(second));
}

} // namespace
} // namespace placescope
