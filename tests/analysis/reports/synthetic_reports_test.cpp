// SPDX-License-Identifier: MIT
// Every report on one small trace written with the real TraceWriter, whose events are placed so that each expected
// figure follows from the construction (worked out in the comments next to the events and the assertions).
#include "analysis/reports/reports.h"
#include "tests/analysis/findings/trace_builder.h"

namespace placescope::testing {
namespace {

const std::string kTemplatedA = "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<A>(int)";
const std::string kTemplatedB = "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<B>(float)";
const std::string kAllReduce = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";
const int64_t kTid = makeGlobalTid(kPid, kPid);

// Two recorded steps, [0, 100 us) and [100, 200 us). Stream 7 (launch calls last 5 us):
//   K1 [10, 20) us, launched at 5     -> delay 5 us
//   K2 [40, 42) us, launched at 30    -> the gap [20, 40) is host wait until the call returned (35), then 5 us other
//   K3 [42.02, 50) us, launched at 36 -> a 20 ns gap: kernel wait
//   K4 [150, 160) us, launched at 120 (step 2)
//   a 1 MB HtoD copy [170, 180) us, its call [160, 165) us (step 2)
// Stream 14: an NCCL all-reduce [15, 45) us, launched at 1 us (step 1).
// Host: annotation "forward" [0, 33) us and op aten::foo [4, 33) us on the launching thread; allocator events.
class ReportsOnBuiltTrace : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_builder = new TraceBuilder("reports");
        TraceBuilder& b = *s_builder;
        b.gpu(0, "Test GPU", 16LL << 30, 8);
        b.step(1, 0, 100 * kUs);
        b.step(2, 100 * kUs, 200 * kUs);
        b.kernel(15 * kUs, 45 * kUs, kAllReduce, 1 * kUs, 5 * kUs, kPid, 0, 14);
        b.kernel(10 * kUs, 20 * kUs, kTemplatedA, 5 * kUs);
        b.kernel(40 * kUs, 42 * kUs, kTemplatedA, 30 * kUs);
        b.kernel(42 * kUs + 20, 50 * kUs, kTemplatedA, 36 * kUs);
        b.kernel(150 * kUs, 160 * kUs, kTemplatedB, 120 * kUs);
        b.copy(170 * kUs, 180 * kUs, CopyKind::HtoD, 1000000, MemKind::Pinned, "cudaMemcpyAsync", 160 * kUs, 165 * kUs);
        b.hostOp(0, 33 * kUs, "forward", "user_annotation");
        // The same range as the GPU ran it, on stream 7: K1 and K2 start inside, the all-reduce (stream 14) does not.
        b.writer().add(GpuAnnotation { 9 * kUs, 41 * kUs, 0, 7, "forward", std::nullopt, makeGlobalPid(kPid) });
        b.hostOp(4 * kUs, 33 * kUs, "aten::foo");
        // Blocks A (1000 B), B (3000 B), C (5000 B); A is freed before C: the peak (8000 B at 7 us) holds B and C.
        allocation(2 * kUs, 0x10, 1000, 1000, 4096);
        allocation(3 * kUs, 0x20, 3000, 4000, 4096);
        allocation(6 * kUs, 0x10, -1000, 3000, 4096);
        allocation(7 * kUs, 0x30, 5000, 8000, 8192);
        allocation(31 * kUs, 0x20, -3000, 5000, 8192);
        // K1 (correlation 2) launched inside aten::foo (external id 2): two metrics of its profiled range, and one
        // range that reached no launch.
        b.writer().add(ExternalCorrelation { 2, 2, makeGlobalPid(kPid), 1 });
        counter(2, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 1024.0);
        counter(2, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 86.5);
        counter(std::nullopt, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 10.0);
        Status committed = b.writer().commit();
        ASSERT_TRUE(committed.isOk()) << committed.message();
    }
    static void TearDownTestSuite()
    {
        delete s_builder;
        s_builder = nullptr;
    }
    static void allocation(int64_t atNs, int64_t address, int64_t bytes, int64_t allocated, int64_t reserved)
    {
        MemoryEvent m;
        m.start = atNs;
        m.globalTid = kTid;
        m.deviceType = 1;
        m.deviceId = 0;
        m.address = address;
        m.bytes = bytes;
        m.totalAllocated = allocated;
        m.totalReserved = reserved;
        s_builder->writer().add(m);
    }

    static void counter(OptInt correlation, const std::string& metric, double value)
    {
        CounterSample c;
        c.start = 10 * kUs;
        c.end = 20 * kUs;
        c.deviceId = 0;
        c.name = kTemplatedA;
        c.metric = metric;
        c.value = value;
        c.correlationId = correlation;
        c.globalPid = makeGlobalPid(kPid);
        s_builder->writer().add(c);
    }

    static ReportTable run(const std::string& name, ReportOptions options = {})
    {
        auto db = openTrace(s_builder->path());
        EXPECT_TRUE(db.isOk()) << db.status().message();
        const ReportInfo* report = findReport(name);
        EXPECT_NE(report, nullptr) << name;
        auto table = runReport(*db, *report, options);
        EXPECT_TRUE(table.isOk()) << table.status().message();
        return table.isOk() ? std::move(table.value()) : ReportTable {};
    }

    static TraceBuilder* s_builder;
};

TraceBuilder* ReportsOnBuiltTrace::s_builder = nullptr;

int64_t intAt(const ReportTable& t, size_t row, const std::string& key)
{
    const size_t c = t.column(key);
    EXPECT_LT(c, t.columns.size()) << key;
    EXPECT_LT(row, t.rows.size());
    if (c >= t.columns.size() || row >= t.rows.size() || !std::holds_alternative<int64_t>(t.rows[row][c])) {
        ADD_FAILURE() << key << " is not an integer in row " << row;
        return INT64_MIN;
    }
    return std::get<int64_t>(t.rows[row][c]);
}

double realAt(const ReportTable& t, size_t row, const std::string& key)
{
    const size_t c = t.column(key);
    if (c >= t.columns.size() || row >= t.rows.size() || !std::holds_alternative<double>(t.rows[row][c])) {
        ADD_FAILURE() << key << " is not a real in row " << row;
        return -1;
    }
    return std::get<double>(t.rows[row][c]);
}

bool isNull(const ReportTable& t, size_t row, const std::string& key)
{
    return std::holds_alternative<std::monostate>(t.rows.at(row).at(t.column(key)));
}

std::string textAt(const ReportTable& t, size_t row, const std::string& key)
{
    const ReportCell& cell = t.rows.at(row).at(t.column(key));
    return std::holds_alternative<std::string>(cell) ? std::get<std::string>(cell) : std::string("<not text>");
}

// The row whose `key` column holds `value` (text) or, for integers, equals it; rows.size() if none.
size_t findRow(const ReportTable& t, const std::string& key, const std::string& value)
{
    for (size_t r = 0; r < t.rows.size(); ++r)
        if (textAt(t, r, key) == value)
            return r;
    return t.rows.size();
}

bool hasNoteContaining(const ReportTable& t, const std::string& text)
{
    for (const auto& note : t.notes)
        if (note.find(text) != std::string::npos)
            return true;
    return false;
}

TEST_F(ReportsOnBuiltTrace, KernelLaunchGroupsByShortNameAndCountsShortKernels)
{
    ReportOptions options;
    options.shortNames = true;
    ReportTable t = run("kernel_launch", options);
    const size_t row = findRow(t, "name", "multi_tensor_apply_kernel");
    ASSERT_LT(row, t.rows.size());
    EXPECT_EQ(intAt(t, row, "kernels"), 4);
    EXPECT_EQ(intAt(t, row, "kernel_total_ns"), 10 * kUs + 2 * kUs + (8 * kUs - 20) + 10 * kUs);
    EXPECT_EQ(intAt(t, row, "launch_call_mean_ns"), 5 * kUs);
    // Delays 5, 10, 6.02 and 30 us.
    EXPECT_EQ(intAt(t, row, "launch_delay_mean_ns"), (5 * kUs + 10 * kUs + 6 * kUs + 20 + 30 * kUs + 2) / 4);
    EXPECT_EQ(intAt(t, row, "launch_delay_max_ns"), 30 * kUs);
    EXPECT_EQ(intAt(t, row, "shorter_than_launch"), 1); // K2: 2 us under a 5 us call
    // Without --short-names the two instantiations stay apart.
    ReportTable demangled = run("kernel_launch");
    EXPECT_EQ(findRow(demangled, "name", "multi_tensor_apply_kernel"), demangled.rows.size());
    EXPECT_EQ(intAt(demangled, findRow(demangled, "name", kTemplatedA), "kernels"), 3);
    EXPECT_EQ(intAt(demangled, findRow(demangled, "name", kTemplatedB), "kernels"), 1);
}

TEST_F(ReportsOnBuiltTrace, KernelLaunchesListEveryLaunchInStartOrder)
{
    ReportTable t = run("kernel_launches");
    ASSERT_EQ(t.rows.size(), 5U); // K1, the all-reduce, K2, K3, K4
    EXPECT_EQ(intAt(t, 0, "start_ns"), 10 * kUs);
    EXPECT_EQ(intAt(t, 1, "launch_delay_ns"), 14 * kUs); // the all-reduce: launched at 1 us, started at 15 us
    EXPECT_EQ(intAt(t, 2, "kernel_ns"), 2 * kUs);
    EXPECT_EQ(intAt(t, 2, "shorter_than_launch"), 1);
    EXPECT_EQ(intAt(t, 3, "launch_delay_ns"), 6 * kUs + 20);
    EXPECT_EQ(intAt(t, 4, "launch_call_ns"), 5 * kUs);
    int64_t shorter = 0;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        shorter += intAt(t, r, "shorter_than_launch");
        EXPECT_GE(intAt(t, r, "kernel_rowid"), 1);
    }
    EXPECT_EQ(shorter, 1);
}

TEST_F(ReportsOnBuiltTrace, IdleSplitsStreamGapsIntoHostKernelAndOtherWaits)
{
    ReportTable t = run("idle");
    // Rows: step 1 device, step 1 stream 7, step 1 stream 14, step 2 device, step 2 stream 7, then the sums over the
    // steps (step "all"): device, stream 7, stream 14.
    ASSERT_EQ(t.rows.size(), 8U);
    EXPECT_EQ(intAt(t, 1, "step"), 1);
    EXPECT_EQ(intAt(t, 1, "stream"), 7);
    EXPECT_EQ(intAt(t, 1, "ops"), 3);
    EXPECT_EQ(intAt(t, 1, "span_ns"), 40 * kUs);
    EXPECT_EQ(intAt(t, 1, "busy_ns"), 20 * kUs - 20);
    EXPECT_EQ(intAt(t, 1, "host_wait_ns"), 15 * kUs);
    EXPECT_EQ(intAt(t, 1, "kernel_wait_ns"), 20);
    EXPECT_EQ(intAt(t, 1, "other_ns"), 5 * kUs);
    EXPECT_EQ(intAt(t, 1, "idle_ns"), 20 * kUs + 20);
    // The device: the all-reduce covers stream 7's gaps, so no idle time in step 1.
    EXPECT_TRUE(isNull(t, 0, "stream"));
    EXPECT_EQ(intAt(t, 0, "busy_ns"), 40 * kUs);
    EXPECT_EQ(intAt(t, 0, "idle_ns"), 0);
    // Step 2: K4 then the copy, whose call returned 5 us into the 10 us gap.
    EXPECT_EQ(intAt(t, 4, "step"), 2);
    EXPECT_EQ(intAt(t, 4, "host_wait_ns"), 5 * kUs);
    EXPECT_EQ(intAt(t, 4, "other_ns"), 5 * kUs);
    for (size_t r = 0; r < t.rows.size(); ++r)
        EXPECT_EQ(intAt(t, r, "busy_ns") + intAt(t, r, "idle_ns"), intAt(t, r, "span_ns")) << "row " << r;
    // Idle/step: idle over the step's time, not over the GPU's span within it.
    for (size_t r = 0; r < 5; ++r)
        EXPECT_NEAR(realAt(t, r, "idle_step_ratio"),
            static_cast<double>(intAt(t, r, "idle_ns")) / static_cast<double>(intAt(t, r, "step_ns")), 1e-12)
            << "row " << r;
    // Stream 7 over both steps: the sums of its two step rows, its share over both steps' time.
    EXPECT_EQ(textAt(t, 6, "step"), "all");
    EXPECT_EQ(intAt(t, 6, "stream"), 7);
    EXPECT_EQ(intAt(t, 6, "ops"), intAt(t, 1, "ops") + intAt(t, 4, "ops"));
    EXPECT_EQ(intAt(t, 6, "idle_ns"), intAt(t, 1, "idle_ns") + intAt(t, 4, "idle_ns"));
    EXPECT_EQ(intAt(t, 6, "step_ns"), intAt(t, 1, "step_ns") + intAt(t, 4, "step_ns"));
    EXPECT_NEAR(realAt(t, 6, "idle_step_ratio"),
        static_cast<double>(intAt(t, 6, "idle_ns")) / static_cast<double>(intAt(t, 6, "step_ns")), 1e-12);
    EXPECT_TRUE(hasNoteContaining(t, "step 'all'"));
}

TEST_F(ReportsOnBuiltTrace, StepFilterKeepsOneStepAndRefusesAMissingOne)
{
    ReportOptions options;
    options.step = 2;
    ReportTable t = run("idle", options);
    ASSERT_EQ(t.rows.size(), 2U);
    EXPECT_EQ(intAt(t, 0, "step"), 2);
    EXPECT_EQ(intAt(t, 1, "ops"), 2);
    EXPECT_TRUE(hasNoteContaining(t, "scope: step 2"));

    auto db = openTrace(s_builder->path());
    ASSERT_TRUE(db.isOk());
    options.step = 7;
    auto refused = runReport(*db, *findReport("idle"), options);
    ASSERT_FALSE(refused.isOk());
    EXPECT_NE(refused.status().message().find("--step 7 is out of range"), std::string::npos)
        << refused.status().message();
    EXPECT_NE(refused.status().message().find("1 to 2"), std::string::npos) << refused.status().message();
}

TEST_F(ReportsOnBuiltTrace, QueueLengthIsTheTimeWeightedCountOfLaunchedUnfinishedOps)
{
    ReportTable t = run("queue");
    ASSERT_EQ(t.rows.size(), 2U);
    const size_t row = intAt(t, 0, "stream") == 7 ? 0 : 1;
    EXPECT_EQ(intAt(t, row, "ops"), 5);
    EXPECT_EQ(intAt(t, row, "span_ns"), 175 * kUs); // first launch (5 us) to the copy's end (180 us)
    EXPECT_EQ(intAt(t, row, "max"), 2); // K2 and K3 between 36 and 42 us
    EXPECT_EQ(intAt(t, row, "max_at_ns"), 36 * kUs);
    // 1 op for 15 + 6 + 8 + 40 + 20 us, 2 ops for 6 us: 101 us of op-time over 175 us.
    EXPECT_NEAR(realAt(t, row, "mean"), 101.0 / 175.0, 1e-9);
    EXPECT_EQ(intAt(t, row, "full_queue_ns"), 0);
}

TEST_F(ReportsOnBuiltTrace, QueueTimelineBucketsTheSameStepFunction)
{
    // Stream 7's queue: from 5 us (K1's launch) to 180 us (the copy's end); stream 14: 1 us to 45 us. The span of
    // both, 1-180 us, in 50 buckets of 3.58 us.
    const ReportTable t = run("queue_timeline");
    const int64_t width = (179 * kUs + 49) / 50;
    ASSERT_FALSE(t.rows.empty());
    double opTime7 = 0; // integral of stream 7's length: the queue report's mean x its span
    int64_t max7 = 0, rows7 = 0;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        EXPECT_EQ(intAt(t, r, "bucket_ns"), width);
        EXPECT_EQ((intAt(t, r, "bucket_start_ns") - 1 * kUs) % width, 0);
        if (intAt(t, r, "stream") != 7)
            continue;
        ++rows7;
        opTime7 += realAt(t, r, "mean") * static_cast<double>(width);
        max7 = std::max(max7, intAt(t, r, "max"));
    }
    EXPECT_EQ(rows7, (180 * kUs - 1 - 1 * kUs) / width - (5 * kUs - 1 * kUs) / width + 1);
    EXPECT_NEAR(opTime7, 101.0 * kUs, 1e-6); // 101 us of op-time, as in the queue report
    EXPECT_EQ(max7, 2);
    // The bucket holding 36-42 us (K2 and K3 both queued) has max 2; the one holding 100 us (nothing queued) has 0.
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const int64_t start = intAt(t, r, "bucket_start_ns");
        if (intAt(t, r, "stream") == 7 && start <= 100 * kUs && 100 * kUs < start + width) {
            EXPECT_EQ(intAt(t, r, "max"), 0);
            EXPECT_EQ(realAt(t, r, "mean"), 0.0);
        }
        if (intAt(t, r, "stream") == 7 && start <= 38 * kUs && 38 * kUs < start + width) {
            EXPECT_EQ(intAt(t, r, "max"), 2);
        }
    }
}

TEST_F(ReportsOnBuiltTrace, StepsSplitBusyByCategoryAndIdleByCauseAtStepBoundaries)
{
    ReportTable t = run("steps");
    ASSERT_EQ(t.rows.size(), 2U);
    // Step 1: the GPU window starts at the first op (10 us); busy 10-50 us, compute K1+K2+K3, the rest of the
    // all-reduce exposed; the gap from 50 us to K4 (150 us) is host-late until K4's call returned (125 us), and
    // step 1 gets its part up to 100 us.
    EXPECT_EQ(intAt(t, 0, "step_ns"), 100 * kUs);
    EXPECT_EQ(intAt(t, 0, "gpu_window_ns"), 90 * kUs);
    EXPECT_EQ(intAt(t, 0, "busy_ns"), 40 * kUs);
    EXPECT_EQ(intAt(t, 0, "compute_ns"), 20 * kUs - 20);
    EXPECT_EQ(intAt(t, 0, "comm_ns"), 20 * kUs + 20);
    EXPECT_EQ(intAt(t, 0, "copy_only_ns"), 0);
    EXPECT_EQ(intAt(t, 0, "idle_ns"), 50 * kUs);
    EXPECT_EQ(intAt(t, 0, "host_bound_ns"), 50 * kUs);
    EXPECT_EQ(intAt(t, 0, "other_ns"), 0);
    // Step 2: window 100-180 us; K4 and the copy busy; idle 25 us host + 25 us other before K4, 5 + 5 before the copy.
    EXPECT_EQ(intAt(t, 1, "gpu_window_ns"), 80 * kUs);
    EXPECT_EQ(intAt(t, 1, "busy_ns"), 20 * kUs);
    EXPECT_EQ(intAt(t, 1, "copy_only_ns"), 10 * kUs);
    EXPECT_EQ(intAt(t, 1, "idle_ns"), 60 * kUs);
    EXPECT_EQ(intAt(t, 1, "host_bound_ns"), 30 * kUs);
    EXPECT_EQ(intAt(t, 1, "other_ns"), 30 * kUs);
}

TEST_F(ReportsOnBuiltTrace, BandwidthSpreadsACopysBytesOverItsDuration)
{
    ReportTable t = run("bandwidth");
    ASSERT_FALSE(t.rows.empty());
    int64_t bytes = 0;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        EXPECT_EQ(textAt(t, r, "operation"), "Memcpy HtoD");
        EXPECT_EQ(textAt(t, r, "memory"), "Pinned -> Device");
        EXPECT_NEAR(realAt(t, r, "busy_gbps"), 100.0, 1e-9); // 1 MB in 10 us
        bytes += intAt(t, r, "bytes");
    }
    EXPECT_EQ(bytes, 1000000);
    EXPECT_TRUE(hasNoteContaining(t, "p50 100.00"));
}

TEST_F(ReportsOnBuiltTrace, MemoryFindsThePeakAndTheBlocksLiveAtIt)
{
    ReportTable t = run("memory");
    ASSERT_FALSE(t.rows.empty());
    int64_t peak = 0;
    for (size_t r = 0; r < t.rows.size(); ++r)
        peak = std::max(peak, intAt(t, r, "allocated_max"));
    EXPECT_EQ(peak, 8000);
    EXPECT_TRUE(hasNoteContaining(t, "peak allocated 7.81 KiB at +7.00 us")) << t.notes.front();
    EXPECT_TRUE(hasNoteContaining(t, "live at the peak: 2 block(s), 7.81 KiB allocated"));
    EXPECT_TRUE(hasNoteContaining(t, "4.88 KiB allocated at +7.00 us in aten::foo"));
}

TEST_F(ReportsOnBuiltTrace, AnnotationsCountTheKernelsLaunchedInside)
{
    ReportTable t = run("annotations");
    const size_t row = findRow(t, "name", "forward");
    ASSERT_LT(row, t.rows.size());
    EXPECT_EQ(textAt(t, row, "side"), "cpu");
    EXPECT_EQ(intAt(t, row, "count"), 1);
    EXPECT_EQ(intAt(t, row, "total_ns"), 33 * kUs);
    EXPECT_EQ(intAt(t, row, "kernels"), 3); // the all-reduce (1 us), K1 (5 us), K2 (30 us)
    EXPECT_EQ(intAt(t, row, "kernel_ns"), 30 * kUs + 10 * kUs + 2 * kUs);
}

TEST_F(ReportsOnBuiltTrace, GpuAnnotationsCountTheKernelsOfTheirStream)
{
    ReportTable t = run("annotations");
    size_t row = t.rows.size();
    for (size_t r = 0; r < t.rows.size(); ++r)
        if (textAt(t, r, "name") == "forward" && textAt(t, r, "side") == "gpu")
            row = r;
    ASSERT_LT(row, t.rows.size());
    EXPECT_EQ(intAt(t, row, "count"), 1);
    EXPECT_EQ(intAt(t, row, "total_ns"), 32 * kUs);
    EXPECT_EQ(intAt(t, row, "kernels"), 2);
    EXPECT_EQ(intAt(t, row, "kernel_ns"), 12 * kUs);
}

TEST_F(ReportsOnBuiltTrace, OverlapIsCommunicationTimeDuringCompute)
{
    ReportTable t = run("overlap");
    ASSERT_EQ(t.rows.size(), 3U);
    EXPECT_EQ(intAt(t, 0, "comm_ns"), 30 * kUs);
    EXPECT_EQ(intAt(t, 0, "overlapped_ns"), 5 * kUs + 2 * kUs + 3 * kUs - 20); // K1, K2 and K3 inside 15-45 us
    EXPECT_NEAR(realAt(t, 0, "overlap_ratio"), (10.0 * kUs - 20) / (30.0 * kUs), 1e-12);
    EXPECT_EQ(intAt(t, 1, "comm_ns"), 0);
    EXPECT_TRUE(isNull(t, 1, "overlap_ratio"));
    // The whole-trace row (HTA's one figure): every kernel of both steps.
    EXPECT_EQ(textAt(t, 2, "step"), "all");
    EXPECT_EQ(intAt(t, 2, "comm_ns"), 30 * kUs);
    EXPECT_EQ(intAt(t, 2, "compute_ns"), intAt(t, 0, "compute_ns") + intAt(t, 1, "compute_ns"));
    EXPECT_NEAR(realAt(t, 2, "overlap_ratio"), realAt(t, 0, "overlap_ratio"), 1e-12);
}

TEST_F(ReportsOnBuiltTrace, SequencesAreTheKernelsAnOpLaunchedItself)
{
    ReportOptions options;
    options.shortNames = true;
    ReportTable t = run("sequences", options);
    ASSERT_EQ(t.rows.size(), 1U);
    EXPECT_EQ(textAt(t, 0, "op"), "aten::foo");
    EXPECT_EQ(textAt(t, 0, "sequence"), "multi_tensor_apply_kernel -> multi_tensor_apply_kernel");
    EXPECT_EQ(intAt(t, 0, "count"), 1);
    EXPECT_EQ(intAt(t, 0, "kernel_total_ns"), 12 * kUs);
}

TEST_F(ReportsOnBuiltTrace, SequencesMinLengthLeavesOutShorterOnes)
{
    ReportOptions options;
    options.minLength = 3; // aten::foo launched two kernels itself
    ReportTable t = run("sequences", options);
    EXPECT_TRUE(t.rows.empty());
    EXPECT_TRUE(hasNoteContaining(t, "no framework op launched 3 or more kernels"));
    options.minLength = 2;
    EXPECT_EQ(run("sequences", options).rows.size(), 1U);
}

TEST_F(ReportsOnBuiltTrace, SequencesOfAnOpNameTakeEveryKernelLaunchedInsideItsOutermostRange)
{
    ReportOptions options;
    options.shortNames = true;
    // "forward" [0, 33) us is an annotation: not an op by default, but a range HTA's operator_name can name. Launched
    // inside it on its thread: the all-reduce (1 us), K1 (5 us, by aten::foo) and K2 (30 us, by aten::foo).
    options.op = "forward";
    ReportTable t = run("sequences", options);
    ASSERT_EQ(t.rows.size(), 1U);
    EXPECT_EQ(textAt(t, 0, "op"), "forward");
    EXPECT_EQ(intAt(t, 0, "kernels"), 3);
    EXPECT_EQ(textAt(t, 0, "sequence").substr(0, 20), "ncclKernel_AllReduce");
    EXPECT_NE(
        textAt(t, 0, "sequence").find(" -> multi_tensor_apply_kernel -> multi_tensor_apply_kernel"), std::string::npos);
    EXPECT_EQ(intAt(t, 0, "kernel_total_ns"), 30 * kUs + 10 * kUs + 2 * kUs);
    EXPECT_EQ(intAt(t, 0, "op_total_ns"), 33 * kUs);
    // "o" matches "forward" and "aten::foo"; aten::foo runs inside forward, so only forward starts a sequence.
    options.op = "o";
    t = run("sequences", options);
    ASSERT_EQ(t.rows.size(), 1U);
    EXPECT_EQ(textAt(t, 0, "op"), "forward");
    // aten::foo alone: its own two kernels.
    options.op = "foo";
    t = run("sequences", options);
    ASSERT_EQ(t.rows.size(), 1U);
    EXPECT_EQ(intAt(t, 0, "kernels"), 2);
    // Too long a minimum, and a name nothing has, say so instead of returning rows.
    options.op = "forward";
    options.minLength = 4;
    EXPECT_TRUE(run("sequences", options).rows.empty());
    options.op = "no_such_op";
    options.minLength = 0;
    t = run("sequences", options);
    EXPECT_TRUE(t.rows.empty());
    EXPECT_TRUE(hasNoteContaining(t, "no host range whose name contains 'no_such_op'"));
}

TEST_F(ReportsOnBuiltTrace, CollectivesComeFromNcclKernelNamesAndSayWhatIsMissing)
{
    // The all-reduce has no record_param_comms op (collectives_report_test.cpp has the sized ones).
    ReportTable t = run("collectives");
    ASSERT_EQ(t.rows.size(), 1U);
    EXPECT_EQ(textAt(t, 0, "collective"), "AllReduce");
    EXPECT_EQ(textAt(t, 0, "algorithm"), "RING");
    EXPECT_EQ(textAt(t, 0, "protocol"), "LL");
    EXPECT_EQ(intAt(t, 0, "total_ns"), 30 * kUs);
    EXPECT_TRUE(isNull(t, 0, "bytes"));
    EXPECT_TRUE(hasNoteContaining(t, "without a message size"));
}

TEST_F(ReportsOnBuiltTrace, CountersReachTheOpThroughTheLaunchsExternalId)
{
    ReportOptions options;
    options.shortNames = true;
    ReportTable t = run("counters", options);
    ASSERT_EQ(t.rows.size(), 3U); // (kernel, op, metric) in order: unlinked ffma, aten::foo fadd, aten::foo ffma
    EXPECT_TRUE(isNull(t, 0, "op"));
    EXPECT_NEAR(realAt(t, 0, "sum"), 10.0, 1e-12);
    EXPECT_EQ(textAt(t, 1, "op"), "aten::foo");
    EXPECT_EQ(textAt(t, 1, "metric"), "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum");
    EXPECT_NEAR(realAt(t, 1, "mean"), 86.5, 1e-12);
    EXPECT_EQ(textAt(t, 2, "kernel"), "multi_tensor_apply_kernel");
    EXPECT_EQ(intAt(t, 2, "ranges"), 1);
    EXPECT_NEAR(realAt(t, 2, "max"), 1024.0, 1e-12);
    EXPECT_TRUE(hasNoteContaining(t, "1 counter value(s) reach no op"));
}

} // namespace
} // namespace placescope::testing
