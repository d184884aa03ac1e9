// SPDX-License-Identifier: MIT
#include "profiler/capture/tracer.h"

#include "profiler/capture/activity_translator.h"
#include "profiler/capture/api_selection.h"
#include "profiler/capture/part_files.h"
#include "profiler/store/trace_writer.h"

#include <csignal>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <limits>
#include <pthread.h>

namespace placescope::capture {
namespace {

std::atomic<Tracer*> s_active { nullptr };

constexpr const char* kDroppedHelp
    = "CUPTI lost activity records because no buffer was free (the writer fell behind or the buffer budget was "
      "used up); the trace misses them. Raise --buffer-mb or record fewer kinds.";
constexpr const char* kKindUnavailableHelp
    = "CUPTI refused to enable an activity kind that Placescope records by default; those records are missing.";

int64_t realtimeNs()
{
    timespec now {};
    clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

void sleepMs(int ms)
{
    timespec delay { 0, ms * 1000000L };
    nanosleep(&delay, nullptr); // async-signal-safe
}

std::string threadNameOf(int64_t tid)
{
    std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/comm");
    std::string name;
    std::getline(in, name);
    return name;
}

} // namespace

std::vector<CUpti_ActivityKind> activityKindsFor(uint32_t kinds)
{
    std::vector<CUpti_ActivityKind> list;
    if (kinds & kKindKernel)
        list.push_back(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); // never KIND_KERNEL: it serializes kernels
    if (kinds & kKindMemcpy) {
        list.push_back(CUPTI_ACTIVITY_KIND_MEMCPY);
        list.push_back(CUPTI_ACTIVITY_KIND_MEMCPY2);
    }
    if (kinds & kKindMemset)
        list.push_back(CUPTI_ACTIVITY_KIND_MEMSET);
    if (kinds & kKindMemory)
        list.push_back(CUPTI_ACTIVITY_KIND_MEMORY2);
    if (kinds & kKindRuntime)
        list.push_back(CUPTI_ACTIVITY_KIND_RUNTIME);
    if (kinds & kKindDriver)
        list.push_back(CUPTI_ACTIVITY_KIND_DRIVER);
    if (kinds & kKindSync)
        list.push_back(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
    if (kinds & kKindNvtx) {
        list.push_back(CUPTI_ACTIVITY_KIND_MARKER);
        list.push_back(CUPTI_ACTIVITY_KIND_NAME);
    }
    // Always: device properties, context -> device, streams (nsys's stream list), CUPTI's own overhead, framework
    // correlation ids.
    list.push_back(CUPTI_ACTIVITY_KIND_DEVICE);
    list.push_back(CUPTI_ACTIVITY_KIND_CONTEXT);
    list.push_back(CUPTI_ACTIVITY_KIND_STREAM);
    list.push_back(CUPTI_ACTIVITY_KIND_OVERHEAD);
    list.push_back(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
    return list;
}

Tracer* Tracer::active() { return s_active.load(); }
void Tracer::abandonAfterFork() { s_active.store(nullptr); }

Tracer::Tracer(CuptiApi& api, CaptureConfig config, ProcessIdentity process)
    : m_api(api)
    , m_config(std::move(config))
    , m_process(std::move(process))
{ }

Result<std::unique_ptr<Tracer>> Tracer::start(
    CuptiApi& api, const CaptureConfig& config, const ProcessIdentity& process)
{
    if (s_active.load())
        return Status::error("a capture is already running in this process");
    std::unique_ptr<Tracer> tracer(new Tracer(api, config, process));
    Status status = tracer->begin();
    if (!status.isOk()) {
        tracer->abortStart();
        return status;
    }
    return tracer;
}

Status Tracer::begin()
{
    uint32_t version = 0;
    CUptiResult result = m_api.version(&version);
    if (result != CUPTI_SUCCESS)
        return Status::error("CUPTI does not answer (" + cuptiResultName(result) + ")");
    result = m_api.subscribe(&m_subscriber, &Tracer::onCallback, this);
    if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        return Status::error("another CUPTI profiler is attached to this process (torch.profiler, Nsight Systems, "
                             "Nsight Compute or compute-sanitizer) and CUPTI allows only one; run without it");
    if (result != CUPTI_SUCCESS) {
        m_subscriber = nullptr;
        return Status::error("CUPTI cannot start (" + cuptiResultName(result)
            + "): the NVIDIA driver is missing, too old for CUDA 13, or the GPU is not usable; "
              "check nvidia-smi");
    }
    // cudaDeviceReset destroys the context and its unflushed records: flush them on the way in.
    (void)m_api.enableCallback(
        m_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
    // OS thread ids (gettid) instead of pthread_self values, so threads match /proc and other tools.
    (void)m_api.setThreadIdTypeSystem();
    s_active.store(this);
    result = m_api.registerCallbacks(&Tracer::onBufferRequested, &Tracer::onBufferCompleted);
    if (result != CUPTI_SUCCESS)
        return Status::error("CUPTI refused the activity buffers (" + cuptiResultName(result) + ")");

    // CUPTI's timestamps are CLOCK_REALTIME-based on Linux; the offset to the host clock is measured once here
    // (the tightest of five bracketed reads) and added to every record, instead of a timestamp callback, which
    // CUPTI 13.0 breaks (zero kernel timestamps).
    int64_t bestSpan = std::numeric_limits<int64_t>::max();
    for (int i = 0; i < 5; ++i) {
        uint64_t cupti = 0;
        int64_t before = realtimeNs();
        if (m_api.timestamp(&cupti) != CUPTI_SUCCESS)
            break;
        int64_t after = realtimeNs();
        if (after - before < bestSpan) {
            bestSpan = after - before;
            m_clockOffsetNs = before + (after - before) / 2 - static_cast<int64_t>(cupti);
        }
    }

    m_partPath = partTracePath(m_config.partsDir, m_process.pid);
    TraceWriterOptions options;
    options.crashSafePartial = true;
    auto writer = TraceWriter::create(m_partPath, options);
    if (!writer.isOk())
        return Status::error("cannot write the capture part: " + writer.status().message());
    m_writer = std::move(writer).value();
    m_writer->setMeta("source_format", "cupti_capture");
    m_writer->setMeta("cupti_version", std::to_string(version));
    m_writer->setMeta("capture_kinds", kindsToString(m_config.kinds));
    m_writer->setMeta("capture_buffer_bytes", std::to_string(m_config.bufferBytes));
    m_writer->setMeta("capture_clock_offset_ns", std::to_string(m_clockOffsetNs));
    m_writer->setMeta("capture_pid", std::to_string(m_process.pid));
    if (m_process.rank)
        m_writer->setMeta("capture_rank", std::to_string(*m_process.rank));
    if (m_process.localRank)
        m_writer->setMeta("capture_local_rank", std::to_string(*m_process.localRank));
    if (m_process.worldSize)
        m_writer->setMeta("world_size", std::to_string(*m_process.worldSize));
    ProcessInfo info;
    info.globalPid = makeGlobalPid(m_process.pid);
    info.pid = m_process.pid;
    info.rank = m_process.rank;
    info.name = m_process.name;
    info.hostname = m_process.hostname;
    m_writer->add(info);

    TranslatorOptions translatorOptions;
    translatorOptions.pid = m_process.pid;
    translatorOptions.clockOffsetNs = m_clockOffsetNs;
    translatorOptions.windowStartNs = m_config.windowStartNs;
    translatorOptions.windowEndNs = m_config.windowEndNs;
    translatorOptions.threadName = &threadNameOf;
    m_translator = std::make_unique<ActivityTranslator>(m_api, *m_writer, translatorOptions);

    m_kinds = activityKindsFor(m_config.kinds);
    if (m_config.windowStartNs <= realtimeNs())
        PLACESCOPE_RETURN_IF_ERROR(enableKinds());
    PLACESCOPE_RETURN_IF_ERROR(m_writer->flush());

    // The writer thread takes no signal meant for the program.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    m_thread = std::thread([this] { writerLoop(); });
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    pthread_setname_np(m_thread.native_handle(), "ps-capture");
    return Status::ok();
}

void Tracer::abortStart()
{
    disableKinds();
    if (m_subscriber)
        (void)m_api.unsubscribe(m_subscriber); // so a profiler the program starts later can still subscribe
    m_subscriber = nullptr;
    m_translator.reset();
    m_writer.reset(); // removes the partial file
    m_stopped = true;
    m_finished = true;
    Tracer* self = this;
    s_active.compare_exchange_strong(self, nullptr);
}

Status Tracer::enableKinds()
{
    uint32_t userKinds = static_cast<uint32_t>(activityKindsFor(m_config.kinds).size())
        - static_cast<uint32_t>(activityKindsFor(0).size());
    for (size_t i = 0; i < m_kinds.size(); ++i) {
        CUptiResult result = m_api.enable(m_kinds[i]);
        if (result == CUPTI_SUCCESS) {
            m_enabledKinds.push_back(m_kinds[i]);
            continue;
        }
        // The first kind tells whether CUPTI works at all; later always-on kinds may be missing on some setups.
        if (i == 0 || i < userKinds) {
            disableKinds();
            if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
                return Status::error("another CUPTI profiler is attached to this process (torch.profiler, Nsight "
                                     "Systems, Nsight Compute or compute-sanitizer); run without it");
            return Status::error("CUPTI cannot record activity kind " + std::to_string(static_cast<int>(m_kinds[i]))
                + " (" + cuptiResultName(result)
                + "): the NVIDIA driver is missing or too old for CUDA 13; check nvidia-smi");
        }
        if (m_writer)
            m_writer->countProblem("capture.kind_unavailable", ProblemSeverity::Info, kKindUnavailableHelp,
                "CUpti_ActivityKind " + std::to_string(static_cast<int>(m_kinds[i])) + ": " + cuptiResultName(result));
    }
    applyApiSelection(m_api, m_config.kinds);
    return Status::ok();
}

void Tracer::disableKinds()
{
    for (CUpti_ActivityKind kind : m_enabledKinds)
        (void)m_api.disable(kind);
    m_enabledKinds.clear();
}

void CUPTIAPI Tracer::onBufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords)
{
    *buffer = nullptr;
    *size = 0;
    *maxNumRecords = 0; // as many as fit
    Tracer* tracer = s_active.load();
    if (!tracer)
        return;
    std::lock_guard lock(tracer->m_mutex);
    // While stopping, CUPTI still needs buffers for the records it flushes; only a finished tracer refuses.
    if (tracer->m_finished.load())
        return;
    if (!tracer->m_freeBuffers.empty()) {
        *buffer = tracer->m_freeBuffers.back();
        tracer->m_freeBuffers.pop_back();
    } else if ((tracer->m_allocatedBuffers + 1) * tracer->m_config.bufferBytes <= tracer->m_config.maxBufferedBytes) {
        *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, static_cast<size_t>(tracer->m_config.bufferBytes)));
        if (*buffer)
            ++tracer->m_allocatedBuffers;
    }
    if (*buffer)
        *size = static_cast<size_t>(tracer->m_config.bufferBytes);
    else
        ++tracer->m_rejectedBuffers; // CUPTI (API >= 27) drops records and counts them; we report the count
}

void CUPTIAPI Tracer::onBufferCompleted(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t, size_t validSize)
{
    Tracer* tracer = s_active.load();
    if (!tracer) {
        std::free(buffer);
        return;
    }
    // Outside our lock: CUPTI holds its own lock here, and our lock is never held across a CUPTI call.
    tracer->takeDropped(context, streamId);
    if (!buffer)
        return;
    {
        std::lock_guard lock(tracer->m_mutex);
        if (validSize > 0)
            tracer->m_queue.push_back({ buffer, validSize });
        else
            tracer->m_freeBuffers.push_back(buffer);
    }
    tracer->m_wake.notify_one();
}

void CUPTIAPI Tracer::onCallback(void* userData, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data)
{
    auto* tracer = static_cast<Tracer*>(userData);
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (tracer && domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020
        && info && info->callbackSite == CUPTI_API_ENTER && !tracer->m_stopRequested.load())
        (void)tracer->m_api.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

void Tracer::takeDropped(CUcontext context, uint32_t streamId)
{
    size_t dropped = 0;
    if (m_api.droppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS && dropped > 0)
        m_droppedRecords += static_cast<int64_t>(dropped);
}

void Tracer::returnBuffer(uint8_t* buffer)
{
    std::lock_guard lock(m_mutex);
    m_freeBuffers.push_back(buffer);
}

void Tracer::drainQueue()
{
    std::vector<Completed> ready;
    {
        std::lock_guard lock(m_mutex);
        ready.swap(m_queue);
    }
    for (const Completed& completed : ready) {
        m_translator->translateBuffer(completed.buffer, completed.validSize);
        returnBuffer(completed.buffer);
    }
}

void Tracer::flushPart(bool final)
{
    takeDropped(nullptr, 0);
    int64_t dropped = m_droppedRecords.load();
    if (dropped > m_droppedWritten) {
        m_writer->countProblem(
            "capture.dropped_records", ProblemSeverity::DataLoss, kDroppedHelp, {}, dropped - m_droppedWritten);
        m_droppedWritten = dropped;
    }
    m_writer->setMeta("capture_rejected_buffers", std::to_string(m_rejectedBuffers.load()));
    m_writer->setMeta("capture_records_outside_window", std::to_string(m_translator->outsideWindow()));
    Status status = m_writer->flush();
    PartStatus partStatus;
    partStatus.pid = m_process.pid;
    partStatus.events = static_cast<int64_t>(m_writer->eventCount());
    {
        std::lock_guard lock(m_mutex);
        partStatus.buffersInFlight = m_allocatedBuffers - static_cast<int64_t>(m_freeBuffers.size());
    }
    partStatus.droppedRecords = dropped;
    // The final status ("done") is written only once the part is closed, so the parent never merges a part
    // that is still being written.
    if (final) {
        Status closed = m_writer->closePartial();
        if (!closed.isOk() && status.isOk())
            status = closed;
        partStatus.done = true;
    }
    (void)writeStatusFile(m_config.partsDir, partStatus);
    if (!status.isOk())
        (void)writeErrorFile(m_config.partsDir, m_process.pid, "cannot write the capture part: " + status.message());
    ++m_flushGeneration;
}

void Tracer::writerLoop()
{
    using Clock = std::chrono::steady_clock;
    const auto interval = std::chrono::milliseconds(m_config.flushIntervalMs);
    auto nextFlush = Clock::now() + interval;
    bool windowOpen = !m_enabledKinds.empty();
    bool windowClosed = false;
    while (!m_stopRequested.load()) {
        {
            std::unique_lock lock(m_mutex);
            // Short waits: a signal handler cannot notify a condition variable, it only sets a flag.
            m_wake.wait_for(lock, std::chrono::milliseconds(50),
                [this] { return !m_queue.empty() || m_stopRequested.load() || m_flushRequested.load(); });
        }
        drainQueue();
        int64_t now = realtimeNs();
        if (!windowOpen && now >= m_config.windowStartNs) {
            windowOpen = true;
            Status status = enableKinds();
            if (!status.isOk()) {
                (void)writeErrorFile(m_config.partsDir, m_process.pid, status.message());
                windowClosed = true;
            }
        }
        if (windowOpen && !windowClosed && m_config.windowEndNs && now >= m_config.windowEndNs) {
            windowClosed = true;
            disableKinds();
            (void)m_api.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
            drainQueue();
            flushPart(false);
        }
        if (m_flushRequested.exchange(false) || Clock::now() >= nextFlush) {
            (void)m_api.flushAll(0); // completed buffers only; CUPTI hands them over on this thread
            drainQueue();
            flushPart(false);
            nextFlush = Clock::now() + interval;
        }
    }
    disableKinds();
    (void)m_api.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    drainQueue();
    m_translator->finish();
    flushPart(true);
    {
        std::lock_guard lock(m_finishMutex);
        m_finished = true;
    }
    m_finishedCv.notify_all();
}

void Tracer::stop(std::chrono::milliseconds timeout)
{
    if (m_stopped)
        return;
    m_stopped = true;
    m_stopRequested = true;
    m_wake.notify_one();
    std::unique_lock lock(m_finishMutex);
    if (m_finishedCv.wait_for(lock, timeout, [this] { return m_finished.load(); })) {
        lock.unlock();
        if (m_thread.joinable())
            m_thread.join();
    }
}

bool Tracer::requestFlushFromSignal(int timeoutMs)
{
    uint64_t generation = m_flushGeneration.load();
    m_flushRequested = true;
    for (int waited = 0; waited < timeoutMs; waited += 5) {
        if (m_flushGeneration.load() > generation || m_finished.load())
            return true;
        sleepMs(5);
    }
    return false;
}

bool Tracer::stopFromSignal(int timeoutMs)
{
    m_stopRequested = true;
    for (int waited = 0; waited < timeoutMs; waited += 5) {
        if (m_finished.load())
            return true;
        sleepMs(5);
    }
    return false;
}

Tracer::~Tracer()
{
    stop(std::chrono::seconds(60));
    if (m_thread.joinable())
        m_thread.join();
    Tracer* self = this;
    s_active.compare_exchange_strong(self, nullptr);
    for (uint8_t* buffer : m_freeBuffers)
        std::free(buffer);
    for (const Completed& completed : m_queue)
        std::free(completed.buffer);
}

} // namespace placescope::capture
