// SPDX-License-Identifier: MIT
// Tracer: the capture inside one traced process. It takes CUPTI's subscriber slot, enables the chosen activity
// kinds, lends CUPTI 8-byte-aligned buffers from a bounded pool and, on a writer thread of its own, walks the
// completed buffers into this process's part file (ActivityTranslator + a crash-safe TraceWriter). Every
// flush interval the writer thread asks CUPTI for finished buffers, commits the part and rewrites the status
// file, so a killed process still leaves a valid part with everything up to the last second.
//
// CUPTI's callbacks run on the program's threads and only move buffer pointers under a short lock: no SQLite,
// no file I/O and no CUPTI call happens there while a lock is held. Dropped records (no buffer free) are read
// from CUPTI and counted in the part's PS_PROBLEMS and status file.
//
// One Tracer per process (CUPTI's callbacks are global). start()/stop() from any one thread;
// requestFlushFromSignal() and stopFromSignal() are async-signal-safe.
#pragma once

#include "profiler/base/status.h"
#include "profiler/capture/capture_config.h"
#include "profiler/capture/cupti_api.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace placescope {
class TraceWriter;
}

namespace placescope::capture {

class ActivityTranslator;

// Who this process is in the run, recorded in PS_PROCESSES. Never its arguments or environment.
struct ProcessIdentity
{
    int64_t pid = 0;
    std::optional<int64_t> rank; // RANK, else LOCAL_RANK
    std::optional<int64_t> localRank; // LOCAL_RANK
    std::optional<int64_t> worldSize; // WORLD_SIZE
    std::string name; // executable name ("python3")
    std::string hostname;
};

// The CUPTI activity kinds recorded for a CaptureConfig::kinds mask, the always-on ones included.
std::vector<CUpti_ActivityKind> activityKindsFor(uint32_t kinds);

class Tracer
{
public:
    // Starts tracing, or says in one line why it cannot (no driver, another profiler attached...); on failure
    // nothing stays enabled and no part file is left.
    static Result<std::unique_ptr<Tracer>> start(
        CuptiApi& api, const CaptureConfig& config, const ProcessIdentity& process);
    ~Tracer();
    Tracer(const Tracer&) = delete;
    Tracer& operator=(const Tracer&) = delete;

    // Stops recording, has CUPTI hand over every buffer (forced flush), writes them and commits the part.
    // Waits at most `timeout` for the writer thread, so a wedged exit never hangs the program. Idempotent.
    void stop(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // From a signal handler: ask the writer thread for an immediate flush / a full stop, and wait for it at most
    // `timeoutMs` (nanosleep polling). Returns whether it finished in time.
    bool requestFlushFromSignal(int timeoutMs);
    bool stopFromSignal(int timeoutMs);

    // Counters, for the status file and tests.
    uint64_t flushCount() const { return m_flushGeneration.load(); }
    int64_t droppedRecords() const { return m_droppedRecords.load(); }
    int64_t clockOffsetNs() const { return m_clockOffsetNs; }
    const std::string& partPath() const { return m_partPath; }
    // The Tracer that CUPTI's callbacks reach (nullptr when none).
    static Tracer* active();
    // Forgets the active tracer without touching it: for a forked child, whose copy has no writer thread.
    static void abandonAfterFork();

private:
    Tracer(CuptiApi& api, CaptureConfig config, ProcessIdentity process);
    Status begin();
    void abortStart();
    Status enableKinds();
    void disableKinds();
    void writerLoop();
    void drainQueue();
    void flushPart(bool final);
    void takeDropped(CUcontext context, uint32_t streamId);
    void returnBuffer(uint8_t* buffer);

    static void CUPTIAPI onBufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords);
    static void CUPTIAPI onBufferCompleted(
        CUcontext context, uint32_t streamId, uint8_t* buffer, size_t size, size_t validSize);
    static void CUPTIAPI onCallback(
        void* userData, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);

    struct Completed
    {
        uint8_t* buffer;
        size_t validSize;
    };

    CuptiApi& m_api;
    CaptureConfig m_config;
    ProcessIdentity m_process;
    std::string m_partPath;
    int64_t m_clockOffsetNs = 0;
    std::vector<CUpti_ActivityKind> m_kinds;
    std::vector<CUpti_ActivityKind> m_enabledKinds; // touched by start()/the writer thread/stop() in turn
    CUpti_SubscriberHandle m_subscriber = nullptr;

    // Buffer pool and completed queue (CUPTI callbacks <-> writer thread).
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::vector<uint8_t*> m_freeBuffers;
    std::vector<Completed> m_queue;
    int64_t m_allocatedBuffers = 0;

    // Writer thread state.
    std::unique_ptr<TraceWriter> m_writer;
    std::unique_ptr<ActivityTranslator> m_translator;
    std::thread m_thread;
    std::atomic<bool> m_stopRequested { false };
    std::atomic<bool> m_flushRequested { false };
    std::atomic<bool> m_finished { false };
    std::atomic<uint64_t> m_flushGeneration { 0 };
    std::atomic<int64_t> m_droppedRecords { 0 };
    std::atomic<int64_t> m_rejectedBuffers { 0 };
    int64_t m_droppedWritten = 0;
    bool m_stopped = false;
    std::mutex m_finishMutex;
    std::condition_variable m_finishedCv;
};

} // namespace placescope::capture
