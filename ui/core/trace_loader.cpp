// SPDX-License-Identifier: MIT
#include "ui/core/trace_loader.h"

#include "profiler/model/cuda_enums.h"
#include "profiler/store/trace_file.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <unordered_map>

namespace placescope::ui {
namespace {

// Interns names: trace StringIds ids and our own labels both map to one compact index.
class NameTable
{
public:
    explicit NameTable(std::vector<std::string>& names)
        : m_names(names)
    { }
    uint32_t byStringId(int64_t id, const std::unordered_map<int64_t, std::string>& strings)
    {
        auto it = m_byId.find(id);
        if (it != m_byId.end())
            return it->second;
        auto text = strings.find(id);
        const uint32_t index = intern(text != strings.end() ? text->second : "#" + std::to_string(id));
        m_byId.emplace(id, index);
        return index;
    }
    uint32_t intern(const std::string& text)
    {
        auto it = m_byText.find(text);
        if (it != m_byText.end())
            return it->second;
        const auto index = static_cast<uint32_t>(m_names.size());
        m_names.push_back(text);
        m_byText.emplace(text, index);
        return index;
    }

private:
    std::vector<std::string>& m_names;
    std::unordered_map<int64_t, uint32_t> m_byId;
    std::unordered_map<std::string, uint32_t> m_byText;
};

struct PendingLane
{
    Lane::Group group;
    std::string title;
    int64_t sortKey;
    std::vector<PendingEvent> events;
    int64_t globalTid = -1;
};

class Loader
{
public:
    Loader(SqliteDb& db, LoadedTrace& trace)
        : m_db(db)
        , m_trace(trace)
        , m_names(trace.names)
    { }

    Status loadStrings()
    {
        PLACESCOPE_ASSIGN_OR_RETURN(auto stmt, m_db.prepare("SELECT id, value FROM StringIds"));
        while (stmt.step())
            m_strings.emplace(stmt.columnInt(0), stmt.columnText(1));
        return stmt.status();
    }

    Status loadThreadNames()
    {
        if (m_db.hasTable("PS_THREADS")) {
            PLACESCOPE_ASSIGN_OR_RETURN(auto stmt, m_db.prepare("SELECT globalTid, tid, name FROM PS_THREADS"));
            while (stmt.step()) {
                // The id once: Kineto names threads "thread 783658 (python3.8)" already.
                const std::string tid = std::to_string(stmt.columnInt(1));
                const std::string name = stmt.isNull(2) ? std::string("thread") : stmt.columnText(2);
                m_threadTitle[stmt.columnInt(0)] = name.find(tid) != std::string::npos ? name : name + " " + tid;
            }
        }
        if (m_db.hasTable("TARGET_INFO_GPU")) {
            PLACESCOPE_ASSIGN_OR_RETURN(auto stmt, m_db.prepare("SELECT id, name FROM TARGET_INFO_GPU"));
            while (stmt.step())
                m_gpuName[stmt.columnInt(0)] = stmt.isNull(1) ? std::string() : stmt.columnText(1);
        }
        return Status::ok();
    }

    // Device stream lanes: kernels, copies, memsets.
    Status loadDeviceTable(const char* sql, EventKind kind)
    {
        PLACESCOPE_ASSIGN_OR_RETURN(auto stmt, m_db.prepare(sql));
        while (stmt.step()) {
            const int64_t device = stmt.columnInt(2), stream = stmt.columnInt(3);
            uint32_t name = 0, fullName = kSameName;
            if (kind == EventKind::Kernel) {
                name = m_names.byStringId(stmt.columnInt(4), m_strings);
                if (!stmt.isNull(7))
                    fullName = m_names.byStringId(stmt.columnInt(7), m_strings);
            } else if (kind == EventKind::Memcpy)
                name = m_names.intern(
                    "Memcpy " + std::string(copyKindShortName(static_cast<CopyKind>(stmt.columnInt(4)))));
            else
                name = m_names.intern("Memset");
            auto& lane = deviceLane(device, stream);
            lane.events.push_back(
                { stmt.columnInt(0), stmt.columnInt(1), name, static_cast<uint32_t>(stmt.columnInt(5)),
                    static_cast<uint32_t>(stmt.isNull(6) ? 0 : stmt.columnInt(6)), kind, fullName });
        }
        return stmt.status();
    }

    // Host lanes: one per (thread, kind) so API calls never interleave with op nesting.
    Status loadHostTable(const char* sql, EventKind kind, const char* suffix)
    {
        PLACESCOPE_ASSIGN_OR_RETURN(auto stmt, m_db.prepare(sql));
        while (stmt.step()) {
            const int64_t tid = stmt.isNull(2) ? 0 : stmt.columnInt(2);
            uint32_t name = kind == EventKind::Nvtx && stmt.isNull(3)
                ? m_names.intern(stmt.columnText(6))
                : m_names.byStringId(stmt.columnInt(3), m_strings);
            auto& lane = hostLane(tid, kind, suffix);
            lane.events.push_back(
                { stmt.columnInt(0), stmt.columnInt(1), name, static_cast<uint32_t>(stmt.columnInt(4)),
                    static_cast<uint32_t>(stmt.isNull(5) ? 0 : stmt.columnInt(5)), kind });
        }
        return stmt.status();
    }

    // GPU-side annotations (gpu_user_annotation): a lane right under the stream they were marked on.
    Status loadGpuAnnotations()
    {
        PLACESCOPE_ASSIGN_OR_RETURN(
            auto stmt, m_db.prepare("SELECT start, end, deviceId, streamId, nameId, rowid FROM PS_GPU_ANNOTATIONS"));
        while (stmt.step()) {
            auto& lane = deviceLane(stmt.columnInt(2), stmt.columnInt(3), true);
            lane.events.push_back(
                { stmt.columnInt(0), stmt.columnInt(1), m_names.byStringId(stmt.columnInt(4), m_strings),
                    static_cast<uint32_t>(stmt.columnInt(5)), 0, EventKind::GpuAnnotation });
        }
        return stmt.status();
    }

    Status loadMemory()
    {
        std::map<int64_t, CounterSeries> byDevice;
        if (m_db.hasTable("PS_MEMORY_EVENTS")) {
            PLACESCOPE_ASSIGN_OR_RETURN(auto stmt,
                m_db.prepare("SELECT start, deviceId, totalAllocated, totalReserved FROM PS_MEMORY_EVENTS "
                             "WHERE deviceType = 1 AND totalAllocated IS NOT NULL ORDER BY start"));
            while (stmt.step()) {
                auto& series = byDevice[stmt.columnInt(1)];
                series.timeNs.push_back(stmt.columnInt(0));
                series.allocatedBytes.push_back(stmt.columnInt(2));
                series.reservedBytes.push_back(stmt.isNull(3) ? -1 : stmt.columnInt(3));
            }
        }
        if (byDevice.empty() && m_db.hasTable("CUDA_GPU_MEMORY_USAGE_EVENTS")) {
            // nsys/CUPTI allocations: the running sum of allocations minus frees (0 alloc, 1 free).
            PLACESCOPE_ASSIGN_OR_RETURN(auto stmt,
                m_db.prepare("SELECT start, deviceId, bytes, memoryOperationType FROM CUDA_GPU_MEMORY_USAGE_EVENTS "
                             "ORDER BY start"));
            std::map<int64_t, int64_t> live;
            while (stmt.step()) {
                const int64_t device = stmt.columnInt(1);
                live[device] += stmt.columnInt(3) == 1 ? -stmt.columnInt(2) : stmt.columnInt(2);
                auto& series = byDevice[device];
                series.timeNs.push_back(stmt.columnInt(0));
                series.allocatedBytes.push_back(live[device]);
                series.reservedBytes.push_back(-1);
            }
        }
        for (auto& [device, series] : byDevice) {
            series.title = "GPU " + std::to_string(device) + " memory";
            for (size_t i = 0; i < series.timeNs.size(); ++i)
                series.maxBytes = std::max({ series.maxBytes, series.allocatedBytes[i], series.reservedBytes[i] });
            m_trace.counters.push_back(std::move(series));
        }
        return Status::ok();
    }

    void finish()
    {
        int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
        for (auto& [key, pending] : m_lanes) {
            if (pending.events.empty())
                continue;
            Lane lane;
            lane.group = pending.group;
            lane.title = pending.title;
            lane.sortKey = pending.sortKey;
            lane.globalTid = pending.globalTid;
            buildRows(pending.events, lane);
            for (const auto& row : lane.rows) {
                first = std::min(first, row.startNs.front());
                last = std::max(last, row.endNs.back());
                m_trace.eventCount += row.size();
            }
            m_trace.lanes.push_back(std::move(lane));
        }
        std::stable_sort(m_trace.lanes.begin(), m_trace.lanes.end(), [](const Lane& a, const Lane& b) {
            return a.group != b.group ? a.group < b.group : a.sortKey < b.sortKey;
        });
        for (const auto& series : m_trace.counters) {
            if (!series.timeNs.empty()) {
                first = std::min(first, series.timeNs.front());
                last = std::max(last, series.timeNs.back());
            }
        }
        m_trace.firstNs = first <= last ? first : 0;
        m_trace.lastNs = first <= last ? last : 0;
    }

private:
    // annotations: the lane of the stream's GPU annotations, sorted right after the stream's own lane.
    PendingLane& deviceLane(int64_t device, int64_t stream, bool annotations = false)
    {
        const std::string key = "d" + std::to_string(device) + ":" + std::to_string(stream) + (annotations ? ":a" : "");
        auto it = m_lanes.find(key);
        if (it == m_lanes.end()) {
            auto gpu = m_gpuName.find(device);
            // What tells lanes apart first: a long lane name is cut at its end.
            std::string title = "GPU " + std::to_string(device) + " stream " + std::to_string(stream)
                + (annotations ? " annotations" : "");
            if (gpu != m_gpuName.end() && !gpu->second.empty())
                title += " (" + gpu->second + ")";
            it = m_lanes
                     .emplace(key,
                         PendingLane { Lane::Group::Device, title,
                             (device * 1'000'000 + stream) * 2 + (annotations ? 1 : 0), {}, -1 })
                     .first;
        }
        return it->second;
    }
    PendingLane& hostLane(int64_t tid, EventKind kind, const char* suffix)
    {
        const std::string key = "h" + std::to_string(tid) + ":" + std::to_string(static_cast<int>(kind));
        auto it = m_lanes.find(key);
        if (it == m_lanes.end()) {
            auto named = m_threadTitle.find(tid);
            std::string title
                = named != m_threadTitle.end() ? named->second : "thread " + std::to_string(tid & 0xffffff);
            it = m_lanes
                     .emplace(key,
                         PendingLane {
                             Lane::Group::Host, title + " " + suffix, tid * 8 + static_cast<int64_t>(kind), {}, tid })
                     .first;
        }
        return it->second;
    }

    SqliteDb& m_db;
    LoadedTrace& m_trace;
    NameTable m_names;
    std::unordered_map<int64_t, std::string> m_strings;
    std::unordered_map<int64_t, std::string> m_threadTitle;
    std::unordered_map<int64_t, std::string> m_gpuName;
    std::map<std::string, PendingLane> m_lanes;
};

} // namespace

Result<LoadedTrace> loadTrace(const std::string& path, const ProgressFn& progress, const CancelToken* cancel)
{
    PLACESCOPE_ASSIGN_OR_RETURN(auto db, openTrace(path));
    // GPU annotations are also stored as NVTX rows without a thread, for nsys's readers; here they sit under their
    // stream (PS_GPU_ANNOTATIONS), so those copies are left out rather than drawn on a made-up thread 0.
    const std::string nvtxSql = std::string("SELECT start, end, globalTid, textId, rowid, NULL, COALESCE(text, '') "
                                            "FROM NVTX_EVENTS WHERE end IS NOT NULL")
        + (db.hasTable("PS_GPU_ANNOTATIONS")
                ? " AND NOT (globalTid IS NULL AND (start, end) IN (SELECT start, end FROM PS_GPU_ANNOTATIONS))"
                : "");
    LoadedTrace trace;
    trace.path = path;
    Loader loader(db, trace);
    struct Step
    {
        const char* table;
        std::function<Status()> run;
    };
    const std::vector<Step> steps = {
        { "StringIds", [&] { return loader.loadStrings(); } },
        { "PS_THREADS", [&] { return loader.loadThreadNames(); } },
        { "CUPTI_ACTIVITY_KIND_KERNEL",
            [&] {
                return loader.loadDeviceTable(
                    "SELECT start, end, deviceId, streamId, shortName, rowid, correlationId, demangledName "
                    "FROM CUPTI_ACTIVITY_KIND_KERNEL",
                    EventKind::Kernel);
            } },
        { "CUPTI_ACTIVITY_KIND_MEMCPY",
            [&] {
                return loader.loadDeviceTable("SELECT start, end, deviceId, streamId, copyKind, rowid, correlationId "
                                              "FROM CUPTI_ACTIVITY_KIND_MEMCPY",
                    EventKind::Memcpy);
            } },
        { "CUPTI_ACTIVITY_KIND_MEMSET",
            [&] {
                return loader.loadDeviceTable(
                    "SELECT start, end, deviceId, streamId, 0, rowid, correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET",
                    EventKind::Memset);
            } },
        { "PS_FRAMEWORK_OPS",
            [&] {
                return loader.loadHostTable(
                    "SELECT start, end, globalTid, nameId, rowid, externalId FROM PS_FRAMEWORK_OPS",
                    EventKind::FrameworkOp, "ops");
            } },
        { "CUPTI_ACTIVITY_KIND_RUNTIME",
            [&] {
                return loader.loadHostTable(
                    "SELECT start, end, globalTid, nameId, rowid, correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME",
                    EventKind::Runtime, "CUDA API");
            } },
        { "NVTX_EVENTS", [&] { return loader.loadHostTable(nvtxSql.c_str(), EventKind::Nvtx, "NVTX"); } },
        { "PS_GPU_ANNOTATIONS", [&] { return loader.loadGpuAnnotations(); } },
        { "memory", [&] { return loader.loadMemory(); } },
    };
    for (size_t i = 0; i < steps.size(); ++i) {
        if (cancel && cancel->isCancelled())
            return Status::error("loading cancelled");
        if (std::string(steps[i].table) == "memory" || std::string(steps[i].table) == "PS_THREADS"
            || db.hasTable(steps[i].table))
            PLACESCOPE_RETURN_IF_ERROR(steps[i].run());
        if (progress)
            progress(i + 1, steps.size() + 1);
    }
    loader.finish();
    if (db.hasTable("PS_PROBLEMS")) {
        auto problems = db.queryInt("SELECT COALESCE(SUM(count), 0) FROM PS_PROBLEMS");
        if (problems)
            trace.problemCount = static_cast<uint64_t>(*problems);
    }
    if (progress)
        progress(steps.size() + 1, steps.size() + 1);
    return trace;
}

} // namespace placescope::ui
