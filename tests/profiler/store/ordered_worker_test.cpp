// SPDX-License-Identifier: MIT
// OrderedWorker and TraceWriter's background writing: order kept, drain waits, the same file either way.
#include "profiler/store/ordered_worker.h"
#include "profiler/store/trace_file.h"
#include "profiler/store/trace_writer.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace placescope {
namespace {

TEST(OrderedWorkerTest, RunsEveryTaskInPostingOrderBeforeDrainReturns)
{
    std::vector<int> seen; // written by the worker only; read after drain()
    OrderedWorker worker(7, 2); // small batches and queue: the producer must block and hand over often
    for (int i = 0; i < 10000; ++i)
        worker.post([&seen, i] { seen.push_back(i); });
    worker.drain();
    ASSERT_EQ(seen.size(), 10000u);
    for (int i = 0; i < 10000; ++i)
        ASSERT_EQ(seen[i], i);
}

TEST(OrderedWorkerTest, DrainWaitsForASlowTask)
{
    std::atomic<bool> done = false;
    OrderedWorker worker;
    worker.post([&done] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        done = true;
    });
    worker.drain();
    EXPECT_TRUE(done);
}

// Tasks live in the batch's own storage: each must run once with what it captured intact (large captures
// included, which do not fit a storage block) and be destroyed after it ran.
TEST(OrderedWorkerTest, TasksKeepTheirCapturesAndAreDestroyedAfterRunning)
{
    auto token = std::make_shared<int>(0);
    std::string sum;
    {
        OrderedWorker worker(5, 2);
        for (int i = 0; i < 300; ++i) {
            std::string text(static_cast<size_t>(i % 40), static_cast<char>('a' + i % 26)); // heap beyond 15
            worker.post([token, text, &sum] { sum += text.empty() ? '-' : text.back(); });
        }
        std::vector<char> big(200 * 1024, 'z');
        worker.post([token, big = std::move(big), &sum] { sum += big.back(); });
        worker.drain();
        EXPECT_EQ(token.use_count(), 1) << "tasks not destroyed after they ran";
    }
    ASSERT_EQ(sum.size(), 301u);
    EXPECT_EQ(sum[0], '-');
    EXPECT_EQ(sum[1], 'b');
    EXPECT_EQ(sum[300], 'z');
}

// Same events through a direct and a background writer: the two files hold the same rows and string ids.
TEST(OrderedWorkerTest, ReusedBatchesKeepSmallAndLargeTasksIntact)
{
    // Many small batches cycle through the worker's spares; now and then a task larger than a storage block.
    std::vector<int64_t> sums;
    OrderedWorker worker(5, 2);
    for (int i = 0; i < 3000; ++i) {
        if (i % 97 == 0) {
            auto big = std::make_shared<int>(i); // also checks that captures are destroyed once
            std::array<int64_t, 10000> values; // 80 KB: more than a block
            values.fill(i);
            worker.post([&sums, values, big] { sums.push_back(values.front() + values.back() + *big); });
        } else {
            std::string text = "task " + std::to_string(i);
            worker.post([&sums, text, i] { sums.push_back(text == "task " + std::to_string(i) ? i : -1); });
        }
    }
    worker.drain();
    ASSERT_EQ(sums.size(), 3000u);
    for (int i = 0; i < 3000; ++i)
        ASSERT_EQ(sums[i], i % 97 == 0 ? 3 * i : i) << i;
}

TEST(OrderedWorkerTest, BackgroundWriterWritesWhatTheDirectWriterWrites)
{
    auto dir = std::filesystem::temp_directory_path() / ("ps_bgwriter_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::string summaries[2];
    for (int background = 0; background < 2; ++background) {
        std::string path = (dir / (background ? "bg.sqlite" : "direct.sqlite")).string();
        TraceWriterOptions options;
        options.backgroundWriting = background == 1;
        auto writer = TraceWriter::create(path, options);
        ASSERT_TRUE(writer.isOk()) << writer.status().message();
        for (int i = 0; i < 20000; ++i) {
            KernelEvent kernel;
            kernel.start = i * 10;
            kernel.end = i * 10 + 5 + i % 3;
            kernel.demangledName = "kernel_" + std::to_string(i % 17);
            (*writer)->add(kernel);
            RuntimeEvent call;
            call.start = i * 10 - 2;
            call.end = i * 10;
            call.name = i % 2 ? "cudaLaunchKernel" : "cudaMemcpyAsync";
            call.correlationId = i;
            (*writer)->add(call);
            if (i == 10000) {
                ASSERT_TRUE((*writer)->flush().isOk()); // a flush in the middle drains and commits
            }
        }
        ASSERT_TRUE((*writer)->commit().isOk());
        EXPECT_EQ((*writer)->eventCount(), 40000u);
        auto db = openTrace(path);
        ASSERT_TRUE(db.isOk());
        auto stmt = db->prepare("SELECT COUNT(*), SUM(k.end - k.start), SUM(length(s.value) * k.start % 1000003),"
                                " (SELECT SUM(r.nameId * r.correlationId) FROM CUPTI_ACTIVITY_KIND_RUNTIME r)"
                                " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName");
        ASSERT_TRUE(stmt.isOk());
        ASSERT_TRUE(stmt->step());
        summaries[background] = std::to_string(stmt->columnInt(0)) + "/" + std::to_string(stmt->columnInt(1)) + "/"
            + std::to_string(stmt->columnInt(2)) + "/" + std::to_string(stmt->columnInt(3));
    }
    EXPECT_EQ(summaries[0], summaries[1]);
    EXPECT_EQ(summaries[0].substr(0, 6), "20000/");
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace placescope
