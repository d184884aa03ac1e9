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
    EXPECT_EQ(journal->columnText(0), "wal");
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
    EXPECT_EQ(*db->queryInt("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid / 16777216 = 42"), 1);
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
