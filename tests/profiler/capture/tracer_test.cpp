// SPDX-License-Identifier: MIT
// The in-process tracer without a GPU: FakeCuptiApi hands it buffers of real CUDA 13 records through its own
// CUPTI buffer callbacks (walked by libcupti's iterator). Checks the part file and status file it leaves, the
// periodic commit that makes records visible while it runs, dropped records, the buffer budget, the delayed
// window, clean failure when another profiler holds CUPTI or no driver answers, and that a SIGKILLed process
// leaves a part that is a valid trace.
#include "cupti_records.h"
#include "profiler/capture/api_selection.h"
#include "profiler/capture/part_files.h"
#include "profiler/capture/part_merger.h"
#include "profiler/capture/tracer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <sys/wait.h>
#include <thread>

namespace placescope::capture {
namespace {

using namespace testing;
namespace fs = std::filesystem;

bool contains(const std::vector<CUpti_ActivityKind>& kinds, CUpti_ActivityKind kind)
{
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}
bool contains(const std::vector<CUpti_CallbackId>& ids, CUpti_CallbackId id)
{
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

RecordBuffer kernels(int count, uint32_t firstCorrelation)
{
    RecordBuffer records;
    for (int i = 0; i < count; ++i) {
        uint64_t start = 1000000 + 1000ull * (firstCorrelation + i);
        records.add(kernelRecord("_Z4stepPfi", start, start + 500, firstCorrelation + i));
    }
    return records;
}

template <typename Predicate> bool waitFor(Predicate done, int timeoutMs = 5000)
{
    for (int waited = 0; waited < timeoutMs; waited += 10) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
}

class TracerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = m_temp.path();
        m_config.partsDir = m_dir.string();
        m_config.flushIntervalMs = 50;
        m_config.bufferBytes = 1 << 20;
        m_config.maxBufferedBytes = 8 << 20;
        m_process.pid = getpid();
        m_process.rank = 3;
        m_process.name = "tracer_test";
        m_process.hostname = "testhost";
    }
    std::string partFile() const { return partTracePath(m_config.partsDir, m_process.pid) + ".partial"; }

    TempDir m_temp { "capture" };
    fs::path m_dir;
    CaptureConfig m_config;
    ProcessIdentity m_process;
};

TEST_F(TracerTest, WritesBuffersIntoItsPartAndFinishesItOnStop)
{
    FakeCuptiApi api;
    auto tracer = Tracer::start(api, m_config, m_process);
    ASSERT_TRUE(tracer.isOk()) << tracer.status().message();
    EXPECT_EQ(Tracer::active(), tracer.value().get());
    EXPECT_TRUE(api.subscribed);
    EXPECT_TRUE(api.callbacksRegistered());
    EXPECT_TRUE(contains(api.enabled, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    EXPECT_FALSE(contains(api.enabled, CUPTI_ACTIVITY_KIND_KERNEL)); // it serializes kernels
    EXPECT_TRUE(contains(api.enabled, CUPTI_ACTIVITY_KIND_MEMORY2));
    EXPECT_FALSE(contains(api.enabled, CUPTI_ACTIVITY_KIND_DRIVER));
    EXPECT_TRUE(contains(api.runtimeOff, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020));
    EXPECT_TRUE(contains(api.driverOn, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel));
    EXPECT_TRUE(fs::exists(partFile())); // a valid (empty) part exists from the start

    api.queue(kernels(30, 1)); // held by "CUPTI" until a flush
    ASSERT_TRUE(api.deliver(kernels(20, 100))); // a full buffer handed over on a program thread
    RecordBuffer calls;
    calls.add(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 10, 20, 1,
        static_cast<uint32_t>(getpid()), 77));
    api.queue(calls);
    tracer.value()->stop();
    EXPECT_GE(api.flushes, 1);
    EXPECT_TRUE(contains(api.disabled, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));

    std::string part = partFile();
    EXPECT_EQ(queryInt(part, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 50);
    EXPECT_EQ(queryInt(part, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 1);
    EXPECT_EQ(queryInt(part, "SELECT rank FROM PS_PROCESSES WHERE pid = " + std::to_string(getpid())), 3);
    EXPECT_EQ(queryText(part, "SELECT name FROM PS_PROCESSES"), "tracer_test");
    EXPECT_EQ(queryText(part, "SELECT value FROM PS_META WHERE key = 'source_format'"), "cupti_capture");
    EXPECT_EQ(queryText(part, "SELECT value FROM PS_META WHERE key = 'capture_rank'"), "3");
    std::vector<PartStatus> statuses = readStatusFiles(m_config.partsDir);
    ASSERT_EQ(statuses.size(), 1u);
    EXPECT_TRUE(statuses[0].done);
    EXPECT_EQ(statuses[0].pid, getpid());
    EXPECT_GE(statuses[0].events, 51);
    tracer.value().reset();
    EXPECT_EQ(Tracer::active(), nullptr);
    EXPECT_TRUE(fs::exists(part)); // closed, not removed: the launcher merges it
}

TEST_F(TracerTest, PeriodicFlushCommitsRecordsWhileTheProgramRuns)
{
    FakeCuptiApi api;
    auto tracer = Tracer::start(api, m_config, m_process);
    ASSERT_TRUE(tracer.isOk()) << tracer.status().message();
    api.queue(kernels(40, 1));
    uint64_t flushes = tracer.value()->flushCount();
    ASSERT_TRUE(waitFor([&] { return tracer.value()->flushCount() >= flushes + 2; }));
    // Another connection sees the committed rows while the tracer still holds the part open.
    EXPECT_EQ(queryInt(partFile(), "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 40);
    std::vector<PartStatus> statuses = readStatusFiles(m_config.partsDir);
    ASSERT_EQ(statuses.size(), 1u);
    EXPECT_FALSE(statuses[0].done);
    tracer.value()->stop();
}

TEST_F(TracerTest, DroppedRecordsAreCountedInTheProblemsAndTheStatus)
{
    FakeCuptiApi api;
    api.droppedPerQuery = 5;
    auto tracer = Tracer::start(api, m_config, m_process);
    ASSERT_TRUE(tracer.isOk()) << tracer.status().message();
    ASSERT_TRUE(api.deliver(kernels(3, 1)));
    tracer.value()->stop();
    int64_t dropped = tracer.value()->droppedRecords();
    EXPECT_GE(dropped, 5);
    EXPECT_EQ(queryInt(partFile(),
                  "SELECT count FROM PS_PROBLEMS WHERE kind = 'capture.dropped_records' AND severity "
                  "= 'data_loss'"),
        dropped);
    EXPECT_EQ(readStatusFiles(m_config.partsDir).at(0).droppedRecords, dropped);
}

TEST_F(TracerTest, BuffersBeyondTheBudgetAreRefused)
{
    m_config.maxBufferedBytes = 2 * m_config.bufferBytes;
    FakeCuptiApi api;
    auto tracer = Tracer::start(api, m_config, m_process);
    ASSERT_TRUE(tracer.isOk()) << tracer.status().message();
    uint8_t* first = api.hold();
    uint8_t* second = api.hold();
    EXPECT_NE(first, nullptr);
    EXPECT_NE(second, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 8, 0u);
    EXPECT_EQ(api.hold(), nullptr); // CUPTI then drops records and counts them
    tracer.value()->stop();
    EXPECT_EQ(queryText(partFile(), "SELECT value FROM PS_META WHERE key = 'capture_rejected_buffers'"), "1");
    std::free(first); // held "by CUPTI", never completed
    std::free(second);
}

int64_t realtimeNowNs()
{
    timespec now {};
    clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// The kinds are enabled when the window opens, not before: checked against the clock, not against how long start()
// took (a window 300 ms ahead had already opened when start() returned under ThreadSanitizer on a loaded machine).
TEST_F(TracerTest, DelayedWindowEnablesRecordingWhenItOpens)
{
    const int64_t windowStart = realtimeNowNs() + 2000000000;
    m_config.windowStartNs = windowStart;
    FakeCuptiApi api;
    auto tracer = Tracer::start(api, m_config, m_process);
    ASSERT_TRUE(tracer.isOk()) << tracer.status().message();
    bool enabledAtStart = !api.enabledNow().empty();
    if (realtimeNowNs() < windowStart) {
        EXPECT_FALSE(enabledAtStart);
    }
    EXPECT_TRUE(waitFor([&] { return contains(api.enabledNow(), CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); }, 10000));
    EXPECT_GE(realtimeNowNs(), windowStart) << "recording was enabled before its window opened";
    tracer.value()->stop();
}

TEST_F(TracerTest, AnotherProfilerHoldingCuptiMeansNoTracerAndNoPart)
{
    FakeCuptiApi api;
    api.subscribeResult = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    auto tracer = Tracer::start(api, m_config, m_process);
    ASSERT_FALSE(tracer.isOk());
    EXPECT_NE(tracer.status().message().find("another CUPTI profiler"), std::string::npos);
    EXPECT_FALSE(fs::exists(partFile()));
    EXPECT_EQ(Tracer::active(), nullptr);
}

TEST_F(TracerTest, NoDriverMeansNoTracerNoPartAndCuptiLeftFree)
{
    FakeCuptiApi api;
    api.enableResult = CUPTI_ERROR_UNKNOWN; // what libcupti 13 answers without a driver
    auto tracer = Tracer::start(api, m_config, m_process);
    ASSERT_FALSE(tracer.isOk());
    EXPECT_NE(tracer.status().message().find("driver"), std::string::npos) << tracer.status().message();
    EXPECT_TRUE(api.unsubscribed); // a profiler the program starts later can still subscribe
    EXPECT_FALSE(fs::exists(partFile()));
    EXPECT_EQ(Tracer::active(), nullptr);
}

TEST_F(TracerTest, RealCuptiEitherTracesOrFailsWithoutLeavingAPart)
{
    RealCuptiApi api;
    auto tracer = Tracer::start(api, m_config, m_process);
    if (tracer.isOk()) { // a machine with a working driver
        tracer.value()->stop();
        EXPECT_TRUE(fs::exists(partFile()));
    } else {
        EXPECT_FALSE(tracer.status().message().empty());
        EXPECT_FALSE(fs::exists(partFile()));
        EXPECT_EQ(Tracer::active(), nullptr);
    }
}

// A child process traces with the stand-in, keeps writing, and is SIGKILLed at an arbitrary moment: what it
// committed is a valid trace, made of whole buffers.
TEST_F(TracerTest, SigkilledProcessLeavesAValidPart)
{
    for (int round = 0; round < 4; ++round) {
        fs::path dir = m_dir / ("round" + std::to_string(round));
        fs::create_directories(dir);
        int ready[2];
        ASSERT_EQ(pipe(ready), 0);
        pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            close(ready[0]);
            FakeCuptiApi api;
            CaptureConfig config = m_config;
            config.partsDir = dir.string();
            config.flushIntervalMs = 20;
            ProcessIdentity process = m_process;
            process.pid = getpid();
            auto tracer = Tracer::start(api, config, process);
            if (!tracer.isOk())
                _exit(3);
            bool told = false;
            for (uint32_t batch = 0;; ++batch) {
                api.deliver(kernels(200, batch * 200));
                if (!told && tracer.value()->flushCount() >= 2) {
                    told = true;
                    (void)!write(ready[1], "r", 1);
                }
                std::this_thread::sleep_for(std::chrono::microseconds(500));
            }
        }
        close(ready[1]);
        char byte = 0;
        ASSERT_EQ(read(ready[0], &byte, 1), 1);
        close(ready[0]);
        std::this_thread::sleep_for(std::chrono::milliseconds(7 * round + 3));
        kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        ASSERT_TRUE(WIFSIGNALED(status));

        std::string part = partTracePath(dir.string(), child) + ".partial";
        ASSERT_TRUE(fs::exists(part));
        std::string merged = (dir / "merged.sqlite").string();
        auto summary = mergeParts({ { part, {}, 0 } }, merged);
        ASSERT_TRUE(summary.isOk()) << summary.status().message();
        EXPECT_EQ(summary->partsMerged, 1);
        int64_t rows = queryInt(merged, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
        EXPECT_GE(rows, 200) << "round " << round;
        EXPECT_EQ(rows % 200, 0) << "round " << round;
        EXPECT_EQ(queryText(merged, "PRAGMA integrity_check"), "ok");
    }
}

} // namespace
} // namespace placescope::capture
