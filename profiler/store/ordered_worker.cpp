// SPDX-License-Identifier: MIT
#include "profiler/store/ordered_worker.h"

namespace placescope {

namespace {
constexpr size_t kMaxSpareBatches = 4;
}

OrderedWorker::Batch::~Batch()
{
    for (size_t i = m_ran; i < tasks.size(); ++i)
        tasks[i].finish(tasks[i].object, false);
}

void OrderedWorker::Batch::runAll()
{
    for (; m_ran < tasks.size(); ++m_ran)
        tasks[m_ran].finish(tasks[m_ran].object, true);
}

void OrderedWorker::Batch::reuse()
{
    tasks.clear();
    m_ran = 0;
    m_storage.reset();
}

OrderedWorker::OrderedWorker(size_t batchSize, size_t maxBatches)
    : m_batchSize(batchSize)
    , m_maxBatches(maxBatches)
    , m_current(std::make_unique<Batch>())
    , m_thread([this] { loop(); })
{
    m_current->tasks.reserve(m_batchSize);
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

void OrderedWorker::handOver()
{
    if (m_current->tasks.empty())
        return;
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_queue.size() < m_maxBatches; });
    m_queue.push_back(std::move(m_current));
    if (!m_spare.empty()) {
        m_current = std::move(m_spare.back());
        m_spare.pop_back();
    }
    lock.unlock();
    m_changed.notify_all();
    if (!m_current) {
        m_current = std::make_unique<Batch>();
        m_current->tasks.reserve(m_batchSize);
    }
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
        std::unique_ptr<Batch> batch = std::move(m_queue.front());
        m_queue.pop_front();
        m_running = true;
        lock.unlock();
        m_changed.notify_all(); // a queue slot is free
        batch->runAll();
        batch->reuse();
        lock.lock();
        if (m_spare.size() < kMaxSpareBatches)
            m_spare.push_back(std::move(batch)); // else freed here, off the producer's thread (rare)
        m_running = false;
        m_changed.notify_all();
    }
}

} // namespace placescope
