// SPDX-License-Identifier: MIT
// What HTA users read from a Kineto trace survives the import (issue 16): NCCL collective metadata on the real
// two-rank NCCL trace and on hand-written events (X and B/E), reachable from the NCCL kernels; the device and stream
// of GPU annotations; CUPTI range profiler counters linked to their ops; launch flows of the 2021 legacy format
// bound to their API calls; the recording machine's name and driver as system facts, nothing else of the top level.
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace placescope {
namespace {

class KinetoKeptData : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path()
            / ("ps_kineto_kept_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(m_dir);
        m_out = (m_dir / "out.sqlite").string();
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    std::string writeJson(const std::string& text)
    {
        std::string path = (m_dir / "trace.json").string();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    std::string text(const std::string& sql)
    {
        auto db = openTrace(m_out);
        EXPECT_TRUE(db.isOk()) << db.status().message();
        auto statement = db->prepare(sql);
        EXPECT_TRUE(statement.isOk()) << sql;
        return statement.isOk() && statement->step() ? statement->columnText(0) : "<no row>";
    }

    std::filesystem::path m_dir;
    std::string m_out;
};

TEST_F(KinetoKeptData, NcclCollectiveMetadataOfTheRealTrace)
{
    ASSERT_TRUE(
        importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_nccl_a100_rank0of2_layout.json.gz" }, m_out, {})
            .isOk());
    // 27 record_param_comms ops carry it in the file (python3 -c: events with args 'Collective name', cat cpu_op).
    EXPECT_EQ(
        text("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE json_extract(extra, '$.\"Collective name\"') IS NOT NULL"),
        "27");
    // The first one, field by field as in the JSON.
    EXPECT_EQ(text("SELECT extra FROM PS_FRAMEWORK_OPS WHERE json_extract(extra, '$.\"Collective name\"') IS NOT NULL"
                   " ORDER BY start LIMIT 1"),
        "{\"Collective name\":\"broadcast\",\"In msg nelems\":53120,\"Out msg nelems\":53120,"
        "\"Group size\":2,\"dtype\":\"Float\",\"Process Group Name\":\"0\","
        "\"Process Group Description\":\"default_pg\",\"Process Group Ranks\":\"[0, 1]\"}");
    // Each of the 21 NCCL kernels reaches its collective through its launch (correlation -> external id -> op); the
    // kernels' own args name 15 allreduce and 6 broadcast.
    EXPECT_EQ(
        text("SELECT group_concat(c || ':' || n, ' ') FROM (SELECT json_extract(o.extra, '$.\"Collective name\"') c,"
             " COUNT(DISTINCT k.rowid) n FROM CUPTI_ACTIVITY_KIND_KERNEL k"
             " JOIN StringIds s ON s.id = k.demangledName"
             " JOIN PS_EXTERNAL_CORRELATION x ON x.correlationId = k.correlationId"
             " JOIN PS_FRAMEWORK_OPS o ON o.externalId = x.externalId"
             " WHERE s.value LIKE 'nccl%' AND o.extra IS NOT NULL GROUP BY c ORDER BY c)"),
        "allreduce:15 broadcast:6");
}

// gpu_user_annotation ranges keep their device and stream (pid and tid in the JSON): of the file's 30, 21 are on
// stream 40 and 9 on stream 7, and 939 kernels run inside an annotation on its own stream (1174 on any stream), as
// python3 over the JSON counts them.
TEST_F(KinetoKeptData, GpuAnnotationsKeepTheirStream)
{
    ASSERT_TRUE(
        importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_nccl_a100_rank0of2_layout.json.gz" }, m_out, {})
            .isOk());
    EXPECT_EQ(text("SELECT group_concat(deviceId || '/' || streamId || ':' || n, ' ') FROM (SELECT deviceId, streamId,"
                   " COUNT(*) n FROM PS_GPU_ANNOTATIONS GROUP BY 1, 2 ORDER BY 2)"),
        "0/7:9 0/40:21");
    EXPECT_EQ(
        text("SELECT COUNT(*) FROM PS_GPU_ANNOTATIONS a JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON k.deviceId = a.deviceId"
             " AND k.streamId = a.streamId AND k.start >= a.start AND k.end <= a.end"),
        "939");
    EXPECT_EQ(text("SELECT COUNT(*) FROM PS_GPU_ANNOTATIONS a JOIN StringIds s ON s.id = a.nameId"
                   " WHERE s.value = '## backward ##' AND a.externalId IS NOT NULL"),
        text("SELECT COUNT(*) FROM NVTX_EVENTS WHERE text = '## backward ##'"));
}

TEST_F(KinetoKeptData, NcclMetadataOfCompleteAndBeginEndEvents)
{
    std::string path = writeJson(R"({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
       "args": {"External id": 3, "Collective name": "all_gather", "In msg nelems": 64, "Out msg nelems": 256,
                "Group size": 4, "dtype": "BFloat16", "Process Group Name": "7", "Process Group Description": "tp",
                "Process Group Ranks": "[0, 1, 2, 3]"}},
      {"ph": "B", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 20,
       "args": {"External id": 4, "Collective name": "broadcast", "In msg nelems": 8, "dtype": "Int"}},
      {"ph": "E", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 30},
      {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 40, "dur": 5, "args": {}}
    ]})");
    ASSERT_TRUE(importTraces({ path }, m_out, {}).isOk());
    EXPECT_EQ(
        text("SELECT json_extract(extra, '$.\"Out msg nelems\"') || ' ' || json_extract(extra, '$.dtype') || ' '"
             " || json_extract(extra, '$.\"Process Group Description\"') FROM PS_FRAMEWORK_OPS WHERE externalId = 3"),
        "256 BFloat16 tp");
    EXPECT_EQ(text("SELECT extra FROM PS_FRAMEWORK_OPS WHERE externalId = 4"),
        "{\"Collective name\":\"broadcast\",\"In msg nelems\":8,\"dtype\":\"Int\"}");
    EXPECT_EQ(text("SELECT COALESCE(extra, 'NULL') FROM PS_FRAMEWORK_OPS WHERE start = 40000"), "NULL");
}

// cuda_profiler_range events (CUPTI range profiler counters, one range per kernel) are kept per metric and paired
// with the kernel launches in order, as HTA pairs them, which leads to their ops.
TEST_F(KinetoKeptData, ProfilerRangeCountersReachTheirOps)
{
    std::string path = writeJson(R"({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 5, "tid": 5, "ts": 100, "dur": 50, "args": {"External id": 1}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, "ts": 110, "dur": 5,
       "args": {"External id": 1, "correlation": 71}},
      {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 5, "tid": 5, "ts": 200, "dur": 50, "args": {"External id": 2}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, "ts": 210, "dur": 5,
       "args": {"External id": 2, "correlation": 72}},
      {"ph": "X", "cat": "cuda_profiler_range", "name": "fft2d_r2c_32x32", "pid": 0, "tid": 0, "ts": 120, "dur": 30,
       "args": {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 86114304,
                "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 1024}},
      {"ph": "X", "cat": "cuda_profiler_range", "name": "elementwise_add", "pid": 0, "tid": 0, "ts": 220, "dur": 10,
       "args": {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 4096.5}}
    ]})");
    ASSERT_TRUE(importTraces({ path }, m_out, {}).isOk());
    EXPECT_EQ(text("SELECT COUNT(*) FROM PS_COUNTERS"), "3");
    // Each counter leads to the op that launched its kernel.
    EXPECT_EQ(text("SELECT group_concat(op || ' ' || metric || '=' || value, '; ') FROM (SELECT s.value AS op,"
                   " c.metric, c.value FROM PS_COUNTERS c"
                   " JOIN PS_EXTERNAL_CORRELATION x ON x.correlationId = c.correlationId"
                   " JOIN PS_FRAMEWORK_OPS o ON o.externalId = x.externalId JOIN StringIds s ON s.id = o.nameId"
                   " ORDER BY c.start, c.metric)"),
        "aten::conv2d smsp__sass_thread_inst_executed_op_fadd_pred_on.sum=86114304.0; "
        "aten::conv2d smsp__sass_thread_inst_executed_op_ffma_pred_on.sum=1024.0; "
        "aten::add smsp__sass_thread_inst_executed_op_fadd_pred_on.sum=4096.5");
    EXPECT_EQ(text("SELECT s.value FROM PS_COUNTERS c JOIN StringIds s ON s.id = c.nameId ORDER BY c.start LIMIT 1"),
        "fft2d_r2c_32x32");
    EXPECT_EQ(text("SELECT COUNT(*) FROM PS_PROBLEMS WHERE kind LIKE 'kineto.counter%'"), "0");
}

TEST_F(KinetoKeptData, CountersWithoutAsManyLaunchesStayUnlinked)
{
    std::string path = writeJson(R"({"traceEvents": [
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, "ts": 110, "dur": 5,
       "args": {"correlation": 71}},
      {"ph": "X", "cat": "cuda_profiler_range", "name": "k1", "pid": 0, "tid": 0, "ts": 120, "dur": 30,
       "args": {"smsp__cycles_elapsed.avg": 10}},
      {"ph": "X", "cat": "cuda_profiler_range", "name": "k2", "pid": 0, "tid": 0, "ts": 220, "dur": 10,
       "args": {"smsp__cycles_elapsed.avg": 20}}
    ]})");
    ASSERT_TRUE(importTraces({ path }, m_out, {}).isOk());
    EXPECT_EQ(text("SELECT COUNT(*) || ' ' || COUNT(correlationId) FROM PS_COUNTERS"), "2 0");
    EXPECT_EQ(text("SELECT count || ' ' || example FROM PS_PROBLEMS WHERE kind = 'kineto.counter_ranges_unlinked'"),
        "1 2 ranges, 1 cudaLaunchKernel calls");
}

// The 2021 legacy files quote their API calls' tids ("25738") and give their launch flows the number 25738: one
// thread, so every launch flow starts at its API call (same correlation id, thread and time), on the thread id and
// name the file gives it.
TEST_F(KinetoKeptData, LegacyLaunchFlowsStartOnTheirApiCallsThread)
{
    ASSERT_TRUE(importTraces(
        { std::string(PLACESCOPE_DATA_DIR) + "/traces/kineto_resnet50_v100_legacy2021.pt.trace.json.gz" }, m_out, {})
                    .isOk());
    const std::string flows = text("SELECT COUNT(*) FROM PS_FLOWS");
    EXPECT_EQ(flows, "9096");
    EXPECT_EQ(text("SELECT COUNT(*) FROM PS_FLOWS f JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = f.id"
                   " AND r.globalTid = f.fromGlobalTid AND r.start = f.fromTs"),
        flows);
    EXPECT_EQ(text("SELECT group_concat(name, ',') FROM (SELECT DISTINCT t.name FROM CUPTI_ACTIVITY_KIND_RUNTIME r"
                   " JOIN PS_THREADS t ON t.globalTid = r.globalTid ORDER BY t.name)"),
        "thread 25738 (python),thread 25772 (python)");
    // The thread ids are the OS's, not ids made up for text.
    EXPECT_EQ(text("SELECT group_concat(tid, ',') FROM (SELECT DISTINCT globalTid % 16777216 AS tid"
                   " FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY tid)"),
        "25738,25772");
}

// The recording host and CUDA driver become TARGET_INFO_SYSTEM_ENV rows under nsys's names and ids where the trace
// names them; what else a producer put at the top level (here an environment and a command line with a secret) is
// never stored, and a trace without them gets no facts, least of all the importing machine's.
TEST_F(KinetoKeptData, RecordingHostIsASystemFactNeverTheEnvironment)
{
    const std::string path
        = writeJson(R"json({"schemaVersion": 1, "hostname": "trainer-07", "cuda_driver_version": 12020,
        "env": {"WANDB_API_KEY": "hunter2-secret"}, "command_line": "python train.py --token hunter2-secret",
        "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85899345920}],
        "traceEvents": [
          {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100, "ts": 5, "dur": 2,
           "args": {"correlation": 1}},
          {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 10, "dur": 5,
           "args": {"device": 0, "stream": 7, "correlation": 1}}]})json");
    ASSERT_TRUE(importTraces({ path }, m_out, {}).isOk());
    EXPECT_EQ(text("SELECT group_concat(name || '(' || nameEnum || ')=' || value, ' ') FROM"
                   " (SELECT * FROM TARGET_INFO_SYSTEM_ENV ORDER BY nameEnum)"),
        "CudaDriverVersion(611)=12020 Hostname(619)=trainer-07");
    EXPECT_EQ(text("SELECT group_concat(DISTINCT hostname) FROM PS_PROCESSES"), "trainer-07");
    std::ifstream file(m_out, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    EXPECT_GT(bytes.size(), 4096u);
    EXPECT_EQ(bytes.find("hunter2"), std::string::npos);

    // A real trace without them: no fact at all.
    ASSERT_TRUE(std::filesystem::remove(m_out));
    ASSERT_TRUE(importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz" }, m_out, {})
                    .isOk());
    EXPECT_EQ(text("SELECT COUNT(*) FROM TARGET_INFO_SYSTEM_ENV"), "0");
    EXPECT_EQ(text("SELECT COUNT(*) FROM PS_PROCESSES WHERE IFNULL(hostname, '') <> ''"), "0");
}

} // namespace
} // namespace placescope
