// SPDX-License-Identifier: MIT
// RowInserts: the trace writer's inserts, one BatchedInsert per table, with the row types that carry the string
// ids TraceWriter interned instead of the text, and the EarlyIndexer that indexes tables as they go quiet.
// Used on the writer's connection from one thread at a time.
#pragma once

#include "profiler/model/trace_events.h"
#include "profiler/store/batched_insert.h"
#include "profiler/store/early_indexer.h"

#include <cstdint>
#include <string>

namespace placescope {

// Rows whose names were interned on the caller's thread carry the string ids instead of the text.
struct KernelRow
{
    KernelEvent event;
    int64_t nameId = 0;
    int64_t shortId = 0;
    OptInt mangledId;
};
struct RuntimeRow
{
    RuntimeEvent event;
    int64_t nameId = 0;
};
struct OsRuntimeRow
{
    OsRuntimeCall event;
    int64_t nameId = 0;
};
struct NvtxRow
{
    NvtxEvent event;
    OptInt textId; // registered strings; other text stays in event.text (NVTX_EVENTS.text)
};
struct OverheadRow
{
    OverheadEvent event;
    int64_t nameId = 0;
};
struct OpRow
{
    FrameworkOp op;
    int64_t nameId = 0;
};
struct ThreadNameRow
{
    int64_t nameId = 0;
    int64_t globalTid = 0;
    OptInt priority;
};
struct CounterRow
{
    CounterSample sample;
    int64_t nameId = 0;
};
struct GpuAnnotationRow
{
    GpuAnnotation annotation;
    int64_t nameId = 0;
};
struct SystemFactRow
{
    SystemFact fact;
    int64_t nameEnum = 0;
};
struct StringRow
{
    int64_t id = 0;
    std::string value;
};

class RowInserts
{
public:
    BatchedInsert<KernelRow> kernels;
    BatchedInsert<MemcpyEvent> memcpys;
    BatchedInsert<MemsetEvent> memsets;
    BatchedInsert<RuntimeRow> runtime;
    BatchedInsert<SyncEvent> syncs;
    BatchedInsert<CudaEventRecord> cudaEvents;
    BatchedInsert<NvtxRow> nvtx;
    BatchedInsert<GpuMemoryEvent> gpuMemory;
    BatchedInsert<OverheadRow> overhead;
    BatchedInsert<GpuInfo> gpus;
    BatchedInsert<ProcessInfo> processes;
    BatchedInsert<ThreadInfo> threads;
    BatchedInsert<ThreadNameRow> threadNames;
    BatchedInsert<ProcessInfo> nsysProcesses; // PROCESSES, nsys's view of PS_PROCESSES
    BatchedInsert<DiagnosticEvent> diagnostics;
    BatchedInsert<SystemFactRow> systemFacts;
    BatchedInsert<OsRuntimeRow> osRuntime;
    BatchedInsert<CudaContextInfo> cudaContexts;
    BatchedInsert<CudaStreamInfo> cudaStreams;
    BatchedInsert<GpuAnnotationRow> gpuAnnotations;
    BatchedInsert<CounterRow> counters;
    BatchedInsert<OpRow> ops;
    BatchedInsert<ExternalCorrelation> externalCorrelations;
    BatchedInsert<MemoryEvent> memory;
    BatchedInsert<FlowEvent> flows;
    BatchedInsert<StepRange> steps;
    BatchedInsert<StringRow> strings;
    EarlyIndexer indexer; // over the trace's indexes (trace_indexes.sql)

    RowInserts();
    void define(SqliteDb& db); // the statements compile on first use

    template <typename Visit> void forEach(Visit visit)
    {
        visit(kernels), visit(memcpys), visit(memsets), visit(runtime), visit(syncs), visit(cudaEvents), visit(nvtx),
            visit(gpuMemory), visit(overhead), visit(gpus), visit(processes), visit(threads), visit(threadNames),
            visit(nsysProcesses), visit(diagnostics), visit(systemFacts), visit(osRuntime), visit(cudaContexts),
            visit(cudaStreams), visit(gpuAnnotations), visit(counters), visit(ops), visit(externalCorrelations),
            visit(memory), visit(flows), visit(steps), visit(strings);
    }

    // Writes the rows still waiting for a full statement, in every table.
    Status flush();
    // Drops the statements (before the connection closes).
    void close();
};

} // namespace placescope
