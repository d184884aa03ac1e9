// SPDX-License-Identifier: MIT
// annotations (HTA's / the TB plugin's user-annotation breakdown): per annotation name, on the CPU (record_function
// ranges, NVTX ranges of a thread) and on the GPU (Kineto's gpu_user_annotation ranges), how often it ran, its time,
// and the kernels under it: for a CPU range the kernels whose launch call started inside it on the same thread
// (nested ranges each count their kernels), for a GPU range the kernels of its own stream that started inside it
// (PS_GPU_ANNOTATIONS). Traces imported before the importer kept that table have the GPU ranges only as NVTX ranges
// without a thread or stream: there a GPU range counts the kernels of every stream.
#include "analysis/reports/kernel_index.h"
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace placescope {
namespace {

struct AnnotationTotals
{
    int64_t count = 0, ns = 0, kernels = 0, kernelNs = 0;
};

} // namespace

ReportTable annotationsReport(const ReportContext& ctx)
{
    const TraceData& trace = ctx.trace();
    const std::unordered_map<int64_t, KernelIndex> byThread = kernelsByLaunchingThread(ctx);
    KernelIndex gpu; // every kernel by its start
    for (const GpuOp& op : trace.gpuOps)
        if (op.kind == GpuOp::Kind::Kernel) {
            gpu.at.push_back(op.startNs);
            gpu.ops.push_back(&op);
        }
    gpu.finish();

    std::map<std::pair<std::string, std::string>, AnnotationTotals> groups; // (side, name)
    for (const HostRange& r : trace.hostRanges) {
        const bool gpuSide = r.isNvtx && r.globalTid == 0;
        if (!gpuSide && !r.isNvtx && r.category != "user_annotation")
            continue;
        if (gpuSide && !trace.gpuAnnotations.empty())
            continue; // the same ranges with their stream, below
        std::pair<size_t, size_t> under { 0, 0 };
        const KernelIndex* index = &gpu;
        if (gpuSide) {
            under = gpu.range(r.startNs, r.endNs);
            if (ctx.hasStepFilter() && (under.first == under.second || !ctx.inScope(*gpu.ops[under.first])))
                continue;
        } else {
            if (!ctx.hostInScope(r.globalTid, r.startNs))
                continue;
            auto it = byThread.find(r.globalTid);
            if (it != byThread.end()) {
                index = &it->second;
                under = index->range(r.startNs, r.endNs);
            }
        }
        AnnotationTotals& t = groups[{ gpuSide ? "gpu" : "cpu", trace.name(r.nameId) }];
        ++t.count;
        t.ns += r.endNs - r.startNs;
        t.kernels += static_cast<int64_t>(under.second - under.first);
        if (under.second > under.first)
            t.kernelNs += index->cumulative[under.second] - index->cumulative[under.first];
    }
    // GPU ranges with their stream (PS_GPU_ANNOTATIONS): the kernels of that stream that started inside.
    std::map<std::pair<int64_t, int64_t>, KernelIndex> byStream; // (device, stream)
    if (!trace.gpuAnnotations.empty()) {
        for (const GpuOp& op : trace.gpuOps)
            if (op.kind == GpuOp::Kind::Kernel) {
                KernelIndex& index = byStream[{ op.deviceId, op.streamId }];
                index.at.push_back(op.startNs);
                index.ops.push_back(&op);
            }
        for (auto& [key, index] : byStream)
            index.finish();
    }
    for (const GpuAnnotationRange& r : trace.gpuAnnotations) {
        auto it = byStream.find({ r.deviceId, r.streamId });
        std::pair<size_t, size_t> under { 0, 0 };
        if (it != byStream.end())
            under = it->second.range(r.startNs, r.endNs);
        if (ctx.hasStepFilter() && (under.first == under.second || !ctx.inScope(*it->second.ops[under.first])))
            continue;
        AnnotationTotals& t = groups[{ "gpu", trace.name(r.nameId) }];
        ++t.count;
        t.ns += r.endNs - r.startNs;
        t.kernels += static_cast<int64_t>(under.second - under.first);
        if (under.second > under.first)
            t.kernelNs += it->second.cumulative[under.second] - it->second.cumulative[under.first];
    }
    std::vector<std::pair<std::pair<std::string, std::string>, AnnotationTotals>> rows(groups.begin(), groups.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.ns > b.second.ns; });
    ReportTable table;
    table.title = "User annotations (CPU: kernels launched inside; GPU: kernels that started inside), longest first";
    table.columns = { { "side", "Side", ColumnKind::Text }, { "count", "Count", ColumnKind::Count },
        { "total_ns", "Total", ColumnKind::Ns }, { "mean_ns", "Mean", ColumnKind::Ns },
        { "kernels", "Kernels", ColumnKind::Count }, { "kernel_ns", "Kernel time", ColumnKind::Ns },
        { "name", "Name", ColumnKind::Text } };
    for (const auto& [key, t] : rows)
        table.rows.push_back(
            { key.first, t.count, t.ns, roundedMean(t.ns, t.count), t.kernels, t.kernelNs, key.second });
    if (rows.empty())
        table.notes.push_back("the trace has no user annotations (torch.profiler.record_function, NVTX ranges)");
    return table;
}

} // namespace placescope
