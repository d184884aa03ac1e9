// SPDX-License-Identifier: MIT
// The reports on a real trace (the V100 rank of hta_v100_rank1of2_memory: 19k kernels, NCCL all-reduces, 28k allocator
// events, 5 recorded steps), each checked against figures computed another way: SQL on the imported file (counts,
// sums, joins by correlation id) or `analyze`'s device breakdown over the same steps.
#include "analysis/findings/analyzer.h"
#include "analysis/reports/reports.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unistd.h>

namespace placescope {
namespace {

class RealTraceReports : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = new std::filesystem::path(
            std::filesystem::temp_directory_path() / ("ps_reports_real_" + std::to_string(::getpid())));
        std::filesystem::create_directories(*s_dir);
        s_path = new std::string((*s_dir / "v100.sqlite").string());
        auto imported = importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_v100_rank1of2_memory.json.gz" },
            *s_path, ImportOptions {});
        ASSERT_TRUE(imported.isOk()) << imported.status().message();
    }
    static void TearDownTestSuite()
    {
        std::filesystem::remove_all(*s_dir);
        delete s_dir;
        delete s_path;
    }

    static ReportTable run(const std::string& name)
    {
        auto db = openTrace(*s_path);
        EXPECT_TRUE(db.isOk()) << db.status().message();
        auto table = runReport(*db, *findReport(name), ReportOptions {});
        EXPECT_TRUE(table.isOk()) << table.status().message();
        return table.isOk() ? std::move(table.value()) : ReportTable {};
    }
    static int64_t sql(const std::string& query)
    {
        auto db = openTrace(*s_path);
        EXPECT_TRUE(db.isOk());
        auto value = db->queryInt(query);
        EXPECT_TRUE(value.isOk()) << value.status().message() << "\n" << query;
        return value.isOk() ? value.value() : INT64_MIN;
    }
    // Sum of an integer column over the rows that `keep` accepts (empty cells count 0).
    template <typename Keep> static int64_t sumOf(const ReportTable& t, const std::string& key, Keep keep)
    {
        const size_t c = t.column(key);
        EXPECT_LT(c, t.columns.size()) << key;
        int64_t total = 0;
        for (const auto& row : t.rows)
            if (keep(row) && std::holds_alternative<int64_t>(row[c]))
                total += std::get<int64_t>(row[c]);
        return total;
    }
    static int64_t sumOf(const ReportTable& t, const std::string& key)
    {
        return sumOf(t, key, [](const auto&) { return true; });
    }

    static std::filesystem::path* s_dir;
    static std::string* s_path;
};

std::filesystem::path* RealTraceReports::s_dir = nullptr;
std::string* RealTraceReports::s_path = nullptr;

// A GPU op with a launch call: same process, same correlation id (an IN over a row value: SQLite builds the set once).
const char* kLaunched = "(k.globalPid / 16777216, k.correlationId) IN (SELECT globalTid / 16777216, correlationId FROM "
                        "CUPTI_ACTIVITY_KIND_RUNTIME)";

TEST_F(RealTraceReports, KernelLaunchAgreesWithSqlJoins)
{
    const ReportTable t = run("kernel_launch");
    ASSERT_GT(t.rows.size(), 10U);
    EXPECT_EQ(sumOf(t, "kernels"), sql("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(sumOf(t, "kernel_total_ns"), sql("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(
        sumOf(t, "launched"), sql(std::string("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE ") + kLaunched));
    EXPECT_EQ(sumOf(t, "shorter_than_launch"),
        sql("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON "
            "r.correlationId = k.correlationId AND r.globalTid / 16777216 = k.globalPid / 16777216 "
            "WHERE k.end - k.start < r.end - r.start"));
    // The longest launch delay of the all-reduce kernels, by SQL.
    size_t nccl = t.rows.size();
    for (size_t r = 0; r < t.rows.size(); ++r)
        if (std::get<std::string>(t.rows[r][t.column("name")]).rfind("ncclKernel_AllReduce", 0) == 0)
            nccl = r;
    ASSERT_LT(nccl, t.rows.size());
    EXPECT_EQ(std::get<int64_t>(t.rows[nccl][t.column("launch_delay_max_ns")]),
        sql("SELECT MAX(k.start - r.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
            "ON r.correlationId = k.correlationId JOIN StringIds s ON s.id = k.demangledName "
            "WHERE s.value LIKE 'ncclKernel_AllReduce%'"));
}

// Figures of the raw JSON from the stdlib-only parser, independent of the importer:
//   python3 tests/data/kineto_ref.py tests/data/traces/hta_v100_rank1of2_memory.json.gz
//   -> kernel_count 19370, kernel_ns 977859000, memcpy_count 2040 (all DtoD), memcpy_bytes 5892787600, memset_count 880
TEST_F(RealTraceReports, AgreesWithTheRawJsonParser)
{
    const ReportTable launches = run("kernel_launch");
    EXPECT_EQ(sumOf(launches, "kernels"), 19370);
    EXPECT_EQ(sumOf(launches, "kernel_total_ns"), 977859000);
    EXPECT_EQ(static_cast<int64_t>(run("kernel_launches").rows.size()), 19370);
    const ReportTable queue = run("queue"); // every GPU op of this trace has its launch call
    EXPECT_EQ(sumOf(queue, "ops"), 19370 + 2040 + 880);
    const ReportTable bandwidth = run("bandwidth");
    const size_t op = bandwidth.column("operation");
    const int64_t copies = sumOf(
        bandwidth, "bytes", [&](const auto& row) { return std::get<std::string>(row[op]).rfind("Memcpy", 0) == 0; });
    EXPECT_NEAR(static_cast<double>(copies), 5892787600.0, static_cast<double>(bandwidth.rows.size()));
}

TEST_F(RealTraceReports, QueueCountsEveryLaunchedOpOfEachStream)
{
    const ReportTable t = run("queue");
    ASSERT_EQ(t.rows.size(), 2U);
    for (const auto& row : t.rows) {
        const int64_t stream = std::get<int64_t>(row[t.column("stream")]);
        const std::string where = " k WHERE k.streamId = " + std::to_string(stream) + " AND " + kLaunched;
        EXPECT_EQ(std::get<int64_t>(row[t.column("ops")]),
            sql("SELECT (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL" + where
                + ") + (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY" + where
                + ") + (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET" + where + ")"))
            << "stream " << stream;
        EXPECT_GE(std::get<int64_t>(row[t.column("max")]), 1);
    }
}

TEST_F(RealTraceReports, IdleRowsCoverEveryGpuOpAndAddUp)
{
    const ReportTable t = run("idle");
    const size_t stream = t.column("stream");
    const size_t step = t.column("step");
    auto perStep = [&](const auto& row) { return !std::holds_alternative<std::string>(row[step]); };
    auto streamRows
        = [&](const auto& row) { return perStep(row) && !std::holds_alternative<std::monostate>(row[stream]); };
    auto deviceRows
        = [&](const auto& row) { return perStep(row) && std::holds_alternative<std::monostate>(row[stream]); };
    // The device's row over every step ("all") sums its rows of the steps, and its share is over the steps' time.
    auto inStepDeviceRows
        = [&](const auto& row) { return deviceRows(row) && !std::holds_alternative<std::monostate>(row[step]); };
    auto allDeviceRows
        = [&](const auto& row) { return !perStep(row) && std::holds_alternative<std::monostate>(row[stream]); };
    EXPECT_EQ(sumOf(t, "idle_ns", allDeviceRows), sumOf(t, "idle_ns", inStepDeviceRows));
    // Step times by the one step rule (analysis/trace/step_times.h): from the previous step's end. Every range here
    // outlasts its GPU work (set by the host), so they add up to the first step's start to the last one's end.
    EXPECT_EQ(sumOf(t, "step_ns", allDeviceRows), sql("SELECT MAX(end) - MIN(start) FROM PS_STEPS"));
    const int64_t ops = sql("SELECT (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) + (SELECT COUNT(*) FROM "
                            "CUPTI_ACTIVITY_KIND_MEMCPY) + (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET)");
    EXPECT_EQ(sumOf(t, "ops", streamRows), ops);
    EXPECT_EQ(sumOf(t, "ops", deviceRows), ops);
    for (const auto& row : t.rows) {
        EXPECT_EQ(std::get<int64_t>(row[t.column("busy_ns")]) + std::get<int64_t>(row[t.column("idle_ns")]),
            std::get<int64_t>(row[t.column("span_ns")]));
        EXPECT_EQ(std::get<int64_t>(row[t.column("host_wait_ns")]) + std::get<int64_t>(row[t.column("kernel_wait_ns")])
                + std::get<int64_t>(row[t.column("other_ns")]),
            std::get<int64_t>(row[t.column("idle_ns")]));
    }
}

TEST_F(RealTraceReports, StepsAddUpToAnalyzesDeviceBreakdown)
{
    const ReportTable t = run("steps");
    ASSERT_EQ(t.rows.size(), 5U); // ProfilerStep#2..#6, one GPU
    auto db = openTrace(*s_path);
    ASSERT_TRUE(db.isOk());
    auto analysis = analyzeTrace(*db, AnalysisOptions {});
    ASSERT_TRUE(analysis.isOk()) << analysis.status().message();
    ASSERT_EQ(analysis->devices.size(), 1U);
    const DeviceBreakdown& d = analysis->devices.front();
    EXPECT_EQ(sumOf(t, "gpu_window_ns"), d.windowNs);
    EXPECT_EQ(sumOf(t, "compute_ns"), d.computeNs);
    EXPECT_EQ(sumOf(t, "comm_ns"), d.commNs);
    EXPECT_EQ(sumOf(t, "copy_only_ns"), d.copyOnlyNs);
    EXPECT_EQ(sumOf(t, "idle_ns"), d.idleNs);
    int64_t causes = 0;
    for (int c = 0; c < kIdleCauseCount; ++c)
        causes += d.idleCauseNs[c];
    EXPECT_EQ(sumOf(t, "host_bound_ns") + sumOf(t, "input_bound_ns") + sumOf(t, "sync_wait_ns") + sumOf(t, "other_ns"),
        causes);
    EXPECT_EQ(sumOf(t, "other_ns"), d.idleCauseNs[static_cast<int>(IdleCause::Other)]);
    EXPECT_EQ(sumOf(t, "step_ns"), sql("SELECT MAX(end) - MIN(start) FROM PS_STEPS")); // set by the host, as above
    EXPECT_EQ(sumOf(t, "step_ns"), std::llround(analysis->meanStepMs * 1e6) * 5); // analyze's mean step
}

TEST_F(RealTraceReports, OverlapCountsEveryAllReduce)
{
    const ReportTable t = run("overlap");
    // NCCL kernels run one at a time on their stream, so their union is their summed duration.
    const size_t step = t.column("step");
    auto perStep = [&](const auto& row) { return !std::holds_alternative<std::string>(row[step]); };
    auto wholeTrace = [&](const auto& row) { return !perStep(row); };
    const int64_t ncclNs = sql("SELECT SUM(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                               "ON s.id = k.demangledName WHERE s.value LIKE 'nccl%'");
    EXPECT_EQ(sumOf(t, "comm_ns", perStep), ncclNs);
    EXPECT_EQ(sumOf(t, "overlapped_ns", perStep) + sumOf(t, "exposed_comm_ns", perStep), sumOf(t, "comm_ns", perStep));
    // One whole-trace row (one rank, one GPU): HTA's single figure over the same kernels.
    ASSERT_EQ(std::count_if(t.rows.begin(), t.rows.end(), wholeTrace), 1);
    EXPECT_EQ(sumOf(t, "comm_ns", wholeTrace), ncclNs);
    EXPECT_EQ(sumOf(t, "overlapped_ns", wholeTrace) + sumOf(t, "exposed_comm_ns", wholeTrace), ncclNs);
}

TEST_F(RealTraceReports, AnnotationsCountEachRecordFunctionRange)
{
    const ReportTable t = run("annotations");
    size_t row = t.rows.size();
    for (size_t r = 0; r < t.rows.size(); ++r)
        if (std::get<std::string>(t.rows[r][t.column("name")]) == "nccl:all_reduce")
            row = r;
    ASSERT_LT(row, t.rows.size());
    EXPECT_EQ(std::get<int64_t>(t.rows[row][t.column("count")]),
        sql("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS o JOIN StringIds s ON s.id = o.nameId "
            "WHERE o.category = 'user_annotation' AND s.value = 'nccl:all_reduce'"));
    EXPECT_EQ(std::get<int64_t>(t.rows[row][t.column("total_ns")]),
        sql("SELECT SUM(o.end - o.start) FROM PS_FRAMEWORK_OPS o JOIN StringIds s ON s.id = o.nameId "
            "WHERE o.category = 'user_annotation' AND s.value = 'nccl:all_reduce'"));
}

TEST_F(RealTraceReports, BandwidthMovesEveryCopysBytes)
{
    const ReportTable t = run("bandwidth");
    const size_t op = t.column("operation");
    const int64_t rows = static_cast<int64_t>(t.rows.size());
    // Each bucket rounds its share to whole bytes: the totals agree within one byte per bucket.
    const int64_t dtod
        = sumOf(t, "bytes", [&](const auto& row) { return std::get<std::string>(row[op]) == "Memcpy DtoD"; });
    EXPECT_NEAR(static_cast<double>(dtod),
        static_cast<double>(sql("SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 8")),
        static_cast<double>(rows));
    EXPECT_GT(dtod, 0);
}

TEST_F(RealTraceReports, MemoryPeakIsTheLargestAllocatedTotal)
{
    const ReportTable t = run("memory");
    ASSERT_FALSE(t.rows.empty());
    int64_t peak = 0;
    for (const auto& row : t.rows)
        peak = std::max(peak, std::get<int64_t>(row[t.column("allocated_max")]));
    EXPECT_EQ(peak, sql("SELECT MAX(totalAllocated) FROM PS_MEMORY_EVENTS WHERE deviceType = 1"));
    bool peakNote = false;
    for (const auto& note : t.notes)
        peakNote = peakNote || note.find("live at the peak") != std::string::npos;
    EXPECT_TRUE(peakNote);
}

TEST_F(RealTraceReports, CountersSayThereIsNoDataInsteadOfRows)
{
    ASSERT_EQ(sql("SELECT COUNT(*) FROM PS_COUNTERS"), 0); // this trace was recorded without profiler metrics
    const ReportTable t = run("counters");
    EXPECT_TRUE(t.rows.empty());
    ASSERT_FALSE(t.notes.empty());
    EXPECT_NE(t.notes.front().find("no counter data"), std::string::npos);
}

} // namespace
} // namespace placescope
