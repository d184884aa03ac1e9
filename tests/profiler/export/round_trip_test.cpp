// SPDX-License-Identifier: MIT
// import -> export (Chrome JSON) -> import again keeps, per kind of event, the count and the summed durations
// (and bytes, copy kinds, names). Starting from the nsys export, from a Kineto trace, and from a trace written
// with TraceWriter holding framework ops, memsets and memory events. Needs the Kineto JSON importer.
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/importers/importer.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/store/trace_file.h"
#include "profiler/store/trace_writer.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <map>

namespace placescope {
namespace {

// kind -> "count|sum" of what must survive the round trip.
std::map<std::string, std::string> fingerprint(SqliteDb& db)
{
    static const std::pair<const char*, const char*> kQueries[] = {
        { "kernels", "SELECT COUNT(*) || '|' || COALESCE(SUM(end - start), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL" },
        { "kernel names",
            "SELECT COALESCE(SUM(length(s.value) * (k.end - k.start)), 0) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
            " JOIN StringIds s ON s.id = k.demangledName" },
        { "memcpys",
            "SELECT COUNT(*) || '|' || COALESCE(SUM(end - start), 0) || '|' || COALESCE(SUM(bytes), 0)"
            " FROM CUPTI_ACTIVITY_KIND_MEMCPY" },
        { "memcpy kinds",
            "SELECT COALESCE(group_concat(k, ','), '') FROM (SELECT copyKind || ':' || srcKind || ':' ||"
            " dstKind || '=' || COUNT(*) AS k FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY copyKind, srcKind,"
            " dstKind ORDER BY 1)" },
        { "memsets",
            "SELECT COUNT(*) || '|' || COALESCE(SUM(end - start), 0) || '|' || COALESCE(SUM(bytes), 0)"
            " FROM CUPTI_ACTIVITY_KIND_MEMSET" },
        { "api calls",
            "SELECT COUNT(*) || '|' || COALESCE(SUM(end - start), 0) || '|' || COALESCE(SUM(eventClass), 0)"
            " FROM CUPTI_ACTIVITY_KIND_RUNTIME" },
        { "framework ops", "SELECT COUNT(*) || '|' || COALESCE(SUM(end - start), 0) FROM PS_FRAMEWORK_OPS" },
        { "memory events", "SELECT COUNT(*) || '|' || COALESCE(SUM(bytes), 0) FROM PS_MEMORY_EVENTS" },
        { "launch links",
            "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
            " ON r.correlationId = k.correlationId" },
    };
    std::map<std::string, std::string> result;
    for (const auto& [kind, sql] : kQueries) {
        auto stmt = db.prepare(sql);
        EXPECT_TRUE(stmt.isOk()) << kind << ": " << stmt.status().message();
        if (stmt.isOk() && stmt->step())
            result[kind] = stmt->columnText(0);
    }
    return result;
}

class RoundTripTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path()
            / ("ps_roundtrip_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(m_dir);
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    std::string path(const char* name) { return (m_dir / name).string(); }

    // trace -> JSON -> trace; returns both fingerprints.
    void roundTrip(
        const std::string& first, std::map<std::string, std::string>& before, std::map<std::string, std::string>& after)
    {
        auto db = openTrace(first);
        ASSERT_TRUE(db.isOk()) << db.status().message();
        before = fingerprint(*db);
        auto exported = exportChromeTrace(*db, path("export.json"));
        ASSERT_TRUE(exported.isOk()) << exported.status().message();
        auto reimported = importTraces({ path("export.json") }, path("second.sqlite"), {});
        ASSERT_TRUE(reimported.isOk()) << reimported.status().message();
        auto second = openTrace(path("second.sqlite"));
        ASSERT_TRUE(second.isOk());
        after = fingerprint(*second);
    }

    std::filesystem::path m_dir;
};

TEST_F(RoundTripTest, FromNsysExport)
{
    std::string nsys = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
    ASSERT_TRUE(importTraces({ nsys }, path("first.sqlite"), {}).isOk());
    std::map<std::string, std::string> before, after;
    roundTrip(path("first.sqlite"), before, after);
    EXPECT_EQ(before["kernels"], "1312|294404540");
    EXPECT_EQ(before, after);
}

TEST_F(RoundTripTest, FromKinetoTrace)
{
    std::string kineto = std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz";
    ASSERT_TRUE(importTraces({ kineto }, path("first.sqlite"), {}).isOk());
    std::map<std::string, std::string> before, after;
    roundTrip(path("first.sqlite"), before, after);
    EXPECT_EQ(before.at("kernels").substr(0, 3), "79|"); // 79 kernels (tests/data/kineto_ref.py)
    EXPECT_EQ(before, after);
}

TEST_F(RoundTripTest, FromTraceWriter)
{
    {
        auto writer = TraceWriter::create(path("first.sqlite"));
        ASSERT_TRUE(writer.isOk());
        TraceWriter& w = **writer;
        const int64_t gtid = makeGlobalTid(777, 778);
        w.add(ProcessInfo { makeGlobalPid(777), 777, std::nullopt, "python", "" });
        w.add(ThreadInfo { gtid, makeGlobalPid(777), 778, "main", {} });
        for (int i = 0; i < 50; ++i) {
            const int64_t base = 1000000 + i * 10007;
            FrameworkOp op;
            op.start = base;
            op.end = base + 5003;
            op.globalTid = gtid;
            op.name = i % 2 ? "aten::add" : "aten::conv2d";
            op.category = "cpu_op";
            op.externalId = i + 1;
            op.inputDims = "[[8,3,32,32]]";
            w.add(op);
            RuntimeEvent launch;
            launch.start = base + 11;
            launch.end = base + 1013;
            launch.globalTid = gtid;
            launch.correlationId = 100 + i;
            launch.name = i % 5 ? "cudaLaunchKernel" : "cudaMemsetAsync";
            w.add(launch);
            w.add(ExternalCorrelation { 100 + i, i + 1, makeGlobalPid(777), 0 });
            if (i % 5) {
                KernelEvent k;
                k.start = base + 2001;
                k.end = base + 2001 + 333 * i;
                k.streamId = 7;
                k.correlationId = 100 + i;
                k.globalPid = makeGlobalPid(777);
                k.demangledName = "void kernel_" + std::to_string(i % 3) + "<float>(float*)";
                w.add(k);
            } else {
                MemsetEvent m;
                m.start = base + 2001;
                m.end = base + 2101;
                m.streamId = 7;
                m.correlationId = 100 + i;
                m.globalPid = makeGlobalPid(777);
                m.bytes = 4096 * (i + 1);
                m.memKind = static_cast<int64_t>(MemKind::Device);
                w.add(m);
            }
            MemoryEvent alloc;
            alloc.start = base + 20;
            alloc.globalTid = gtid;
            alloc.deviceType = 1;
            alloc.deviceId = 0;
            alloc.bytes = i % 3 ? 1024 : -512;
            alloc.totalAllocated = 1024 * i;
            alloc.totalReserved = 1 << 20;
            w.add(alloc);
            w.add(FlowEvent {
                100 + i, "ac2g", launch.start, gtid, std::nullopt, std::nullopt, base + 2001, std::nullopt, 0, 7 });
        }
        ASSERT_TRUE(w.commit().isOk());
    }
    std::map<std::string, std::string> before, after;
    roundTrip(path("first.sqlite"), before, after);
    EXPECT_EQ(before["framework ops"], "50|250150");
    EXPECT_EQ(before, after);
}

} // namespace
} // namespace placescope
