// SPDX-License-Identifier: MIT
#include "profiler/capture/activity_translator.h"
#include "profiler/capture/device_attributes.h"

#include <utility>

namespace placescope::capture {
namespace {

constexpr const char* kZeroTimestampHelp
    = "CUPTI delivered records with zero start and end ('timestamp could not be collected'); they are not in the "
      "trace.";
constexpr const char* kUnknownKindHelp
    = "CUPTI delivered activity records of a kind this version of Placescope does not translate; they are not in "
      "the trace.";
constexpr const char* kUnpairedMarkerHelp
    = "An NVTX range end arrived without its start (the start came before the capture window or was dropped); the "
      "end is not in the trace.";
constexpr const char* kOpenRangeHelp
    = "An NVTX range was still open when the process ended its part; it is not in the trace.";

} // namespace

ActivityTranslator::ActivityTranslator(CuptiApi& api, TraceWriter& writer, TranslatorOptions options)
    : m_api(api)
    , m_writer(writer)
    , m_options(std::move(options))
{
    m_context.globalPid = makeGlobalPid(m_options.pid);
    m_context.clockOffsetNs = m_options.clockOffsetNs;
}

size_t ActivityTranslator::translateBuffer(uint8_t* buffer, size_t validSize)
{
    size_t count = 0;
    CUpti_Activity* record = nullptr;
    // CUPTI returns CUPTI_ERROR_MAX_LIMIT_REACHED at the end of the valid data, and an error for a corrupt
    // record; either way the walk stops there.
    while (validSize > 0 && m_api.nextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        translate(record);
        ++count;
    }
    m_recordsWalked += count;
    return count;
}

bool ActivityTranslator::inWindow(int64_t hostStartNs)
{
    bool inside = (m_options.windowStartNs == 0 || hostStartNs >= m_options.windowStartNs)
        && (m_options.windowEndNs == 0 || hostStartNs < m_options.windowEndNs);
    if (!inside)
        ++m_outsideWindow;
    return inside;
}

const std::string& ActivityTranslator::kernelName(const char* mangled)
{
    std::string key = mangled ? mangled : "";
    auto found = m_kernelNames.find(key);
    if (found == m_kernelNames.end())
        found = m_kernelNames.emplace(key, key.empty() ? std::string("<unnamed kernel>") : demangleKernelName(mangled))
                    .first;
    return found->second;
}

const std::string& ActivityTranslator::apiName(CUpti_ActivityKind kind, uint32_t cbid)
{
    uint64_t key = (static_cast<uint64_t>(kind) << 32) | cbid;
    auto found = m_apiNames.find(key);
    if (found == m_apiNames.end()) {
        CUpti_CallbackDomain domain
            = kind == CUPTI_ACTIVITY_KIND_DRIVER ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API;
        std::string name = m_api.callbackName(domain, cbid);
        if (name.empty())
            name = (kind == CUPTI_ACTIVITY_KIND_DRIVER ? "driver API " : "runtime API ") + std::to_string(cbid);
        found = m_apiNames.emplace(key, std::move(name)).first;
    }
    return found->second;
}

void ActivityTranslator::noteThread(int64_t pid, int64_t tid)
{
    int64_t globalTid = makeGlobalTid(pid, tid);
    if (!m_threadsSeen.insert(globalTid).second)
        return;
    ThreadInfo thread;
    thread.globalTid = globalTid;
    thread.globalPid = makeGlobalPid(pid);
    thread.tid = tid;
    if (m_options.threadName && pid == m_options.pid)
        thread.name = m_options.threadName(tid);
    m_writer.add(thread);
}

void ActivityTranslator::translate(const CUpti_Activity* record)
{
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto& r = *reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        if (r.start == 0 && r.end == 0) {
            m_writer.countProblem(
                "capture.zero_timestamp", ProblemSeverity::DataLoss, kZeroTimestampHelp, r.name ? r.name : "");
            return;
        }
        KernelEvent event = kernelEvent(r, m_context);
        if (!inWindow(event.start))
            return;
        event.demangledName = kernelName(r.name);
        m_writer.add(std::move(event));
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        MemcpyEvent event = memcpyEvent(*reinterpret_cast<const CUpti_ActivityMemcpy6*>(record), m_context);
        if (!inWindow(event.start))
            return;
        m_writer.add(std::move(event));
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
        MemcpyEvent event = peerMemcpyEvent(*reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record), m_context);
        if (!inWindow(event.start))
            return;
        m_writer.add(std::move(event));
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        MemsetEvent event = memsetEvent(*reinterpret_cast<const CUpti_ActivityMemset4*>(record), m_context);
        if (!inWindow(event.start))
            return;
        m_writer.add(std::move(event));
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMORY2: {
        GpuMemoryEvent event = gpuMemoryEvent(*reinterpret_cast<const CUpti_ActivityMemory4*>(record), m_context);
        if (!inWindow(event.start))
            return;
        m_writer.add(std::move(event));
        break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
        const auto& r = *reinterpret_cast<const CUpti_ActivityAPI*>(record);
        RuntimeEvent event = apiEvent(r, m_context);
        if (!inWindow(event.start))
            return;
        event.name = apiName(r.kind, r.cbid);
        noteThread(r.processId, r.threadId);
        m_writer.add(std::move(event));
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        SyncEvent event = syncEvent(*reinterpret_cast<const CUpti_ActivitySynchronization2*>(record), m_context);
        if (!inWindow(event.start))
            return;
        if (event.contextId) {
            auto device = m_contextDevice.find(static_cast<uint32_t>(*event.contextId));
            if (device != m_contextDevice.end())
                event.deviceId = device->second;
        }
        m_writer.add(std::move(event));
        break;
    }
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
        // Links have no time of their own: always kept, they only join rows that are in the trace.
        m_writer.add(
            externalCorrelation(*reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record), m_context));
        break;
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
        OverheadEvent event = overheadEvent(*reinterpret_cast<const CUpti_ActivityOverhead3*>(record), m_context);
        if (!inWindow(event.start))
            return;
        m_writer.add(std::move(event));
        break;
    }
    case CUPTI_ACTIVITY_KIND_MARKER:
        marker(*reinterpret_cast<const CUpti_ActivityMarker2*>(record));
        return;
    case CUPTI_ACTIVITY_KIND_DEVICE: {
        const auto& r = *reinterpret_cast<const CUpti_ActivityDevice5*>(record);
        if (!m_devicesSeen.insert(r.id).second)
            return;
        GpuInfo gpu = gpuInfo(r);
        addDeviceAttributes(gpu, readDeviceAttributes(m_api, r.id));
        m_writer.add(gpu);
        break;
    }
    case CUPTI_ACTIVITY_KIND_CONTEXT: {
        const auto& r = *reinterpret_cast<const CUpti_ActivityContext3*>(record);
        if (!m_contextDevice.emplace(r.contextId, r.deviceId).second)
            return;
        // nsys's context list: the process's plain pid, machine 1, the legacy default stream of the context.
        CudaContextInfo context;
        context.nullStreamId = r.nullStreamId;
        context.processId = m_options.pid;
        context.deviceId = r.deviceId;
        context.contextId = r.contextId;
        if (r.isGreenContext) {
            context.parentContextId = r.parentContextId;
            context.isGreenContext = 1;
        }
        m_writer.add(context);
        return;
    }
    case CUPTI_ACTIVITY_KIND_STREAM: {
        // nsys's stream list: CUPTI's flag ids are ENUM_CUPTI_STREAM_TYPE's; the priority is kept unsigned as nsys
        // keeps it (-5 reads 4294967291).
        const auto& r = *reinterpret_cast<const CUpti_ActivityStream*>(record);
        if (!m_streamsSeen.insert((static_cast<uint64_t>(r.contextId) << 32) | r.streamId).second)
            return;
        CudaStreamInfo stream;
        stream.streamId = r.streamId;
        stream.processId = m_options.pid;
        stream.contextId = r.contextId;
        stream.priority = r.priority;
        stream.flag = static_cast<int64_t>(r.flag);
        m_writer.add(stream);
        return;
    }
    case CUPTI_ACTIVITY_KIND_NAME: {
        const auto& r = *reinterpret_cast<const CUpti_ActivityName*>(record);
        if (r.objectKind != CUPTI_ACTIVITY_OBJECT_THREAD || !r.name)
            return;
        int64_t globalTid = makeGlobalTid(r.objectId.pt.processId, r.objectId.pt.threadId);
        m_threadsSeen.insert(globalTid);
        ThreadInfo thread { globalTid, makeGlobalPid(r.objectId.pt.processId), r.objectId.pt.threadId, r.name,
            std::nullopt }; // CUPTI names threads without a priority
        m_writer.add(thread);
        break;
    }
    default:
        m_writer.countProblem("capture.unknown_record_kind", ProblemSeverity::Info, kUnknownKindHelp,
            "CUpti_ActivityKind " + std::to_string(static_cast<int>(record->kind)));
        return;
    }
    ++m_rowsWritten;
}

void ActivityTranslator::marker(const CUpti_ActivityMarker2& r)
{
    int64_t host = static_cast<int64_t>(r.timestamp) + m_context.clockOffsetNs;
    int64_t globalTid = 0;
    if (r.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || r.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
        globalTid = makeGlobalTid(r.objectId.pt.processId, r.objectId.pt.threadId);
        noteThread(r.objectId.pt.processId, r.objectId.pt.threadId);
    }
    if (r.flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
        m_openRanges[r.id] = OpenRange { host, globalTid, r.name ? r.name : "" };
        return;
    }
    NvtxEvent event;
    event.globalTid = globalTid;
    if (r.flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
        auto open = m_openRanges.find(r.id);
        if (open == m_openRanges.end()) {
            m_writer.countProblem("capture.nvtx_unpaired_end", ProblemSeverity::Info, kUnpairedMarkerHelp);
            return;
        }
        event.start = open->second.start;
        event.end = host;
        event.text = std::move(open->second.text);
        event.globalTid = open->second.globalTid;
        event.rangeId = r.id;
        // CUPTI does not say whether a range was pushed/popped or started/ended; a range that ends on the thread
        // that started it is shown as push/pop (59), one that crosses threads as start/end (60).
        event.eventType = open->second.globalTid == globalTid ? 59 : 60;
        m_openRanges.erase(open);
    } else if (r.flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
        event.start = host;
        event.eventType = 34;
        event.text = r.name ? r.name : "";
    } else {
        return; // sync markers (acquire/release) have no table yet
    }
    if (!inWindow(event.start))
        return;
    m_writer.add(std::move(event));
    ++m_rowsWritten;
}

void ActivityTranslator::finish()
{
    for (auto& [id, range] : m_openRanges)
        m_writer.countProblem("capture.nvtx_open_range", ProblemSeverity::Info, kOpenRangeHelp, range.text);
    m_openRanges.clear();
}

} // namespace placescope::capture
