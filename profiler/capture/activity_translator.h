// SPDX-License-Identifier: MIT
// ActivityTranslator: turns completed CUPTI activity buffers into rows of a trace. It walks each buffer with
// CUPTI's own iterator (through CuptiApi::nextRecord), converts every record it knows (record_conversion.h),
// pairs NVTX range start/end markers, keeps device and thread info once, drops records outside the capture
// window, and counts what it could not take (unknown kinds, zero timestamps, unpaired markers) in PS_PROBLEMS.
//
// Owned by the tracer's writer thread; not thread-safe. The TraceWriter must outlive it.
#pragma once

#include "profiler/capture/cupti_api.h"
#include "profiler/capture/record_conversion.h"
#include "profiler/store/trace_writer.h"

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>

namespace placescope::capture {

struct TranslatorOptions
{
    int64_t pid = 0; // the traced process (globalPid of device-side records)
    int64_t clockOffsetNs = 0; // host clock = CUPTI timestamp + offset
    int64_t windowStartNs = 0; // host clock; records starting before it are left out (0: no limit)
    int64_t windowEndNs = 0; // host clock; records starting at or after it are left out (0: no limit)
    // Name of a thread of this process, looked up the first time the thread shows up (empty: unknown).
    std::function<std::string(int64_t tid)> threadName;
};

class ActivityTranslator
{
public:
    ActivityTranslator(CuptiApi& api, TraceWriter& writer, TranslatorOptions options);

    // Writes every record of one completed buffer; returns how many records were walked.
    size_t translateBuffer(uint8_t* buffer, size_t validSize);
    // Records NVTX ranges that never ended as a problem. Call once, after the last buffer.
    void finish();

    uint64_t recordsWalked() const { return m_recordsWalked; }
    uint64_t rowsWritten() const { return m_rowsWritten; }
    uint64_t outsideWindow() const { return m_outsideWindow; }

private:
    void translate(const CUpti_Activity* record);
    void marker(const CUpti_ActivityMarker2& record);
    void noteThread(int64_t pid, int64_t tid);
    bool inWindow(int64_t hostStartNs);
    const std::string& kernelName(const char* mangled);
    const std::string& apiName(CUpti_ActivityKind kind, uint32_t cbid);

    struct OpenRange
    {
        int64_t start = 0;
        int64_t globalTid = 0;
        std::string text;
    };

    CuptiApi& m_api;
    TraceWriter& m_writer;
    TranslatorOptions m_options;
    ConversionContext m_context;
    uint64_t m_recordsWalked = 0;
    uint64_t m_rowsWritten = 0;
    uint64_t m_outsideWindow = 0;
    std::unordered_map<std::string, std::string> m_kernelNames; // mangled -> demangled
    std::unordered_map<uint64_t, std::string> m_apiNames; // kind << 32 | cbid -> name
    std::unordered_map<uint32_t, OpenRange> m_openRanges; // NVTX marker id -> its start
    std::unordered_map<uint32_t, int64_t> m_contextDevice; // contextId -> deviceId
    std::set<int64_t> m_devicesSeen;
    std::set<uint64_t> m_streamsSeen; // contextId << 32 | streamId
    std::set<int64_t> m_threadsSeen;
};

} // namespace placescope::capture
