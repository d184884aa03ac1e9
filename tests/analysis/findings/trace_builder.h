// SPDX-License-Identifier: MIT
// TraceBuilder: writes small purpose-made traces with the real TraceWriter (one temp directory per test) and
// analyzes them, so each rule is tested on a file shaped exactly like an imported one.
#pragma once

#include "analysis/findings/analyzer.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/store/trace_file.h"
#include "profiler/store/trace_writer.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

namespace placescope::testing {

inline constexpr int64_t kPid = 100;
inline constexpr int64_t kUs = 1000;
inline constexpr int64_t kMs = 1000000;

class TraceBuilder
{
public:
    explicit TraceBuilder(const std::string& name)
        : m_dir("findings_" + name)
    {
        m_path = m_dir.file("trace.sqlite");
        auto writer = TraceWriter::create(m_path);
        EXPECT_TRUE(writer.isOk()) << writer.status().message();
        m_writer = std::move(writer.value());
    }

    TraceWriter& writer() { return *m_writer; }
    const std::string& path() const { return m_path; }
    std::filesystem::path dir() const { return m_dir.path(); }

    void gpu(int64_t id, const std::string& name, int64_t totalMemory, int64_t major)
    {
        GpuInfo g;
        g.id = id;
        g.name = name;
        g.totalMemory = totalMemory;
        g.computeMajor = major;
        g.computeMinor = 0;
        m_writer->add(g);
    }
    void process(int64_t pid, int64_t rank)
    {
        ProcessInfo p;
        p.globalPid = makeGlobalPid(pid);
        p.pid = pid;
        p.rank = rank;
        p.name = "python";
        m_writer->add(p);
    }
    // A kernel and the launch call that asked for it (launch at `launchNs`, 5 us long unless given).
    void kernel(int64_t startNs, int64_t endNs, const std::string& name, int64_t launchNs,
        int64_t launchDurNs = 5 * kUs, int64_t pid = kPid, int64_t device = 0, int64_t stream = 7)
    {
        KernelEvent k;
        k.start = startNs;
        k.end = endNs;
        k.deviceId = device;
        k.streamId = stream;
        k.correlationId = ++m_correlation;
        k.globalPid = makeGlobalPid(pid);
        k.demangledName = name;
        m_writer->add(k);
        api(launchNs, launchNs + launchDurNs, "cudaLaunchKernel", m_correlation, pid);
    }
    // A CUDA API call on thread `tid` of process `pid` (the process's main thread unless given).
    void api(int64_t startNs, int64_t endNs, const std::string& name, OptInt correlation = std::nullopt,
        int64_t pid = kPid, int64_t tid = -1)
    {
        RuntimeEvent r;
        r.start = startNs;
        r.end = endNs;
        r.globalTid = makeGlobalTid(pid, tid < 0 ? pid : tid);
        r.correlationId = correlation;
        r.name = name;
        m_writer->add(r);
    }
    // A copy and its API call; returns the correlation id.
    int64_t copy(int64_t startNs, int64_t endNs, CopyKind kind, int64_t bytes, MemKind host,
        const std::string& apiName = "cudaMemcpyAsync", int64_t apiStart = -1, int64_t apiEnd = -1)
    {
        MemcpyEvent c;
        c.start = startNs;
        c.end = endNs;
        c.streamId = 7;
        c.correlationId = ++m_correlation;
        c.globalPid = makeGlobalPid(kPid);
        c.bytes = bytes;
        c.copyKind = static_cast<int64_t>(kind);
        bool toDevice = kind == CopyKind::HtoD;
        c.srcKind = static_cast<int64_t>(kind == CopyKind::DtoD ? MemKind::Device : toDevice ? host : MemKind::Device);
        c.dstKind = static_cast<int64_t>(kind == CopyKind::DtoD ? MemKind::Device : toDevice ? MemKind::Device : host);
        m_writer->add(c);
        api(apiStart < 0 ? startNs - 10 * kUs : apiStart, apiEnd < 0 ? startNs - 5 * kUs : apiEnd, apiName,
            m_correlation);
        return m_correlation;
    }
    void hostOp(int64_t startNs, int64_t endNs, const std::string& name, const std::string& category = "cpu_op",
        const std::string& inputDims = {}, const std::string& extra = {})
    {
        FrameworkOp op;
        op.start = startNs;
        op.end = endNs;
        op.globalTid = makeGlobalTid(kPid, kPid);
        op.name = name;
        op.category = category;
        op.externalId = ++m_external;
        op.inputDims = inputDims;
        op.extra = extra;
        m_writer->add(op);
    }
    // A framework range on thread `tid` of kPid with no external id (a user annotation, a DataLoader fetch).
    void range(int64_t startNs, int64_t endNs, const std::string& name, int64_t tid = kPid,
        const std::string& category = "user_annotation")
    {
        FrameworkOp op;
        op.start = startNs;
        op.end = endNs;
        op.globalTid = makeGlobalTid(kPid, tid);
        op.name = name;
        op.category = category;
        m_writer->add(op);
    }
    // Which stream the cudaEventRecord call `correlation` recorded event `eventId` on (device 0).
    void eventRecord(int64_t correlation, int64_t stream, int64_t eventId, int64_t pid = kPid)
    {
        CudaEventRecord r;
        r.deviceId = 0;
        r.streamId = stream;
        r.correlationId = correlation;
        r.globalPid = makeGlobalPid(pid);
        r.eventId = eventId;
        m_writer->add(r);
    }
    // A sync row of the call `correlation` (device 0): CUPTI's synchronization type 1 is an event synchronize, 2 a
    // stream waiting on an event (on `stream`).
    void sync(int64_t startNs, int64_t endNs, int64_t correlation, int64_t syncType, int64_t eventId,
        int64_t stream = kNoSyncId, int64_t pid = kPid)
    {
        SyncEvent w;
        w.start = startNs;
        w.end = endNs;
        w.deviceId = 0;
        w.streamId = stream;
        w.correlationId = correlation;
        w.globalPid = makeGlobalPid(pid);
        w.syncType = syncType;
        w.eventId = eventId;
        m_writer->add(w);
    }
    void step(int64_t number, int64_t startNs, int64_t endNs, int64_t pid = kPid)
    {
        m_writer->add(StepRange { number, startNs, endNs, makeGlobalPid(pid) });
    }
    void memory(int64_t timeNs, int64_t allocated, int64_t reserved, int64_t bytes = 1024)
    {
        MemoryEvent m;
        m.start = timeNs;
        m.deviceType = 1;
        m.deviceId = 0;
        m.bytes = bytes;
        m.totalAllocated = allocated;
        m.totalReserved = reserved;
        m_writer->add(m);
    }

    AnalysisReport analyze(const AnalysisOptions& options = {}, const PlacementEstimator* estimator = nullptr)
    {
        if (m_writer) {
            Status s = m_writer->commit();
            EXPECT_TRUE(s.isOk()) << s.message();
            m_writer.reset();
        }
        auto db = openTrace(m_path);
        EXPECT_TRUE(db.isOk()) << db.status().message();
        auto report = analyzeTrace(*db, options, estimator);
        EXPECT_TRUE(report.isOk()) << report.status().message();
        return std::move(report.value());
    }

private:
    TempDir m_dir;
    std::string m_path;
    std::unique_ptr<TraceWriter> m_writer;
    int64_t m_correlation = 0;
    int64_t m_external = 0;
};

inline const Finding* findRule(const AnalysisReport& report, const std::string& ruleId)
{
    for (const auto& f : report.findings)
        if (f.ruleId == ruleId)
            return &f;
    return nullptr;
}

inline std::string ruleIds(const AnalysisReport& report)
{
    std::string ids;
    for (const auto& f : report.findings)
        ids += f.ruleId + " ";
    return ids;
}

} // namespace placescope::testing
