// SPDX-License-Identifier: MIT
// Internal to the Chrome trace exporter: the state one export shares between its event writers
// (chrome_trace_exporter.cpp: header, metadata, host events; chrome_gpu_events.cpp: GPU events, flows, memory).
#pragma once

#include "profiler/exporters/chrome_external_ids.h"
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/exporters/json_stream.h"

#include <set>

namespace placescope::chrome {

struct ExportContext
{
    SqliteDb& db;
    const ChromeExportOptions& options;
    JsonStream out;
    uint64_t events = 0;
    uint64_t totalRows = 0;
    uint64_t doneRows = 0;
    std::set<std::pair<int64_t, int64_t>> gpuLanes; // (device, stream) seen, for lane names
    ExternalIds externalIds;

    ExportContext(SqliteDb& trace, const ChromeExportOptions& exportOptions)
        : db(trace)
        , options(exportOptions)
    { }

    // Once per row read: progress about every 0.1 %, cancellation every 4096 rows.
    Status tick()
    {
        ++doneRows;
        if ((doneRows & 4095) == 0 && options.cancel && options.cancel->isCancelled())
            return Status::error("export cancelled");
        if (options.progress && totalRows && doneRows % (totalRows / 1000 + 1) == 0)
            options.progress(doneRows, totalRows);
        return Status::ok();
    }

    // Opens one trace event object with the fields every event has; the caller adds the rest and closes it.
    void beginEvent(const char* phase, std::string_view category, std::string_view name, int64_t pid, int64_t tid)
    {
        out.beginObject();
        out.field("ph", phase);
        if (!category.empty())
            out.field("cat", category);
        out.field("name", name);
        out.field("pid", pid);
        out.field("tid", tid);
        ++events;
    }
};

// Writers, one per kind of event. Each reads its table(s) in one pass.
Status writeKernels(ExportContext& context);
Status writeMemcpys(ExportContext& context);
Status writeMemsets(ExportContext& context);
Status writeSyncs(ExportContext& context);
Status writeFlows(ExportContext& context);
Status writeMemoryCounters(ExportContext& context);

} // namespace placescope::chrome
