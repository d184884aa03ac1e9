// SPDX-License-Identifier: MIT
// Test helpers: real CUDA 13 CUPTI activity records (the structs libcupti 13 emits), laid out back to back in
// an 8-byte-aligned buffer exactly as CUPTI fills its activity buffers, so tests walk them with CUPTI's own
// cuptiActivityGetNextRecord. FakeCuptiApi keeps libcupti's iterator and callback names and stands in for the
// calls that need a driver (subscribe, enable, flush), handing the tracer such buffers through its own
// buffer callbacks.
#pragma once

#include "profiler/capture/cupti_api.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

namespace placescope::capture::testing {

class RecordBuffer
{
public:
    template <typename Record> void add(const Record& record)
    {
        static_assert(sizeof(Record) % 8 == 0, "CUPTI records are 8-byte multiples");
        const auto* bytes = reinterpret_cast<const uint8_t*>(&record);
        m_bytes.insert(m_bytes.end(), bytes, bytes + sizeof(Record));
        ++m_count;
    }
    // Copies the records into `buffer` (CUPTI's, from the tracer's pool); returns the valid size.
    size_t copyTo(uint8_t* buffer, size_t capacity) const
    {
        size_t size = m_bytes.size() < capacity ? m_bytes.size() : capacity;
        std::memcpy(buffer, m_bytes.data(), size);
        return size;
    }
    // An 8-byte-aligned copy for walking directly.
    uint8_t* data()
    {
        m_aligned.assign((m_bytes.size() + 7) / 8, 0);
        std::memcpy(m_aligned.data(), m_bytes.data(), m_bytes.size());
        return reinterpret_cast<uint8_t*>(m_aligned.data());
    }
    size_t size() const { return m_bytes.size(); }
    size_t count() const { return m_count; }

private:
    std::vector<uint8_t> m_bytes;
    std::vector<uint64_t> m_aligned;
    size_t m_count = 0;
};

inline CUpti_ActivityKernel10 kernelRecord(const char* name, uint64_t start, uint64_t end, uint32_t correlationId)
{
    CUpti_ActivityKernel10 r {};
    r.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    r.name = name;
    r.start = start;
    r.end = end;
    r.deviceId = 0;
    r.contextId = 1;
    r.streamId = 7;
    r.correlationId = correlationId;
    r.gridX = 128;
    r.gridY = 1;
    r.gridZ = 1;
    r.blockX = 256;
    r.blockY = 1;
    r.blockZ = 1;
    r.registersPerThread = 32;
    r.staticSharedMemory = 1024;
    r.dynamicSharedMemory = 2048;
    r.localMemoryTotal_v2 = 4096;
    r.sharedMemoryExecuted = 65536;
    r.launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
    r.gridId = 42;
    return r;
}

inline CUpti_ActivityAPI apiRecord(CUpti_ActivityKind kind, uint32_t cbid, uint64_t start, uint64_t end,
    uint32_t correlationId, uint32_t pid, uint32_t tid)
{
    CUpti_ActivityAPI r {};
    r.kind = kind;
    r.cbid = cbid;
    r.start = start;
    r.end = end;
    r.processId = pid;
    r.threadId = tid;
    r.correlationId = correlationId;
    r.returnValue = 0;
    return r;
}

// Stands in for libcupti where a driver is needed; everything else is the real library.
class FakeCuptiApi : public RealCuptiApi
{
public:
    CUptiResult subscribeResult = CUPTI_SUCCESS;
    CUptiResult enableResult = CUPTI_SUCCESS;
    size_t droppedPerQuery = 0;
    uint64_t cuptiClockOffset = 0; // timestamp() = CLOCK_REALTIME - this

    CUptiResult version(uint32_t* version) override
    {
        *version = CUPTI_API_VERSION;
        return CUPTI_SUCCESS;
    }
    CUptiResult subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc, void*) override
    {
        *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(this);
        subscribed = subscribeResult == CUPTI_SUCCESS;
        return subscribeResult;
    }
    CUptiResult unsubscribe(CUpti_SubscriberHandle) override
    {
        unsubscribed = true;
        return CUPTI_SUCCESS;
    }
    CUptiResult enableCallback(CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId) override
    {
        return CUPTI_SUCCESS;
    }
    CUptiResult setThreadIdTypeSystem() override { return CUPTI_SUCCESS; }
    CUptiResult registerCallbacks(BufferRequestedFn requested, BufferCompletedFn completed) override
    {
        m_requested = requested;
        m_completed = completed;
        return CUPTI_SUCCESS;
    }
    CUptiResult enable(CUpti_ActivityKind kind) override
    {
        std::lock_guard lock(m_mutex);
        if (enableResult == CUPTI_SUCCESS)
            enabled.push_back(kind);
        return enableResult;
    }
    CUptiResult disable(CUpti_ActivityKind kind) override
    {
        std::lock_guard lock(m_mutex);
        disabled.push_back(kind);
        return CUPTI_SUCCESS;
    }
    CUptiResult enableRuntimeApi(CUpti_CallbackId cbid, bool on) override
    {
        std::lock_guard lock(m_mutex);
        (on ? runtimeOn : runtimeOff).push_back(cbid);
        return CUPTI_SUCCESS;
    }
    CUptiResult enableDriverApi(CUpti_CallbackId cbid, bool on) override
    {
        std::lock_guard lock(m_mutex);
        (on ? driverOn : driverOff).push_back(cbid);
        return CUPTI_SUCCESS;
    }
    // Hands every pending buffer to the tracer, as CUPTI does on a flush.
    CUptiResult flushAll(uint32_t) override
    {
        std::vector<RecordBuffer> pending;
        {
            std::lock_guard lock(m_mutex);
            pending.swap(m_pending);
            ++flushes;
        }
        for (const RecordBuffer& records : pending)
            deliver(records);
        return CUPTI_SUCCESS;
    }
    CUptiResult droppedRecords(CUcontext, uint32_t, size_t* dropped) override
    {
        *dropped = droppedPerQuery;
        return CUPTI_SUCCESS;
    }
    CUptiResult timestamp(uint64_t* timestampNs) override
    {
        timespec now {};
        clock_gettime(CLOCK_REALTIME, &now);
        *timestampNs = static_cast<uint64_t>(now.tv_sec) * 1000000000 + now.tv_nsec - cuptiClockOffset;
        return CUPTI_SUCCESS;
    }

    // Queues records for the next flush (what CUPTI holds in its buffers until then).
    void queue(const RecordBuffer& records)
    {
        std::lock_guard lock(m_mutex);
        m_pending.push_back(records);
    }
    // Takes a buffer from the tracer and completes it at once, like a program thread filling one; false when
    // the tracer refused a buffer.
    bool deliver(const RecordBuffer& records)
    {
        uint8_t* buffer = nullptr;
        size_t size = 0, maxRecords = 0;
        m_requested(&buffer, &size, &maxRecords);
        if (!buffer)
            return false;
        size_t valid = records.copyTo(buffer, size);
        m_completed(nullptr, 0, buffer, size, valid);
        return true;
    }
    // Takes a buffer and keeps it (as CUPTI does while filling it).
    uint8_t* hold()
    {
        uint8_t* buffer = nullptr;
        size_t size = 0, maxRecords = 0;
        m_requested(&buffer, &size, &maxRecords);
        return buffer;
    }
    bool callbacksRegistered() const { return m_requested && m_completed; }
    // The driver's device attributes, by (CUDA ordinal, attribute); any other one is unknown, as without a driver.
    bool deviceAttribute(uint32_t device, CUdevice_attribute attribute, int* value) override
    {
        auto found = deviceAttributes.find({ device, attribute });
        if (found == deviceAttributes.end())
            return false;
        *value = found->second;
        return true;
    }
    std::map<std::pair<uint32_t, CUdevice_attribute>, int> deviceAttributes;

    bool subscribed = false;
    bool unsubscribed = false;
    int flushes = 0;
    std::vector<CUpti_ActivityKind> enabled, disabled;
    // `enabled` as it is now, for a test that reads it while the tracer's writer thread may be enabling kinds.
    std::vector<CUpti_ActivityKind> enabledNow()
    {
        std::lock_guard lock(m_mutex);
        return enabled;
    }
    std::vector<CUpti_CallbackId> runtimeOn, runtimeOff, driverOn, driverOff;

private:
    std::mutex m_mutex;
    std::vector<RecordBuffer> m_pending;
    BufferRequestedFn m_requested = nullptr;
    BufferCompletedFn m_completed = nullptr;
};

} // namespace placescope::capture::testing
