// SPDX-License-Identifier: MIT
#include "profiler/model/cuda_enums.h"
#include "profiler/store/trace_file.h"
#include "profiler/store/trace_writer.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace placescope {
namespace {

class TraceWriterTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path()
            / ("ps_writer_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(m_dir);
        m_path = (m_dir / "trace.sqlite").string();
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    std::filesystem::path m_dir;
    std::string m_path;
};

TEST_F(TraceWriterTest, NsysQueriesRunUnchanged)
{
    {
        auto writer = TraceWriter::create(m_path);
        ASSERT_TRUE(writer.isOk()) << writer.status().message();
        KernelEvent kernel;
        kernel.start = 100;
        kernel.end = 350;
        kernel.streamId = 7;
        kernel.demangledName = "void at::native::vectorized_elementwise_kernel<4, float>(int, float)";
        (*writer)->add(kernel);
        kernel.start = 400;
        kernel.end = 500;
        (*writer)->add(kernel);
        MemcpyEvent copy;
        copy.start = 10;
        copy.end = 90;
        copy.bytes = 4096;
        copy.copyKind = static_cast<int64_t>(CopyKind::HtoD);
        copy.srcKind = static_cast<int64_t>(MemKind::Pageable);
        copy.dstKind = static_cast<int64_t>(MemKind::Device);
        (*writer)->add(copy);
        (*writer)->countProblem("test.bad", ProblemSeverity::Error, "a bad record", "{...}");
        (*writer)->countProblem("test.bad", ProblemSeverity::Error, "a bad record");
        ASSERT_TRUE((*writer)->commit().isOk());
    }
    EXPECT_FALSE(std::filesystem::exists(m_path + ".partial"));
    auto db = openTrace(m_path);
    ASSERT_TRUE(db.isOk()) << db.status().message();
    // The nsys recipe query: kernel time by short name through StringIds.
    auto stmt = db->prepare("SELECT s.value, SUM(k.end - k.start), COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
                            " JOIN StringIds s ON s.id = k.shortName GROUP BY s.value");
    ASSERT_TRUE(stmt.isOk());
    ASSERT_TRUE(stmt->step());
    EXPECT_EQ(stmt->columnText(0), "vectorized_elementwise_kernel");
    EXPECT_EQ(stmt->columnInt(1), 350);
    EXPECT_EQ(stmt->columnInt(2), 2);
    auto pageable = db->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN ENUM_CUDA_MEM_KIND e"
                                 " ON e.id = m.srcKind WHERE e.name = 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE'");
    ASSERT_TRUE(pageable.isOk());
    EXPECT_EQ(*pageable, 1);
    EXPECT_EQ(*db->queryInt("SELECT count FROM PS_PROBLEMS WHERE kind = 'test.bad'"), 2);
    EXPECT_EQ(*db->queryInt("PRAGMA user_version"), kTraceSchemaVersion);
    auto journal = db->prepare("PRAGMA journal_mode");
    ASSERT_TRUE(journal->step());
    EXPECT_EQ(journal->columnText(0), "delete"); // readers create no -wal/-shm beside it
}

TEST_F(TraceWriterTest, AbandonedWriterLeavesNoFile)
{
    std::string partial;
    {
        auto writer = TraceWriter::create(m_path);
        ASSERT_TRUE(writer.isOk());
        KernelEvent kernel;
        kernel.demangledName = "k";
        (*writer)->add(kernel);
        ASSERT_TRUE((*writer)->flush().isOk());
        partial = (*writer)->partialPath();
        // A temporary name of its own beside the output (two writers of one path never share a file).
        EXPECT_NE(partial, m_path + ".partial");
        EXPECT_EQ(std::filesystem::path(partial).parent_path(), std::filesystem::path(m_path).parent_path());
        EXPECT_TRUE(std::filesystem::exists(partial));
    }
    EXPECT_FALSE(std::filesystem::exists(m_path));
    EXPECT_FALSE(std::filesystem::exists(partial));
    EXPECT_FALSE(std::filesystem::exists(partial + "-journal"));
}

TEST_F(TraceWriterTest, CrashSafeWriterKeepsTheFixedPartialName)
{
    // The capture's parent finds a traced process's part by this name, also when that process was killed.
    TraceWriterOptions options;
    options.crashSafePartial = true;
    auto writer = TraceWriter::create(m_path, options);
    ASSERT_TRUE(writer.isOk());
    EXPECT_EQ((*writer)->partialPath(), m_path + ".partial");
    ASSERT_TRUE((*writer)->closePartial().isOk());
    EXPECT_TRUE(std::filesystem::exists(m_path + ".partial"));
    writer->reset();
    EXPECT_TRUE(std::filesystem::exists(m_path + ".partial")); // closed as a part: not removed
}

TEST_F(TraceWriterTest, FlushedPartialFileIsReadable)
{
    auto writer = TraceWriter::create(m_path);
    ASSERT_TRUE(writer.isOk());
    RuntimeEvent call;
    call.name = "cudaLaunchKernel";
    call.globalTid = makeGlobalTid(42, 43);
    (*writer)->add(call);
    ASSERT_TRUE((*writer)->flush().isOk());
    auto db = SqliteDb::open((*writer)->partialPath(), SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(db.isOk());
    EXPECT_EQ(
        *db->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid / 16777216 % 16777216 = 42"),
        1);
}

TEST_F(TraceWriterTest, OpenRefusesNonTraces)
{
    EXPECT_FALSE(openTrace((m_dir / "missing.sqlite").string()).isOk());
    std::string text = (m_dir / "text.sqlite").string();
    FILE* f = std::fopen(text.c_str(), "w");
    std::fputs("hello, not a database at all, just words......................................", f);
    std::fclose(f);
    auto result = openTrace(text);
    ASSERT_FALSE(result.isOk());
    EXPECT_NE(result.status().message().find("not a SQLite database"), std::string::npos);
}

TEST(ShortKernelNameTest, MatchesNsysStyle)
{
    // Exercised through the writer: check the StringIds row.
    auto dir = std::filesystem::temp_directory_path() / ("ps_short_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::string path = (dir / "t.sqlite").string();
    {
        auto writer = TraceWriter::create(path);
        KernelEvent kernel;
        kernel.demangledName = "void cudnn::engines_precompiled::nchwToNhwcKernel<__nv_bfloat16, 4>(cudnn::Params)";
        (*writer)->add(kernel);
        ASSERT_TRUE((*writer)->commit().isOk());
    }
    auto db = openTrace(path);
    auto stmt = db->prepare("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName");
    ASSERT_TRUE(stmt->step());
    EXPECT_EQ(stmt->columnText(0), "nchwToNhwcKernel");
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace placescope

namespace placescope {
namespace {

// The run description tables nsys scripts read, the export's string ids, and no table without rows.
TEST_F(TraceWriterTest, RunDescriptionIdsAndNoEmptyTables)
{
    {
        auto writer = TraceWriter::create(m_path);
        ASSERT_TRUE(writer.isOk()) << writer.status().message();
        EXPECT_EQ((*writer)->internString("gemm", 700), 700); // a free preferred id is taken
        EXPECT_EQ((*writer)->internString("other", 700), 0); // a taken one is not
        EXPECT_EQ((*writer)->internString("gemm", 5), 700); // a known string keeps its id
        KernelEvent kernel;
        kernel.start = 1000;
        kernel.end = 1500;
        kernel.demangledName = "gemm";
        kernel.greenContextId = 3;
        (*writer)->add(kernel);
        RuntimeEvent call;
        call.start = 900;
        call.end = 950;
        call.name = "cudaLaunchKernel";
        call.globalTid = makeGlobalTid(42, 43);
        (*writer)->add(call);
        (*writer)->add(ProcessInfo { makeGlobalPid(42), 42, std::nullopt, "python", "host" });
        EXPECT_TRUE((*writer)->add(SystemFact { "Hostname", "node7" }));
        EXPECT_FALSE((*writer)->add(SystemFact { "LD_LIBRARY_PATH", "/secret" })); // never an environment variable
        (*writer)->countProblem("test.bad_row", ProblemSeverity::DataLoss, "a row was skipped", "row 3", 2);
        (*writer)->setMeta("trace_base_time_ns", "1700000000000000000");
        ASSERT_TRUE((*writer)->commit().isOk());
    }
    auto db = SqliteDb::open(m_path, SqliteDb::Mode::ReadOnly); // as a user's sqlite3 opens it
    ASSERT_TRUE(db.isOk());
    EXPECT_EQ(*db->queryInt("SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL"), 700);
    EXPECT_EQ(*db->queryInt("SELECT greenContextId FROM CUPTI_ACTIVITY_KIND_KERNEL"), 3);
    EXPECT_EQ(*db->queryInt("SELECT globalPid FROM PROCESSES WHERE pid = 42 AND name = 'python'"),
        (int64_t(1) << 48) + 42 * 16777216);
    EXPECT_EQ(*db->queryInt("SELECT duration * 10000 + startTime FROM ANALYSIS_DETAILS"), 600 * 10000 + 900);
    EXPECT_EQ(
        *db->queryInt("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME WHERE utcTime = '2023-11-14T22:13:20'"),
        1700000000000000000);
    EXPECT_EQ(*db->queryInt("SELECT COUNT(*) FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname' AND nameEnum = 619"
                            " AND value = 'node7'"),
        1);
    EXPECT_EQ(*db->queryInt("SELECT COUNT(*) FROM TARGET_INFO_SYSTEM_ENV"), 1);
    EXPECT_EQ(
        *db->queryInt("SELECT COUNT(*) FROM DIAGNOSTIC_EVENT d JOIN ENUM_DIAGNOSTIC_SOURCE_TYPE s ON s.id = d.source"
                      " WHERE s.name = 'Analysis' AND d.severity = 2 AND d.text LIKE 'test.bad_row: a row was"
                      " skipped (2 times; first: row 3)'"),
        1);
    // No memcpys, memsets, syncs, NVTX, GPUs: no such tables, as in an nsys export.
    for (const char* table : { "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", "NVTX_EVENTS",
             "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "TARGET_INFO_GPU", "ThreadNames" })
        EXPECT_FALSE(db->hasTable(table)) << table;
    EXPECT_TRUE(db->hasTable("CUPTI_ACTIVITY_KIND_KERNEL"));
    // Placescope's readers see them all, empty.
    auto trace = openTrace(m_path);
    ASSERT_TRUE(trace.isOk()) << trace.status().message();
    EXPECT_EQ(*trace->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"), 0);
    EXPECT_EQ(*trace->queryInt("SELECT COUNT(*) FROM NVTX_EVENTS"), 0);
}

TEST_F(TraceWriterTest, EnumTablesHaveNsysNames)
{
    auto writer = TraceWriter::create(m_path);
    ASSERT_TRUE(writer.isOk());
    ASSERT_TRUE((*writer)->commit().isOk());
    auto db = SqliteDb::open(m_path, SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(db.isOk());
    // The names nsys 2024.5 writes (the CloverLeaf export's rows).
    EXPECT_EQ(*db->queryInt(
                  "SELECT COUNT(*) FROM ENUM_CUDA_MEMCPY_OPER WHERE (id, name, label) IN (VALUES"
                  " (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'), (10, 'CUDA_MEMCPY_KIND_PTOP', 'Peer-to-Peer'))"),
        2);
    EXPECT_EQ(*db->queryInt("SELECT id FROM ENUM_CUPTI_SYNC_TYPE WHERE label = 'Stream wait sync'"), 2);
    EXPECT_EQ(*db->queryInt("SELECT id FROM ENUM_NSYS_EVENT_CLASS WHERE name = 'TRACE_PROCESS_EVENT_CUDA_DRIVER'"), 1);
    EXPECT_EQ(*db->queryInt("SELECT COUNT(*) FROM ENUM_NSYS_EVENT_TYPE WHERE name = label AND id IN (34, 59, 60)"), 3);
    for (const char* table : { "ENUM_CUDA_KERNEL_LAUNCH_TYPE", "ENUM_CUDA_FUNC_CACHE_CONFIG",
             "ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG", "ENUM_CUDA_UNIF_MEM_MIGRATION", "ENUM_DIAGNOSTIC_SEVERITY_LEVEL",
             "ENUM_DIAGNOSTIC_SOURCE_TYPE", "ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE" })
        EXPECT_GT(*db->queryInt(std::string("SELECT COUNT(*) FROM ") + table), 1) << table;
}

} // namespace
} // namespace placescope
