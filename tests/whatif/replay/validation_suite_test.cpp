// SPDX-License-Identifier: MIT
// The what-if validation suite (issue 25): purpose-made traces, written through the real TraceWriter into real
// SQLite files, each with its answer worked out by hand in the comment above it, each prediction held to 2 %.
// These cases are about time a thread spends blocked: a wait is replayed as a wait on what it waits for (it shrinks
// or grows when that moves), CPU work as work. The other cases of the suite, held the same way, are in
// event_wait_test.cpp (event waits with 12 us latency), step_rule_test.cpp (GPU-bound steps with the host running
// ahead, CPU tails after the last launch, the first step's input), honest_figures_test.cpp (pageable copies);
// docs/whatif_accuracy.md lists them all with their errors. Each case prints "[validation] ..." with its error.
#include "tests/analysis/findings/trace_builder.h"
#include "tests/whatif/replay/whatif_fixture.h"

#include "profiler/importers/importer.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

namespace placescope::testing {
namespace {

constexpr int64_t kLoaderTid = 101;
constexpr int64_t kSideTid = 102;

void expectHeld(const char* name, int64_t predictedNs, double answerNs)
{
    const double error = (static_cast<double>(predictedNs) - answerNs) / answerNs;
    std::printf("[validation] %s: predicted %.1f us, answer %.1f us, error %+.2f %%\n", name,
        static_cast<double>(predictedNs) / 1000.0, answerNs / 1000.0, 100.0 * error);
    EXPECT_LE(std::abs(error), 0.02) << name << ": predicted " << predictedNs << " ns, answer " << answerNs << " ns";
}

// A polling loop: 3 steps of 1000 us. Step k at t0 = 1000k us: launch [t0, t0+5] -> kernel "gemm" [t0+10, t0+810];
// then the thread polls QUERY every 50 us: calls [t0+20+50i, t0+22+50i], i = 0..16; the 17th (at t0+820) sees the
// kernel done; 178 us of CPU to the next step. The loop is one wait for the kernel that wakes 822 - 810 = 12 us
// after it. gemm x0.5: the kernel ends at t0+410, the loop at t0+422, the next step starts at t0+600: 600 us.
// (Replayed as 17 calls with frozen gaps, as before, the loop took its measured 802 us: no saving.)
void writePollingSteps(TraceBuilder& b, const std::string& query)
{
    for (int64_t k = 0; k < 3; ++k) {
        const int64_t t0 = k * 1000 * kUs;
        b.kernel(t0 + 10 * kUs, t0 + 810 * kUs, "gemm", t0);
        for (int64_t i = 0; i <= 16; ++i)
            b.api(t0 + (20 + 50 * i) * kUs, t0 + (22 + 50 * i) * kUs, query);
        b.step(k, t0, t0 + 1000 * kUs);
    }
    ASSERT_TRUE(b.writer().commit().isOk());
}

TEST(ValidationSuite, StreamQueryPollingLoopIsOneWait)
{
    TraceBuilder b("v_stream_query");
    writePollingSteps(b, "cudaStreamQuery");
    WhatIfRun run = runEdits(b.path(), { "kernels:gemm=x0.5" });
    EXPECT_EQ(run.result.quality.pollingLoops, 3);
    EXPECT_EQ(run.result.replay.stepNs, 1000 * kUs);
    expectHeld("cudaStreamQuery polling loop, gemm x0.5", run.result.predicted.stepNs, 600.0 * kUs);
    const std::string text = whatIfText(run.result, run.trace);
    EXPECT_NE(text.find("3 polling loops of query calls"), std::string::npos) << text;
}

TEST(ValidationSuite, EventQueryPollingLoopIsOneWait)
{
    TraceBuilder b("v_event_query");
    writePollingSteps(b, "cudaEventQuery");
    WhatIfRun run = runEdits(b.path(), { "kernels:gemm=x0.5" });
    EXPECT_EQ(run.result.quality.pollingLoops, 3);
    EXPECT_EQ(run.result.replay.stepNs, 1000 * kUs);
    expectHeld("cudaEventQuery polling loop, gemm x0.5", run.result.predicted.stepNs, 600.0 * kUs);
}

// cudaEventSynchronize paired with its recorded event: 3 steps of 2000 us. Step k at t0 = 2000k us:
//   launch producer [t0, t0+5] -> kernel "producer" on stream 7 [t0+10, t0+1010]
//   cudaEventRecord [t0+5, t0+7] (event 5 on stream 7: a CUDA_EVENT row)
//   launch other [t0+9, t0+14] -> kernel "other" on stream 8 [t0+20, t0+1011] (ends after the producer)
//   cudaEventSynchronize [t0+20, t0+1022] (event 5: a sync row), 12 us after the producer; CPU to t0+2000.
// The sync waits for the producer, not for "other" that happened to end last before it returned. producer x0.5: it
// ends at t0+510, the sync at t0+522, the next step 978 us later at t0+1500 ("other", ending at t0+1011, is done by
// then): 1500 us. Guessing the awaited op from end times picks "other": no saving.
TEST(ValidationSuite, EventSynchronizeWaitsForItsRecordedEvent)
{
    TraceBuilder b("v_event_sync");
    for (int64_t k = 0; k < 3; ++k) {
        const int64_t t0 = k * 2000 * kUs;
        const int64_t record = 5000 + 10 * k, sync = record + 1;
        b.kernel(t0 + 10 * kUs, t0 + 1010 * kUs, "producer", t0, 5 * kUs, kPid, 0, 7);
        b.api(t0 + 5 * kUs, t0 + 7 * kUs, "cudaEventRecord", record);
        b.kernel(t0 + 20 * kUs, t0 + 1011 * kUs, "other", t0 + 9 * kUs, 5 * kUs, kPid, 0, 8);
        b.api(t0 + 20 * kUs, t0 + 1022 * kUs, "cudaEventSynchronize", sync);
        b.step(k, t0, t0 + 2000 * kUs);
        b.eventRecord(record, 7, 5);
        b.sync(t0 + 20 * kUs, t0 + 1022 * kUs, sync, 1, 5); // CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE
    }
    ASSERT_TRUE(b.writer().commit().isOk());
    WhatIfRun run = runEdits(b.path(), { "kernels:producer=x0.5" });
    EXPECT_EQ(run.result.quality.eventSyncsPaired, 3);
    EXPECT_EQ(run.result.replay.stepNs, 2000 * kUs);
    expectHeld("cudaEventSynchronize on a recorded event, producer x0.5", run.result.predicted.stepNs, 1500.0 * kUs);
}

// The same event synchronize as PyTorch's profiler writes it with cuda_sync events on (Kineto "Event Sync" with
// wait_on_stream and wait_on_cuda_event_record_corr_id), through the real importer: the same 1500 us.
TEST(ValidationSuite, KinetoEventSyncIsPairedWithItsRecord)
{
    TempDir dir("v_kineto_event_sync");
    const std::string json = dir.file("trace.json");
    {
        std::ofstream out(json);
        out << R"({"traceEvents": [)";
        for (int64_t k = 0; k < 3; ++k) {
            const int64_t t0 = k * 2000;
            const int64_t c = 100 + 10 * k;
            auto x = [&](const char* cat, const std::string& name, int pid, int tid, int64_t ts, int64_t dur,
                         const std::string& args) { out << kinetoEvent(cat, name, pid, tid, ts, dur, args); };
            auto corr = kinetoCorrelation;
            x("user_annotation", "ProfilerStep#" + std::to_string(k), 10, 10, t0, 2000, "");
            x("cuda_runtime", "cudaLaunchKernel", 10, 10, t0, 5, corr(c));
            x("cuda_runtime", "cudaEventRecord", 10, 10, t0 + 5, 2, corr(c + 1));
            x("cuda_runtime", "cudaLaunchKernel", 10, 10, t0 + 9, 5, corr(c + 2));
            x("cuda_runtime", "cudaEventSynchronize", 10, 10, t0 + 20, 1002, corr(c + 3));
            x("kernel", "producer", 0, 7, t0 + 10, 1000, R"("device": 0, "stream": 7, )" + corr(c));
            x("kernel", "other", 0, 8, t0 + 20, 991, R"("device": 0, "stream": 8, )" + corr(c + 2));
            x("cuda_sync", "Event Sync", 0, 7, t0 + 20, 1002,
                R"("cuda_sync_kind": "Event Sync", "device": 0, "stream": -1, )" + corr(c + 3)
                    + R"(, "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": )" + std::to_string(c + 1)
                    + R"(, "wait_on_cuda_event_id": 3)");
        }
        out << R"({"ph": "i", "s": "g", "name": "Record Window End", "pid": 10, "tid": 10, "ts": 6000}]})";
    }
    const std::string store = dir.file("trace.sqlite");
    ASSERT_TRUE(importTraces({ json }, store, {}).isOk());
    WhatIfRun run = runEdits(store, { "kernels:producer=x0.5" });
    EXPECT_EQ(run.result.quality.eventSyncsPaired, 3);
    EXPECT_EQ(run.result.replay.stepNs, 2000 * kUs);
    expectHeld("Kineto Event Sync on a recorded event, producer x0.5", run.result.predicted.stepNs, 1500.0 * kUs);
}

// A loader-bound queue: 4 steps of 1000 us from t0 = 1000 + 1000k us. A loader thread (no CUDA call) fetches batch k
// in [t0-400, t0+600] (a "DataLoader worker fetch" range, back to back: 1000 us a batch). The main thread waits in
// enumerate(DataLoader)#...__next__ [t0, t0+605] (batch k arrives at t0+600, 5 us to hand over), launches gemm
// [t0+605, t0+610] -> [t0+615, t0+815], syncs [t0+612, t0+817] and runs 183 us of CPU to t0+1000. Its own work is
// 400 us a step: the loader sets the step. input=x0.5: batches take 500 us, back to back from 600 us: batch k is
// ready at 1100 + 500k. The main thread's cycle stays 400 us (launch, 212 us to the sync's end, 188 us of CPU: 183
// + the 5 us hand-over), so each launch waits for its batch, the first too (its own work before it is the 5 us
// hand-over): launches at 1105, 1605, 2105, 2605 us; the first step still starts at 1000 us (an instant before a
// thread's first call stays put when the call moves earlier), the last ends 395 us after its launch, at 3000 us:
// 2000 us for 4 steps, mean 500 us (the loader's new pace). Replayed as
// work, the wait would shrink by half (302.5 us a step): 697.5 us, 40 % off. gemm x0.5 (100 us off each step's
// own work) leaves the loader's pace: launches stay at t0+605; only the last step ends 100 us earlier (its CPU tail
// follows its sync, which ends at t0+717), at 4900 us: 3900 us for 4 steps, mean 975 us.
void writeLoaderSteps(TraceBuilder& b, bool withLoaderThread)
{
    for (int64_t k = 0; k < 4; ++k) {
        const int64_t t0 = (1000 + 1000 * k) * kUs;
        if (withLoaderThread)
            b.range(t0 - 400 * kUs, t0 + 600 * kUs, "DataLoader worker fetch", kLoaderTid);
        b.range(t0, t0 + 605 * kUs, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
        b.kernel(t0 + 615 * kUs, t0 + 815 * kUs, "gemm", t0 + 605 * kUs);
        b.api(t0 + 612 * kUs, t0 + 817 * kUs, "cudaDeviceSynchronize");
        b.step(k, t0, t0 + 1000 * kUs);
    }
    ASSERT_TRUE(b.writer().commit().isOk());
}

TEST(ValidationSuite, LoaderBoundQueueFollowsTheLoaderThread)
{
    TraceBuilder b("v_loader");
    writeLoaderSteps(b, true);
    WhatIfRun run = runEdits(b.path(), { "input=x0.5" });
    EXPECT_EQ(run.result.quality.loaderWaits, 4);
    EXPECT_EQ(run.result.quality.loaderWaitsAsWork, 0);
    EXPECT_EQ(run.result.replay.stepNs, 1000 * kUs);
    expectHeld("loader-bound queue, input=x0.5", run.result.predicted.stepNs, 500.0 * kUs);
    ASSERT_EQ(run.result.edits.size(), 1u);
    EXPECT_NE(run.result.edits[0].matchedWhat.find("4 ranges of loader threads' work"), std::string::npos)
        << run.result.edits[0].matchedWhat;
    WhatIfRun gpu = runEdits(b.path(), { "kernels:gemm=x0.5" });
    expectHeld("loader-bound queue, gemm x0.5", gpu.result.predicted.stepNs, 975.0 * kUs);
    // The CLI's way (the events read from the store, TraceParts::ForReplay for the kernel edit) agrees.
    WhatIfRun store = runEditsFromStore(b.path(), { "kernels:gemm=x0.5" });
    EXPECT_EQ(store.result.quality.loaderWaits, 4);
    EXPECT_EQ(store.result.predicted.stepNs, gpu.result.predicted.stepNs);
}

// The same main thread with no loader thread in the trace (worker processes are not traced): the wait in __next__
// is replayed as CPU work, and the output says so. input=x0.5 then halves it: each gap from the sync's end to the
// next launch (788 us, 605 of them in __next__) loses 302.5 us, the first call moves as much: 697.5 us a step.
TEST(ValidationSuite, LoaderWaitWithoutTheLoaderThreadIsWorkAndSaysSo)
{
    TraceBuilder b("v_loader_unseen");
    writeLoaderSteps(b, false);
    WhatIfRun run = runEdits(b.path(), { "input=x0.5" });
    EXPECT_EQ(run.result.quality.loaderWaits, 0);
    EXPECT_EQ(run.result.quality.loaderWaitsAsWork, 4);
    expectHeld(
        "DataLoader wait with no loader thread shown (as work), input=x0.5", run.result.predicted.stepNs, 697.5 * kUs);
    const std::string text = whatIfText(run.result, run.trace);
    EXPECT_NE(text.find("4 DataLoader waits replayed as CPU work: the trace shows no loader thread's work"),
        std::string::npos)
        << text;
}

// .item() every step: 3 steps of 1000 us. Step k at t0 = 1000k us: aten::item's cpu_op [t0+6, t0+825];
// launch gemm [t0, t0+5] -> [t0+10, t0+810]; cudaMemcpyAsync DtoH of 4 bytes [t0+6, t0+10] -> copy [t0+810,
// t0+812] (queued behind the gemm); cudaStreamSynchronize [t0+12, t0+824] wakes 12 us after the copy; 176 us of CPU.
// gemm x0.5: the copy runs [t0+410, t0+412], the sync ends at t0+424, the next step at t0+600: 600 us.
TEST(ValidationSuite, ItemSyncEveryStep)
{
    TraceBuilder b("v_item");
    for (int64_t k = 0; k < 3; ++k) {
        const int64_t t0 = k * 1000 * kUs;
        b.hostOp(t0 + 6 * kUs, t0 + 825 * kUs, "aten::item", "cpu_op");
        b.kernel(t0 + 10 * kUs, t0 + 810 * kUs, "gemm", t0);
        b.copy(t0 + 810 * kUs, t0 + 812 * kUs, CopyKind::DtoH, 4, MemKind::Pinned, "cudaMemcpyAsync", t0 + 6 * kUs,
            t0 + 10 * kUs);
        b.api(t0 + 12 * kUs, t0 + 824 * kUs, "cudaStreamSynchronize");
        b.step(k, t0, t0 + 1000 * kUs);
    }
    ASSERT_TRUE(b.writer().commit().isOk());
    WhatIfRun run = runEdits(b.path(), { "kernels:gemm=x0.5" });
    EXPECT_EQ(run.result.replay.stepNs, 1000 * kUs);
    expectHeld(".item() sync every step, gemm x0.5", run.result.predicted.stepNs, 600.0 * kUs);
}

// A side thread calling CUDA in the main thread's CPU gap: 3 steps of 2100 us. Step k at t0 = 2100k us: launch gemm
// [t0, t0+5] -> [t0+10, t0+1010], sync [t0+6, t0+1012], then 1088 us of CPU (an Optimizer.step range) to the next
// step. A monitoring thread calls cudaMemGetInfo [t0+2090, t0+2095] each step, just before the main thread resumes:
// a gap of 1 ms or more ending right after another thread's call used to be a hand-off, tying the main thread to
// the side thread's clock. The side thread was at work 5 us of the 1088: no hand-off, the gap is CPU work.
// gemm x0.5: the sync ends at t0+512, the next step 1088 us later: 1600 us (the hand-off kept 2100).
TEST(ValidationSuite, SideThreadCallInACpuGapIsNoHandoff)
{
    TraceBuilder b("v_side_thread");
    for (int64_t k = 0; k < 3; ++k) {
        const int64_t t0 = k * 2100 * kUs;
        b.kernel(t0 + 10 * kUs, t0 + 1010 * kUs, "gemm", t0);
        b.api(t0 + 6 * kUs, t0 + 1012 * kUs, "cudaDeviceSynchronize");
        b.hostOp(t0 + 1012 * kUs, t0 + 2100 * kUs, "Optimizer.step#SGD.step", "user_annotation");
        b.api(t0 + 2090 * kUs, t0 + 2095 * kUs, "cudaMemGetInfo", std::nullopt, kPid, kSideTid);
        b.step(k, t0, t0 + 2100 * kUs);
    }
    ASSERT_TRUE(b.writer().commit().isOk());
    WhatIfRun run = runEdits(b.path(), { "kernels:gemm=x0.5" });
    EXPECT_EQ(run.result.quality.inferredHandoffs, 0);
    EXPECT_EQ(run.result.quality.handoffsRejected, 4); // the main thread's 2 gaps, and the side thread's 2 (the
                                                       // main thread was at work 1012 us of their 2095)
    EXPECT_EQ(run.result.replay.stepNs, 2100 * kUs);
    expectHeld("side thread calling CUDA in a CPU gap, gemm x0.5", run.result.predicted.stepNs, 1600.0 * kUs);
}

// Two ranks, rank 0 slow: 3 steps of 1000 us on each. Step k at t0 = 1000k us on rank r: launch gemm [t0, t0+5] ->
// [t0+10, t0+10+G] (G = 800 us on rank 0, 400 us on rank 1), launch all-reduce [t0+6, t0+11] -> after the gemm, to
// t0+910 on both (rank 0 arrives at t0+810, + 100 us); sync [t0+12, t0+912]; 88 us of CPU. Rank 1 waits 400 us in
// the all-reduce for rank 0. gemm x0.5: rank 0 arrives at t0+410, both all-reduces end at t0+510, both syncs at
// t0+512: 600 us steps on both ranks.
TEST(ValidationSuite, TwoRanksWaitForTheSlowOne)
{
    TraceBuilder b("v_two_ranks");
    b.process(100, 0);
    b.process(200, 1);
    for (int64_t pid : { 100, 200 }) {
        const int64_t g = pid == 100 ? 800 : 400;
        for (int64_t k = 0; k < 3; ++k) {
            const int64_t t0 = k * 1000 * kUs;
            b.kernel(t0 + 10 * kUs, t0 + (10 + g) * kUs, "gemm", t0, 5 * kUs, pid);
            b.kernel(t0 + (10 + g) * kUs, t0 + 910 * kUs, "ncclKernel_AllReduce_RING_LL_Sum_float", t0 + 6 * kUs,
                5 * kUs, pid);
            b.api(t0 + 12 * kUs, t0 + 912 * kUs, "cudaDeviceSynchronize", std::nullopt, pid);
            b.step(k, t0, t0 + 1000 * kUs, pid);
        }
    }
    ASSERT_TRUE(b.writer().commit().isOk());
    WhatIfRun run = runEdits(b.path(), { "kernels:gemm=x0.5" });
    EXPECT_EQ(run.result.quality.collectives, 3);
    EXPECT_EQ(run.result.replay.stepNs, 1000 * kUs);
    expectHeld("two ranks, rank 0 slow, gemm x0.5", run.result.predicted.stepNs, 600.0 * kUs);
}

// A pageable copy every step: 3 steps of 1000 us. Step k at t0 = 1000k us: cudaMemcpy HtoD of 4 MiB from pageable
// memory [t0, t0+400] -> copy [t0+20, t0+398] (the host blocks until it ends); launch gemm [t0+402, t0+407] ->
// [t0+412, t0+812]; sync [t0+408, t0+814]; 186 us of CPU. The copy is a wait for its op: gemm x0.5 ends the sync at
// t0+614, the next step at t0+800: 800 us. (honest_figures_test.cpp holds the `pinned` edit on such copies.)
TEST(ValidationSuite, PageableCopyIsAWait)
{
    TraceBuilder b("v_pageable");
    for (int64_t k = 0; k < 3; ++k) {
        const int64_t t0 = k * 1000 * kUs;
        b.copy(t0 + 20 * kUs, t0 + 398 * kUs, CopyKind::HtoD, 4 << 20, MemKind::Pageable, "cudaMemcpy", t0,
            t0 + 400 * kUs);
        b.kernel(t0 + 412 * kUs, t0 + 812 * kUs, "gemm", t0 + 402 * kUs);
        b.api(t0 + 408 * kUs, t0 + 814 * kUs, "cudaDeviceSynchronize");
        b.step(k, t0, t0 + 1000 * kUs);
    }
    ASSERT_TRUE(b.writer().commit().isOk());
    WhatIfRun run = runEdits(b.path(), { "kernels:gemm=x0.5" });
    EXPECT_EQ(run.result.replay.stepNs, 1000 * kUs);
    expectHeld("pageable cudaMemcpy, gemm x0.5", run.result.predicted.stepNs, 800.0 * kUs);
}

} // namespace
} // namespace placescope::testing
