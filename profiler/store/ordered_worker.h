// SPDX-License-Identifier: MIT
// OrderedWorker: runs posted tasks one after another, in posting order, on one background thread. Tasks are
// handed over in batches (one lock per batch, not per task) and at most `maxBatches` wait at any time, so a
// producer faster than the worker blocks instead of growing memory. drain() returns once every task posted
// before it has run; what the tasks wrote is then visible to the caller.
// A batch stores its tasks back to back in a few large blocks instead of one heap allocation per task
// (std::function): the importers post one task per row, hundreds of thousands of them.
// One producer thread; post() and drain() must not be called concurrently.
#pragma once

#include "profiler/base/bump_arena.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace placescope {

class OrderedWorker
{
public:
    explicit OrderedWorker(size_t batchSize = 2048, size_t maxBatches = 8);
    ~OrderedWorker(); // drains, then joins
    OrderedWorker(const OrderedWorker&) = delete;
    OrderedWorker& operator=(const OrderedWorker&) = delete;

    template <typename Task> void post(Task&& task)
    {
        using Stored = std::decay_t<Task>;
        void* place = m_current->allocate(sizeof(Stored), alignof(Stored));
        auto* stored = new (place) Stored(std::forward<Task>(task));
        m_current->tasks.push_back({ stored, [](void* object, bool run) {
                                        auto* self = static_cast<Stored*>(object);
                                        if (run)
                                            (*self)();
                                        self->~Stored();
                                    } });
        if (m_current->tasks.size() >= m_batchSize)
            handOver();
    }
    void drain();

private:
    class Batch
    {
    public:
        struct Task
        {
            void* object;
            void (*finish)(void* object, bool run); // runs the task if asked, then destroys it
        };
        Batch() = default;
        Batch(const Batch&) = delete;
        Batch& operator=(const Batch&) = delete;
        ~Batch(); // destroys the tasks that never ran
        void* allocate(size_t size, size_t alignment) { return m_storage.allocate(size, alignment); }
        void runAll();
        // Empties a batch whose tasks all ran, keeping its storage and task list for the next batch.
        void reuse();

        std::vector<Task> tasks;

    private:
        BumpArena m_storage; // the tasks themselves; a task never moves once placed
        size_t m_ran = 0;
    };

    void handOver();
    void loop();

    const size_t m_batchSize;
    const size_t m_maxBatches;
    std::unique_ptr<Batch> m_current;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::unique_ptr<Batch>> m_queue;
    // Batches the worker has run, handed back for the producer to refill: no allocation (and no page faults)
    // per batch once a few exist.
    std::vector<std::unique_ptr<Batch>> m_spare;
    bool m_running = false; // the worker is running a batch it took from the queue
    bool m_stop = false;
    std::thread m_thread;
};

} // namespace placescope
