// SPDX-License-Identifier: MIT
#include "profiler/store/ordered_worker.h"

namespace placescope {

OrderedWorker::OrderedWorker(size_t batchSize, size_t maxBatches)
    : m_batchSize(batchSize), m_maxBatches(maxBatches), m_thread([this] { loop(); })
{
    m_current.reserve(m_batchSize);
}

OrderedWorker::~OrderedWorker()
{
    drain();
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

void OrderedWorker::post(std::function<void()> task)
{
    m_current.push_back(std::move(task));
    if (m_current.size() >= m_batchSize)
        handOver();
}

void OrderedWorker::handOver()
{
    if (m_current.empty())
        return;
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_queue.size() < m_maxBatches; });
    m_queue.push_back(std::move(m_current));
    lock.unlock();
    m_changed.notify_all();
    m_current = Batch();
    m_current.reserve(m_batchSize);
}

void OrderedWorker::drain()
{
    handOver();
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_queue.empty() && !m_running; });
}

void OrderedWorker::loop()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_changed.wait(lock, [this] { return m_stop || !m_queue.empty(); });
        if (m_queue.empty())
            return; // stopping, and nothing left
        Batch batch = std::move(m_queue.front());
        m_queue.pop_front();
        m_running = true;
        lock.unlock();
        m_changed.notify_all(); // a queue slot is free
        for (auto& task : batch)
            task();
        batch.clear(); // destroy the tasks (and what they captured) off the producer's thread
        lock.lock();
        m_running = false;
        m_changed.notify_all();
    }
}

} // namespace placescope
