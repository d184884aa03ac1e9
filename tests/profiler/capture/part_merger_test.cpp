// SPDX-License-Identifier: MIT
// Merging capture parts: string ids remapped (each name once), processes kept with their ranks, GPUs once,
// framework op ids renumbered, problems summed; unreadable parts skipped and counted; no output when nothing
// is readable; a Kineto import contributes only the tables asked for, shifted onto the capture's clock.
#include "profiler/capture/part_files.h"
#include "profiler/capture/part_merger.h"
#include "profiler/store/trace_writer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

namespace placescope::capture {
namespace {

using namespace testing;
namespace fs = std::filesystem;

struct PartSpec
{
    int64_t pid;
    std::optional<int64_t> rank;
    std::vector<std::string> kernelNames;
    int64_t dropped = 0;
};

// A part as a traced process leaves it: crash-safe writer, flushed, closed as .partial.
std::string writePart(const fs::path& dir, const PartSpec& spec)
{
    TraceWriterOptions options;
    options.crashSafePartial = true;
    auto writer = TraceWriter::create(partTracePath(dir.string(), spec.pid), options);
    EXPECT_TRUE(writer.isOk()) << writer.status().message();
    TraceWriter& w = *writer.value();
    w.setMeta("source_format", "cupti_capture");
    w.setMeta("cupti_version", "130001");
    w.setMeta("capture_pid", std::to_string(spec.pid));
    ProcessInfo process { makeGlobalPid(spec.pid), spec.pid, spec.rank, "python3", "host" };
    w.add(process);
    GpuInfo gpu;
    gpu.id = 0;
    gpu.name = "NVIDIA H100 80GB HBM3";
    w.add(gpu);
    int64_t time = 1000;
    for (const std::string& name : spec.kernelNames) {
        KernelEvent kernel;
        kernel.start = time;
        kernel.end = time + 100;
        kernel.globalPid = makeGlobalPid(spec.pid);
        kernel.demangledName = name;
        kernel.correlationId = time;
        w.add(kernel);
        RuntimeEvent launch;
        launch.start = time - 50;
        launch.end = time - 10;
        launch.globalTid = makeGlobalTid(spec.pid, spec.pid);
        launch.correlationId = time;
        launch.name = "cudaLaunchKernel_v7000";
        w.add(launch);
        time += 1000;
    }
    FrameworkOp op;
    op.start = 10;
    op.end = 20;
    op.globalTid = makeGlobalTid(spec.pid, spec.pid);
    op.name = "aten::conv2d";
    op.category = "cpu_op";
    w.add(op);
    if (spec.dropped)
        w.countProblem("capture.dropped_records", ProblemSeverity::DataLoss, "lost", {}, spec.dropped);
    EXPECT_TRUE(w.flush().isOk());
    EXPECT_TRUE(w.closePartial().isOk());
    return partTracePath(dir.string(), spec.pid) + ".partial";
}

class PartMergerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = m_temp.path();
        m_output = (m_dir / "merged.sqlite").string();
    }
    int64_t count(const std::string& sql) { return queryInt(m_output, sql); }

    TempDir m_temp { "capture" };
    fs::path m_dir;
    std::string m_output;
};

TEST_F(PartMergerTest, MergesPartsWithOneStringTableAndTheirRanks)
{
    std::string a = writePart(m_dir, { 100, 0, { "k1(float*)", "k2(int)" }, 2 });
    std::string b = writePart(m_dir, { 200, 1, { "k2(int)", "k3()" }, 3 });
    auto summary = mergeParts({ { a, {}, 0 }, { b, {}, 0 } }, m_output);
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(summary->partsMerged, 2);
    EXPECT_EQ(summary->processes, 2);
    EXPECT_EQ(summary->droppedRecords, 5);
    EXPECT_EQ(summary->rowsByTable["CUPTI_ACTIVITY_KIND_KERNEL"], 4);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 4);
    EXPECT_EQ(count("SELECT COUNT(*) FROM StringIds WHERE value = 'k2(int)'"), 1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM StringIds WHERE value = 'cudaLaunchKernel_v7000'"), 1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM (SELECT value FROM StringIds GROUP BY value HAVING COUNT(*) > 1)"), 0);
    // Every kernel still names what its part said, through the output's ids.
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                    "WHERE (k.globalPid = "
                  + std::to_string(makeGlobalPid(200))
                  + " AND s.value IN ('k2(int)', 'k3()')) "
                    "OR (k.globalPid = "
                  + std::to_string(makeGlobalPid(100)) + " AND s.value IN ('k1(float*)', 'k2(int)'))"),
        4);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                    "WHERE s.value = 'k3'"),
        1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON "
                    "r.correlationId = k.correlationId AND r.globalTid / 16777216 = k.globalPid / 16777216"),
        4);
    EXPECT_EQ(count("SELECT rank FROM PS_PROCESSES WHERE pid = 200"), 1);
    EXPECT_EQ(count("SELECT rank FROM PS_PROCESSES WHERE pid = 100"), 0);
    EXPECT_EQ(count("SELECT COUNT(*) FROM TARGET_INFO_GPU"), 1);
    EXPECT_EQ(count("SELECT COUNT(DISTINCT id) FROM PS_FRAMEWORK_OPS"), 2);
    EXPECT_EQ(count("SELECT count FROM PS_PROBLEMS WHERE kind = 'capture.dropped_records'"), 5);
    EXPECT_EQ(queryText(m_output, "SELECT value FROM PS_META WHERE key = 'capture_parts'"), "2");
    EXPECT_EQ(queryText(m_output, "SELECT value FROM PS_META WHERE key = 'cupti_version'"), "130001");
    EXPECT_EQ(queryText(m_output, "SELECT COUNT(*) FROM PS_META WHERE key = 'capture_pid'"), "0");
    EXPECT_FALSE(fs::exists(m_output + ".partial"));
    // nsys's run description: the processes, the span of the events, this machine's name.
    EXPECT_EQ(count("SELECT COUNT(*) FROM PROCESSES WHERE pid IN (100, 200)"), 2);
    EXPECT_EQ(count("SELECT COUNT(*) FROM ANALYSIS_DETAILS WHERE duration = stopTime - startTime AND duration > 0"), 1);
    // Its description of itself, once (not once per part).
    EXPECT_EQ(queryText(m_output,
                  "SELECT group_concat(value) FROM META_DATA_EXPORT WHERE name IN"
                  " ('EXPORT_PRODUCT_NAME', 'EXPORT_SCHEMA_VERSION')"),
        "Placescope,3.13.2");
    char host[256] = {};
    ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
    EXPECT_EQ(
        queryText(m_output, "SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname' AND nameEnum = 619"),
        host);
}

// Capture times are CLOCK_REALTIME ns: the session starts at the epoch, so utcEpochNs + start is UTC (rows copied
// in SQL, the span comes from the merged tables).
TEST_F(PartMergerTest, RealtimeTimesGiveASessionStartAtTheEpoch)
{
    std::string part = writePart(m_dir, { 100, 0, { "k1(float*)" }, 0 });
    const int64_t shift = 1700000000000000000;
    ASSERT_TRUE(mergeParts({ { part, {}, shift } }, m_output).isOk());
    EXPECT_EQ(queryText(m_output, "SELECT utcEpochNs || ' ' || utcTime FROM TARGET_INFO_SESSION_START_TIME"),
        "0 1970-01-01T00:00:00");
    EXPECT_EQ(count("SELECT startTime FROM ANALYSIS_DETAILS"), shift + 10); // the op at 10 ns is the first event
}

TEST_F(PartMergerTest, UnreadablePartIsSkippedAndCounted)
{
    std::string good = writePart(m_dir, { 100, std::nullopt, { "k()" } });
    std::string bad = (m_dir / "part-300.sqlite.partial").string();
    std::ofstream(bad) << "SQLite format 3 but not really, a process killed while creating its part";
    auto summary = mergeParts({ { good, {}, 0 }, { bad, {}, 0 } }, m_output);
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(summary->partsMerged, 1);
    ASSERT_EQ(summary->partsSkipped.size(), 1u);
    EXPECT_NE(summary->partsSkipped[0].find("part-300"), std::string::npos);
    EXPECT_EQ(
        count("SELECT count FROM PS_PROBLEMS WHERE kind = 'capture.part_unreadable' AND severity = 'data_loss'"), 1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1);
}

TEST_F(PartMergerTest, NothingReadableMeansAnErrorAndNoOutput)
{
    std::string bad = (m_dir / "part-1.sqlite.partial").string();
    std::ofstream(bad) << "garbage";
    auto summary = mergeParts({ { bad, {}, 0 } }, m_output);
    ASSERT_FALSE(summary.isOk());
    EXPECT_NE(summary.status().message().find("part-1"), std::string::npos);
    EXPECT_FALSE(fs::exists(m_output));
    EXPECT_FALSE(fs::exists(m_output + ".partial"));
    auto none = mergeParts({}, m_output);
    EXPECT_FALSE(none.isOk());
    EXPECT_FALSE(fs::exists(m_output));
}

TEST_F(PartMergerTest, ExtraInputGivesOnlyItsTablesShiftedInTime)
{
    std::string part = writePart(m_dir, { 100, std::nullopt, { "k()" } });
    std::string torch = (m_dir / "torch.sqlite").string();
    {
        auto writer = TraceWriter::create(torch);
        ASSERT_TRUE(writer.isOk());
        MemoryEvent memory;
        memory.start = 5;
        memory.deviceType = 1;
        memory.deviceId = 0;
        memory.bytes = 4096;
        memory.totalAllocated = 4096;
        writer.value()->add(memory);
        KernelEvent kernel;
        kernel.demangledName = "not taken";
        writer.value()->add(kernel);
        ASSERT_TRUE(writer.value()->commit().isOk());
    }
    auto summary = mergeParts({ { part, {}, 0 }, { torch, { "PS_MEMORY_EVENTS" }, 1000000 } }, m_output);
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(summary->partsMerged, 1);
    EXPECT_EQ(count("SELECT start FROM PS_MEMORY_EVENTS WHERE bytes = 4096"), 1000005);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1);
}

} // namespace
} // namespace placescope::capture
