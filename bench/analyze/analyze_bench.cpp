// SPDX-License-Identifier: MIT
// analyze_bench [events] [dir]: writes a synthetic trace of about `events` events (default 1,000,000) with
// TraceWriter (training-like steps: launches + kernels, copies, framework ops, allocator events, with data
// loading gaps, pageable copies and layout conversions so the rules have work), then times in the same run:
//   baseline 1: one full scan of every table the analysis reads (SELECT SUM(start) ...: every row is read,
//               which COUNT(*) would not do), the floor of touching the data once,
//   baseline 2: computeTraceStats (what `placescope stats` does),
//   analyze:    analyzeTrace (all rules) + rendering the HTML report,
// and prints the times and the ratios analyze/baseline. Best of 3 runs each.
#include "analysis/findings/analyzer.h"
#include "analysis/render/report_writer.h"
#include "profiler/base/units.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/stats/trace_stats.h"
#include "profiler/store/trace_file.h"
#include "profiler/store/trace_writer.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <unistd.h>

using namespace placescope;

namespace {

constexpr int64_t kUs = 1000;

Status writeTrace(const std::string& path, int64_t targetEvents, int64_t* written)
{
    PLACESCOPE_ASSIGN_OR_RETURN(auto writer, TraceWriter::create(path));
    GpuInfo gpu;
    gpu.id = 0;
    gpu.name = "NVIDIA A100-SXM4-40GB";
    gpu.totalMemory = 40LL << 30;
    gpu.computeMajor = 8;
    writer->add(gpu);
    const int64_t pid = 4242, tid = makeGlobalTid(pid, pid);
    const char* kernels[] = { "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32",
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>()",
        "void cudnn::ops::nchwToNhwcKernel<__half, __half, float, false, true>()", "volta_sgemm_128x64_nn",
        "void at::native::reduce_kernel<512, 1>()" };
    const char* ops[] = { "aten::linear", "aten::add", "aten::conv2d", "aten::mm", "aten::sum" };
    // Per step: 1 loading range + 2000 x (op + launch + kernel) + 20 copies + 40 memory events ~ 6,061 events.
    const int64_t perStep = 6061;
    const int64_t steps = std::max<int64_t>(1, targetEvents / perStep);
    int64_t t = 0, correlation = 0, external = 0, allocated = 1LL << 30;
    for (int64_t s = 0; s < steps; ++s) {
        int64_t stepStart = t;
        FrameworkOp load;
        load.start = t;
        load.end = t + 2000 * kUs;
        load.globalTid = tid;
        load.name = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
        load.category = "user_annotation";
        writer->add(load);
        t += 2000 * kUs;
        for (int c = 0; c < 20; ++c) {
            MemcpyEvent copy;
            copy.start = t;
            copy.end = t + 50 * kUs;
            copy.correlationId = ++correlation;
            copy.globalPid = makeGlobalPid(pid);
            copy.bytes = 1 << 20;
            copy.copyKind = static_cast<int64_t>(CopyKind::HtoD);
            copy.srcKind = static_cast<int64_t>(c % 2 ? MemKind::Pageable : MemKind::Pinned);
            copy.dstKind = static_cast<int64_t>(MemKind::Device);
            writer->add(copy);
            t += 50 * kUs;
        }
        for (int k = 0; k < 2000; ++k) {
            FrameworkOp op;
            op.start = t - 30 * kUs;
            op.end = t - 10 * kUs;
            op.globalTid = tid;
            op.name = ops[k % 5];
            op.category = "cpu_op";
            op.externalId = ++external;
            op.inputDims = "[[64, 1000], [1000, 1000]]";
            writer->add(op);
            RuntimeEvent launch;
            launch.start = t - 25 * kUs;
            launch.end = t - 20 * kUs;
            launch.globalTid = tid;
            launch.correlationId = ++correlation;
            launch.name = "cudaLaunchKernel";
            writer->add(launch);
            KernelEvent kernel;
            kernel.start = t;
            kernel.end = t + (k % 7 == 0 ? 3 : 40) * kUs;
            kernel.streamId = 7;
            kernel.correlationId = correlation;
            kernel.globalPid = makeGlobalPid(pid);
            kernel.demangledName = kernels[k % 5];
            writer->add(kernel);
            t = kernel.end + 2 * kUs;
            if (k % 50 == 0) {
                MemoryEvent m;
                m.start = t;
                m.globalTid = tid;
                m.deviceType = 1;
                m.deviceId = 0;
                m.bytes = (k % 100 == 0 ? 1 : -1) * (4 << 20);
                allocated += m.bytes;
                m.totalAllocated = allocated;
                m.totalReserved = 3LL << 30;
                writer->add(m);
            }
        }
        writer->add(StepRange { s, stepStart, t, makeGlobalPid(pid) });
    }
    *written = static_cast<int64_t>(writer->eventCount());
    return writer->commit();
}

double bestOf3(const std::function<bool()>& run)
{
    double best = 1e300;
    for (int i = 0; i < 3; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        if (!run())
            return -1;
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

} // namespace

int main(int argc, char** argv)
{
    int64_t target = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    std::filesystem::path dir
        = argc > 2 ? argv[2] : std::filesystem::temp_directory_path() / ("analyze_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::string path = (dir / "bench.sqlite").string();
    std::filesystem::remove(path);
    int64_t events = 0;
    auto t0 = std::chrono::steady_clock::now();
    Status s = writeTrace(path, target, &events);
    if (!s.isOk()) {
        std::fprintf(stderr, "analyze_bench: %s\n", s.message().c_str());
        return 1;
    }
    double writeS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("trace: %lld events, %s, written in %s\n", static_cast<long long>(events),
        formatBytes(static_cast<int64_t>(std::filesystem::file_size(path))).c_str(),
        formatNanoseconds(writeS * 1e9).c_str());

    size_t findings = 0, htmlBytes = 0;
    double count = bestOf3([&] {
        auto db = openTrace(path);
        if (!db.isOk())
            return false;
        int64_t total = 0;
        for (const char* table : { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                 "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                 "PS_FRAMEWORK_OPS", "NVTX_EVENTS", "PS_MEMORY_EVENTS", "CUDA_GPU_MEMORY_USAGE_EVENTS" }) {
            auto n = db->queryInt(std::string("SELECT COUNT(*) + IFNULL(SUM(start), 0) * 0 FROM ") + table);
            if (!n.isOk())
                return false;
            total += n.value();
        }
        return total > 0;
    });
    double stats = bestOf3([&] {
        auto db = openTrace(path);
        return db.isOk() && computeTraceStats(*db, StatsOptions {}).isOk();
    });
    double analyze = bestOf3([&] {
        auto db = openTrace(path);
        if (!db.isOk())
            return false;
        auto report = analyzeTrace(*db, AnalysisOptions {});
        if (!report.isOk())
            return false;
        findings = report->findings.size();
        htmlBytes = renderHtmlReport(*report).size();
        return true;
    });
    if (count < 0 || stats < 0 || analyze < 0) {
        std::fprintf(stderr, "analyze_bench: a timed run failed\n");
        return 1;
    }
    std::printf("baseline full scan of the analysed tables   : %s\n", formatNanoseconds(count * 1e9).c_str());
    std::printf("baseline computeTraceStats (placescope stats):     %s\n", formatNanoseconds(stats * 1e9).c_str());
    std::printf("analyze (all rules + HTML report, %zu findings, %s): %s\n", findings,
        formatBytes(static_cast<int64_t>(htmlBytes)).c_str(), formatNanoseconds(analyze * 1e9).c_str());
    std::printf("ratio analyze / full scan: %.2f\n", analyze / count);
    std::printf("ratio analyze / stats:    %.2f\n", analyze / stats);
    std::printf("analyze throughput: %.2f M events/s\n", static_cast<double>(events) / analyze / 1e6);
    if (argc <= 2)
        std::filesystem::remove_all(dir);
    return 0;
}
