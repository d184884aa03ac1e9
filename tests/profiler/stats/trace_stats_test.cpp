// SPDX-License-Identifier: MIT
// Trace summaries on traces written with TraceWriter (figures worked out by hand below) and on the imported
// CloverLeaf nsys export (figures recomputed here from the original export with plain SQL and std::sort).
#include "profiler/importers/importer.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/stats/trace_stats.h"
#include "profiler/store/trace_file.h"
#include "profiler/store/trace_writer.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace placescope {
namespace {

const std::string kCloverleaf
    = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";

class TraceStatsTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path()
            / ("ps_stats_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(m_dir);
        m_path = (m_dir / "trace.sqlite").string();
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    static KernelEvent kernel(const char* name, int64_t start, int64_t end, int64_t device = 0, int64_t stream = 7)
    {
        KernelEvent k;
        k.demangledName = name;
        k.start = start;
        k.end = end;
        k.deviceId = device;
        k.streamId = stream;
        return k;
    }

    // Device 0: kernels [0,100] s1 and [50,150] s2 overlap, memcpys [140,170] and [190,200] s3, memset [300,310]
    //           s1 -> busy = [0,170] + [190,200] + [300,310] = 190 ns.
    // Device 1: kernel [1000,1100] -> busy 100 ns. API call [-50,0] opens the span: [-50,1100] = 1150 ns.
    // Kernel "void a<int>(int)" durations 10, 20, 30, 40 (+ the two above: 100 each on device 0 are "b").
    void writeSynthetic()
    {
        auto writer = TraceWriter::create(m_path);
        ASSERT_TRUE(writer.isOk());
        TraceWriter& w = **writer;
        w.add(kernel("void b(float*)", 0, 100, 0, 1));
        w.add(kernel("void b(float*)", 50, 150, 0, 2));
        w.add(kernel("void a<int>(int)", 1000, 1010, 1, 1));
        w.add(kernel("void a<int>(int)", 1010, 1030, 1, 1));
        w.add(kernel("void a<int>(int)", 1030, 1060, 1, 1));
        w.add(kernel("void a<int>(int)", 1060, 1100, 1, 1));
        MemcpyEvent copy;
        copy.start = 140;
        copy.end = 170;
        copy.streamId = 3;
        copy.bytes = 3000;
        copy.copyKind = static_cast<int64_t>(CopyKind::HtoD);
        copy.srcKind = static_cast<int64_t>(MemKind::Pageable);
        copy.dstKind = static_cast<int64_t>(MemKind::Device);
        w.add(copy);
        copy.start = 190;
        copy.end = 200;
        copy.bytes = 1000;
        w.add(copy);
        MemsetEvent set;
        set.start = 300;
        set.end = 310;
        set.streamId = 1;
        set.bytes = 5000;
        set.memKind = static_cast<int64_t>(MemKind::Device);
        w.add(set);
        RuntimeEvent call;
        call.start = -50;
        call.end = 0;
        call.name = "cudaLaunchKernel";
        w.add(call);
        GpuInfo gpu;
        gpu.id = 1;
        gpu.name = "Test GPU";
        w.add(gpu);
        w.countProblem("test.odd", ProblemSeverity::Info, "an odd record");
        ASSERT_TRUE(w.commit().isOk());
    }

    std::filesystem::path m_dir;
    std::string m_path;
};

TEST_F(TraceStatsTest, KernelSummaryMatchesHandFigures)
{
    writeSynthetic();
    auto db = openTrace(m_path);
    ASSERT_TRUE(db.isOk());
    auto summary = kernelSummary(*db, 0);
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(summary->kernelCount, 6);
    EXPECT_EQ(summary->totalNs, 300);
    EXPECT_EQ(summary->distinctNames, 2);
    ASSERT_EQ(summary->rows.size(), 2u);
    const auto& b = summary->rows[0]; // 200 ns, longest first
    EXPECT_EQ(b.name, "void b(float*)");
    EXPECT_EQ(b.time.totalNs, 200);
    EXPECT_NEAR(b.timePercent, 66.667, 1e-3);
    EXPECT_DOUBLE_EQ(b.time.medianNs, 100);
    EXPECT_DOUBLE_EQ(b.time.stddevNs, 0);
    const auto& a = summary->rows[1];
    EXPECT_EQ(a.time.count, 4);
    EXPECT_EQ(a.time.minNs, 10);
    EXPECT_EQ(a.time.maxNs, 40);
    EXPECT_DOUBLE_EQ(a.time.averageNs, 25);
    EXPECT_DOUBLE_EQ(a.time.medianNs, 25); // (20 + 30) / 2
    EXPECT_NEAR(a.time.stddevNs, std::sqrt(500.0 / 3.0), 1e-9); // sample deviation of 10, 20, 30, 40

    auto top = kernelSummary(*db, 1, KernelNameKind::Short);
    ASSERT_TRUE(top.isOk());
    ASSERT_EQ(top->rows.size(), 1u);
    EXPECT_EQ(top->rows[0].name, "b");
}

TEST_F(TraceStatsTest, BusyTimeMergesOverlapsPerDevice)
{
    writeSynthetic();
    auto db = openTrace(m_path);
    auto span = traceSpan(*db);
    ASSERT_TRUE(span.isOk());
    EXPECT_EQ(span->startNs, -50);
    EXPECT_EQ(span->endNs, 1100);
    auto devices = deviceUtilization(*db, *span);
    ASSERT_TRUE(devices.isOk()) << devices.status().message();
    ASSERT_EQ(devices->size(), 2u);
    const auto& d0 = (*devices)[0];
    EXPECT_EQ(d0.busyNs, 190);
    EXPECT_EQ(d0.kernelNs, 200);
    EXPECT_EQ(d0.memcpyNs, 40);
    EXPECT_EQ(d0.memsetNs, 10);
    EXPECT_EQ(d0.firstStartNs, 0);
    EXPECT_EQ(d0.lastEndNs, 310);
    EXPECT_DOUBLE_EQ(d0.utilizationOfTrace, 190.0 / 1150.0);
    EXPECT_DOUBLE_EQ(d0.utilizationOfActive, 190.0 / 310.0);
    const auto& d1 = (*devices)[1];
    EXPECT_EQ(d1.name, "Test GPU");
    EXPECT_EQ(d1.busyNs, 100);
    EXPECT_DOUBLE_EQ(d1.utilizationOfActive, 1.0);
}

TEST_F(TraceStatsTest, MemoryOpsByKindWithBandwidth)
{
    writeSynthetic();
    auto db = openTrace(m_path);
    auto ops = memoryOpSummary(*db);
    ASSERT_TRUE(ops.isOk()) << ops.status().message();
    ASSERT_EQ(ops->size(), 2u);
    EXPECT_EQ((*ops)[0].operation, "Memcpy HtoD");
    EXPECT_EQ((*ops)[0].memoryTypes, "Pageable -> Device");
    EXPECT_EQ((*ops)[0].time.count, 2);
    EXPECT_EQ((*ops)[0].totalBytes, 4000);
    EXPECT_EQ((*ops)[0].time.totalNs, 40);
    EXPECT_DOUBLE_EQ((*ops)[0].bandwidthGBps, 100.0); // 4000 B / 40 ns
    EXPECT_EQ((*ops)[1].operation, "Memset");
    EXPECT_EQ((*ops)[1].memoryTypes, "Device");
    EXPECT_DOUBLE_EQ((*ops)[1].bandwidthGBps, 500.0);
    auto problems = importProblems(*db);
    ASSERT_TRUE(problems.isOk());
    ASSERT_EQ(problems->size(), 1u);
    EXPECT_EQ((*problems)[0].kind, "test.odd");
}

TEST_F(TraceStatsTest, EmptyTraceHasEmptySummaries)
{
    {
        auto writer = TraceWriter::create(m_path);
        ASSERT_TRUE((*writer)->commit().isOk());
    }
    auto db = openTrace(m_path);
    auto stats = computeTraceStats(*db, {});
    ASSERT_TRUE(stats.isOk()) << stats.status().message();
    EXPECT_TRUE(stats->span.empty);
    EXPECT_EQ(stats->kernels.kernelCount, 0);
    EXPECT_TRUE(stats->kernels.rows.empty());
    EXPECT_TRUE(stats->devices.empty());
    EXPECT_TRUE(stats->memoryOps.empty());
}

// The CloverLeaf export: every figure recomputed from the original nsys file without our code paths.
TEST_F(TraceStatsTest, CloverleafFiguresMatchTheExport)
{
    ASSERT_TRUE(importTraces({ kCloverleaf }, m_path, {}).isOk());
    auto db = openTrace(m_path);
    auto stats = computeTraceStats(*db, { 5, KernelNameKind::Demangled });
    ASSERT_TRUE(stats.isOk()) << stats.status().message();

    auto original = SqliteDb::open(kCloverleaf, SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(original.isOk());
    std::map<std::string, std::vector<int64_t>> byName;
    std::vector<std::pair<int64_t, int64_t>> intervals;
    auto rows = original->prepare("SELECT s.value, k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s"
                                  " ON s.id = k.demangledName");
    while (rows->step()) {
        byName[rows->columnText(0)].push_back(rows->columnInt(2) - rows->columnInt(1));
        intervals.emplace_back(rows->columnInt(1), rows->columnInt(2));
    }
    auto copies = original->prepare("SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY");
    while (copies->step())
        intervals.emplace_back(copies->columnInt(0), copies->columnInt(1));

    EXPECT_EQ(stats->kernels.kernelCount, 1312);
    EXPECT_EQ(stats->kernels.totalNs, 294404540);
    EXPECT_EQ(stats->kernels.distinctNames, static_cast<int64_t>(byName.size()));
    ASSERT_EQ(stats->kernels.rows.size(), 5u);
    for (const auto& row : stats->kernels.rows) {
        std::vector<int64_t> durations = byName.at(row.name);
        std::sort(durations.begin(), durations.end());
        size_t n = durations.size();
        double median = n % 2 ? durations[n / 2] : (durations[n / 2 - 1] + durations[n / 2]) / 2.0;
        int64_t total = 0;
        for (int64_t d : durations)
            total += d;
        EXPECT_EQ(row.time.count, static_cast<int64_t>(n));
        EXPECT_EQ(row.time.totalNs, total);
        EXPECT_DOUBLE_EQ(row.time.medianNs, median);
        EXPECT_EQ(row.time.minNs, durations.front());
        EXPECT_EQ(row.time.maxNs, durations.back());
    }

    // Busy time by sorting every interval and merging: the straightforward way.
    std::sort(intervals.begin(), intervals.end());
    int64_t busy = 0, runStart = intervals[0].first, runEnd = intervals[0].second;
    for (const auto& [start, end] : intervals) {
        if (start > runEnd) {
            busy += runEnd - runStart;
            runStart = start;
        }
        runEnd = std::max(runEnd, end);
    }
    busy += runEnd - runStart;
    ASSERT_EQ(stats->devices.size(), 1u);
    EXPECT_EQ(stats->devices[0].busyNs, busy);
    EXPECT_EQ(stats->devices[0].name, "NVIDIA A100-SXM4-80GB");

    ASSERT_EQ(stats->memoryOps.size(), 2u);
    EXPECT_EQ(stats->memoryOps[0].memoryTypes, "Pageable -> Device");
    EXPECT_EQ(stats->memoryOps[0].time.count, 254);
    EXPECT_EQ(stats->memoryOps[0].totalBytes, 225065752);
    EXPECT_EQ(stats->memoryOps[0].time.totalNs, 9346285);
    EXPECT_TRUE(stats->problems.empty());
}

} // namespace
} // namespace placescope
