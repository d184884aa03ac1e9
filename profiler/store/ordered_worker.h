// SPDX-License-Identifier: MIT
// OrderedWorker: runs posted tasks one after another, in posting order, on one background thread. Tasks are
// handed over in batches (one lock per batch, not per task) and at most `maxBatches` wait at any time, so a
// producer faster than the worker blocks instead of growing memory. drain() returns once every task posted
// before it has run; what the tasks wrote is then visible to the caller.
// One producer thread; post() and drain() must not be called concurrently.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace placescope {

class OrderedWorker
{
public:
    explicit OrderedWorker(size_t batchSize = 2048, size_t maxBatches = 8);
    ~OrderedWorker(); // drains, then joins
    OrderedWorker(const OrderedWorker&) = delete;
    OrderedWorker& operator=(const OrderedWorker&) = delete;

    void post(std::function<void()> task);
    void drain();

private:
    using Batch = std::vector<std::function<void()>>;
    void handOver();
    void loop();

    const size_t m_batchSize;
    const size_t m_maxBatches;
    Batch m_current;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Batch> m_queue;
    bool m_running = false; // the worker is running a batch it took from the queue
    bool m_stop = false;
    std::thread m_thread;
};

} // namespace placescope
