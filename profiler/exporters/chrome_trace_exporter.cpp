// SPDX-License-Identifier: MIT
// Chrome trace export: file header (deviceProperties, distributedInfo), host-side events, process/thread
// names, and the atomic write (temp file + rename). GPU events, flows and memory are in chrome_gpu_events.cpp.
#include "profiler/exporters/chrome_trace_exporter.h"

#include "profiler/base/output_file.h"
#include "profiler/exporters/chrome_export_context.h"
#include "profiler/model/trace_events.h"

#include <nlohmann/json.hpp>

#include <sqlite3.h>

#include <string>
#include <vector>

namespace placescope {
namespace chrome {
namespace {

// Framework-op args stored as JSON text go out as JSON when they parse, else as a string.
void jsonOrString(ExportContext& c, std::string_view key, const std::string& text)
{
    if (text.empty())
        return;
    if (nlohmann::json::accept(text))
        c.out.rawField(key, text);
    else
        c.out.field(key, text);
}

Status writeHeader(ExportContext& c)
{
    c.out.field("schemaVersion", int64_t { 1 });
    c.out.field("displayTimeUnit", "ms");
    c.out.field("traceName", "Placescope export");
    c.out.beginArray("deviceProperties");
    if (c.db.hasTable("TARGET_INFO_GPU")) {
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement gpu,
            c.db.prepare("SELECT id, name, totalMemory, computeMajor, computeMinor, smCount,"
                         " maxThreadsPerBlock, maxRegistersPerBlock, threadsPerWarp,"
                         " maxShmemPerBlock, maxShmemPerBlockOptin, maxShmemPerSm,"
                         " maxRegistersPerSm FROM TARGET_INFO_GPU ORDER BY id"));
        static const char* kKeys[] = { "id", "name", "totalGlobalMem", "computeMajor", "computeMinor", "numSms",
            "maxThreadsPerBlock", "regsPerBlock", "warpSize", "sharedMemPerBlock", "sharedMemPerBlockOptin",
            "sharedMemPerMultiprocessor", "regsPerMultiprocessor" };
        while (gpu.step()) {
            c.out.beginObject();
            for (int i = 0; i < 13; ++i) {
                if (gpu.isNull(i))
                    continue;
                if (i == 1)
                    c.out.field(kKeys[i], gpu.columnText(i));
                else
                    c.out.field(kKeys[i], gpu.columnInt(i));
            }
            c.out.endObject();
        }
        PLACESCOPE_RETURN_IF_ERROR(gpu.status());
    }
    c.out.endArray();
    auto rank = c.db.prepare("SELECT MIN(rank), COUNT(DISTINCT rank) FROM PS_PROCESSES WHERE rank IS NOT NULL");
    if (rank.isOk() && rank->step() && rank->columnInt(1) == 1) {
        c.out.beginObject("distributedInfo");
        c.out.field("rank", rank->columnInt(0));
        c.out.endObject();
    }
    return Status::ok();
}

void metadata(ExportContext& c, const char* what, int64_t pid, int64_t tid, std::string_view key, std::string_view text,
    std::optional<int64_t> number = std::nullopt)
{
    c.beginEvent("M", {}, what, pid, tid);
    c.out.beginObject("args");
    if (number)
        c.out.field(key, *number);
    else
        c.out.field(key, text);
    c.out.endObject();
    c.out.endObject();
}

Status writeNames(ExportContext& c)
{
    PLACESCOPE_ASSIGN_OR_RETURN(
        SqliteStatement process, c.db.prepare("SELECT pid, COALESCE(name, ''), rank FROM PS_PROCESSES ORDER BY pid"));
    while (process.step()) {
        std::string name
            = process.columnText(1).empty() ? "process " + std::to_string(process.columnInt(0)) : process.columnText(1);
        if (!process.isNull(2))
            name += " (rank " + std::to_string(process.columnInt(2)) + ")";
        metadata(c, "process_name", process.columnInt(0), 0, "name", name);
    }
    PLACESCOPE_RETURN_IF_ERROR(process.status());
    PLACESCOPE_ASSIGN_OR_RETURN(
        SqliteStatement thread, c.db.prepare("SELECT globalTid, name FROM PS_THREADS WHERE name IS NOT NULL"));
    while (thread.step())
        metadata(c, "thread_name", pidOfGlobalId(thread.columnInt(0)), tidOfGlobalTid(thread.columnInt(0)), "name",
            thread.columnText(1));
    PLACESCOPE_RETURN_IF_ERROR(thread.status());
    int64_t lastDevice = -1;
    for (const auto& [device, stream] : c.gpuLanes) {
        if (device != lastDevice) {
            metadata(c, "process_name", device, 0, "name", "GPU " + std::to_string(device));
            metadata(c, "process_labels", device, 0, "labels", "GPU " + std::to_string(device));
            metadata(c, "process_sort_index", device, 0, "sort_index", {}, 0x1000000 + device);
            lastDevice = device;
        }
        metadata(c, "thread_name", device, stream, "name", stream < 0 ? "sync" : "stream " + std::to_string(stream));
        metadata(c, "thread_sort_index", device, stream, "sort_index", {}, stream);
    }
    return Status::ok();
}

Status writeApiCalls(ExportContext& c)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement row,
        c.db.prepare("SELECT t.start, t.end, t.globalTid, t.eventClass, s.value, t.correlationId"
                     " FROM CUPTI_ACTIVITY_KIND_RUNTIME t LEFT JOIN StringIds s ON s.id = t.nameId"));
    while (row.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        int64_t gtid = row.columnInt(2);
        bool driver = !row.isNull(3) && row.columnInt(3) == static_cast<int64_t>(ApiClass::Driver);
        c.beginEvent(
            "X", driver ? "cuda_driver" : "cuda_runtime", row.columnText(4), pidOfGlobalId(gtid), tidOfGlobalTid(gtid));
        c.out.timestampField("ts", row.columnInt(0));
        c.out.timestampField("dur", row.columnInt(1) - row.columnInt(0));
        c.out.beginObject("args");
        if (!row.isNull(5)) {
            c.out.field("correlation", row.columnInt(5));
            if (auto external = c.externalIds.find(gtid, row.columnInt(5)))
                c.out.field("External id", *external);
        }
        c.out.endObject();
        c.out.endObject();
    }
    return row.status();
}

Status writeFrameworkOps(ExportContext& c)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement row,
        c.db.prepare("SELECT o.start, o.end, o.globalTid, s.value, o.category, o.externalId,"
                     " o.sequenceNumber, o.fwdThreadId, o.inputDims, o.inputTypes,"
                     " o.inputStrides, o.extra FROM PS_FRAMEWORK_OPS o"
                     " LEFT JOIN StringIds s ON s.id = o.nameId"));
    while (row.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        int64_t gtid = row.columnInt(2);
        c.beginEvent("X", row.columnText(4), row.columnText(3), pidOfGlobalId(gtid), tidOfGlobalTid(gtid));
        c.out.timestampField("ts", row.columnInt(0));
        c.out.timestampField("dur", row.columnInt(1) - row.columnInt(0));
        c.out.beginObject("args");
        static const char* kIntArgs[] = { "External id", "Sequence number", "Fwd thread id" };
        for (int i = 0; i < 3; ++i)
            if (!row.isNull(5 + i))
                c.out.field(kIntArgs[i], row.columnInt(5 + i));
        jsonOrString(c, "Input Dims", row.columnText(8));
        jsonOrString(c, "Input type", row.columnText(9));
        jsonOrString(c, "Input Strides", row.columnText(10));
        std::string extra = row.columnText(11);
        if (extra.size() > 2 && extra.front() == '{' && extra.back() == '}' && nlohmann::json::accept(extra)) {
            std::string_view members = std::string_view(extra).substr(1, extra.size() - 2);
            if (members.find_first_not_of(" \t\r\n") != std::string_view::npos)
                c.out.rawField({}, members); // the object's members, merged into args
        }
        c.out.endObject();
        c.out.endObject();
    }
    return row.status();
}

Status writeNvtxAndOverhead(ExportContext& c)
{
    // Ranges (push/pop, start/end) as complete events, marks as instants; category/domain rows are not events.
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement row,
        c.db.prepare("SELECT n.start, n.end, n.globalTid, COALESCE(n.text, s.value, ''),"
                     " n.eventType FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId"
                     " WHERE n.eventType IN (34, 59, 60)"));
    while (row.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        int64_t gtid = row.isNull(2) ? 0 : row.columnInt(2);
        bool range = !row.isNull(1);
        c.beginEvent(range ? "X" : "i", "nvtx", row.columnText(3), pidOfGlobalId(gtid), tidOfGlobalTid(gtid));
        c.out.timestampField("ts", row.columnInt(0));
        if (range)
            c.out.timestampField("dur", row.columnInt(1) - row.columnInt(0));
        else
            c.out.field("s", "t");
        c.out.endObject();
    }
    PLACESCOPE_RETURN_IF_ERROR(row.status());
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement overhead,
        c.db.prepare("SELECT o.start, o.end, COALESCE(o.globalTid, 0), COALESCE(s.value, '')"
                     " FROM PROFILER_OVERHEAD o LEFT JOIN StringIds s ON s.id = o.nameId"));
    while (overhead.step()) {
        PLACESCOPE_RETURN_IF_ERROR(c.tick());
        int64_t gtid = overhead.columnInt(2);
        c.beginEvent("X", "overhead", overhead.columnText(3), pidOfGlobalId(gtid), tidOfGlobalTid(gtid));
        c.out.timestampField("ts", overhead.columnInt(0));
        c.out.timestampField("dur", overhead.columnInt(1) - overhead.columnInt(0));
        c.out.endObject();
    }
    return overhead.status();
}

uint64_t countRows(SqliteDb& db)
{
    uint64_t total = 0;
    for (const char* table : { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
             "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "CUPTI_ACTIVITY_KIND_RUNTIME", "PS_FRAMEWORK_OPS", "NVTX_EVENTS",
             "PROFILER_OVERHEAD", "PS_MEMORY_EVENTS", "CUDA_GPU_MEMORY_USAGE_EVENTS", "PS_FLOWS" })
        if (auto n = db.queryInt(std::string("SELECT COUNT(*) FROM ") + table); n.isOk())
            total += static_cast<uint64_t>(*n);
    return total;
}

} // namespace
} // namespace chrome

Result<ChromeExportSummary> exportChromeTrace(
    SqliteDb& trace, const std::string& outputPath, const ChromeExportOptions& options)
{
    if (!trace.hasTable("PS_META"))
        return Status::error("not a Placescope trace");
    // The trace being read is an input: -o naming it (by any path) would replace it.
    const char* tracePath = sqlite3_db_filename(trace.handle(), "main");
    std::vector<std::string> inputs;
    if (tracePath && *tracePath)
        inputs.emplace_back(tracePath);
    PLACESCOPE_ASSIGN_OR_RETURN(OutputFile output, OutputFile::create(outputPath, inputs));

    chrome::ExportContext c(trace, options);
    c.totalRows = chrome::countRows(trace);
    PLACESCOPE_ASSIGN_OR_RETURN(c.externalIds, chrome::ExternalIds::load(trace));
    PLACESCOPE_RETURN_IF_ERROR(c.out.open(output.tempPath()));
    c.out.beginObject();
    PLACESCOPE_RETURN_IF_ERROR(chrome::writeHeader(c));
    c.out.beginArray("traceEvents");
    using Writer = Status (*)(chrome::ExportContext&);
    for (Writer writer : { chrome::writeKernels, chrome::writeMemcpys, chrome::writeMemsets, chrome::writeSyncs,
             chrome::writeApiCalls, chrome::writeFrameworkOps, chrome::writeNvtxAndOverhead, chrome::writeFlows,
             chrome::writeMemoryCounters, chrome::writeNames })
        PLACESCOPE_RETURN_IF_ERROR(writer(c));
    c.out.endArray();
    c.out.endObject();
    uint64_t bytes = c.out.bytesWritten() + 1;
    c.out.rawField({}, "\n");
    PLACESCOPE_RETURN_IF_ERROR(c.out.close());
    PLACESCOPE_RETURN_IF_ERROR(output.commit());
    return ChromeExportSummary { c.events, bytes };
}

} // namespace placescope
