// SPDX-License-Identifier: MIT
// capture_bench [records] [dir]: how fast the tracer's writer thread turns CUPTI buffers into a part file, with
// no GPU. Real CUDA 13 records (1 kernel : 2 runtime calls, as in a PyTorch step) are packed into 8 MB buffers
// and walked with libcupti's iterator into a crash-safe part (ActivityTranslator + TraceWriter, committed every
// 8 buffers like the 1 s flush), against a baseline measured in the same run: the same events, already
// converted, added straight to the same kind of part. Prints both rates, the ratio, and the headroom over the
// record rate of a ResNet-50 training step on an H100 (about 44,000 records/s: 737 kernels, ~880 API calls and
// ~60 memsets/syncs per 38 ms step, measured with bench/capture/run_capture_bench.sh).
#include "profiler/base/units.h"
#include "profiler/capture/activity_translator.h"
#include "profiler/capture/cupti_api.h"
#include "profiler/store/trace_writer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace placescope;
using namespace placescope::capture;

namespace {

constexpr size_t kBufferBytes = 8 << 20;
constexpr double kResnetRecordsPerSecond = 44000;

const char* const kNames[] = {
    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEESt5arrayIPcLm3EEEEviT0_T1_",
    "_Z21cudnn_bn_fw_tr_kernelIffiLi128ELb1ELi1ELb1EEvPfS0_i",
    "_ZN7cutlass7Kernel2I61cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4EEvNT_6ParamsE",
    "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_7SumOpsIfEEjfLi4EEEEEvT1_",
};

struct Buffer
{
    std::vector<uint64_t> storage; // 8-byte aligned
    size_t validSize = 0;
};

std::vector<Buffer> makeBuffers(int64_t records)
{
    std::vector<Buffer> buffers(1);
    buffers[0].storage.resize(kBufferBytes / 8);
    auto append = [&](const void* record, size_t size) {
        if (buffers.back().validSize + size > kBufferBytes) {
            buffers.emplace_back();
            buffers.back().storage.resize(kBufferBytes / 8);
        }
        Buffer& buffer = buffers.back();
        std::memcpy(reinterpret_cast<uint8_t*>(buffer.storage.data()) + buffer.validSize, record, size);
        buffer.validSize += size;
    };
    uint64_t time = 1795000000000000000ull;
    for (int64_t i = 0; i < records; i += 3) {
        uint32_t correlation = static_cast<uint32_t>(i / 3);
        CUpti_ActivityAPI api {};
        api.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
        api.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
        api.start = time;
        api.end = time + 3000;
        api.processId = 1000;
        api.threadId = 1001;
        api.correlationId = correlation;
        append(&api, sizeof api);
        api.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020;
        api.correlationId = correlation + 0x40000000u;
        append(&api, sizeof api);
        CUpti_ActivityKernel10 kernel {};
        kernel.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        kernel.name = kNames[i % 4];
        kernel.start = time + 5000;
        kernel.end = time + 25000;
        kernel.streamId = 7;
        kernel.correlationId = correlation;
        kernel.gridX = kernel.gridY = kernel.gridZ = 1;
        kernel.blockX = 256;
        kernel.blockY = kernel.blockZ = 1;
        append(&kernel, sizeof kernel);
        time += 30000;
    }
    return buffers;
}

std::unique_ptr<TraceWriter> createPart(const std::string& path)
{
    TraceWriterOptions options;
    options.crashSafePartial = true;
    auto writer = TraceWriter::create(path, options);
    if (!writer.isOk()) {
        std::fprintf(stderr, "capture_bench: %s\n", writer.status().message().c_str());
        std::exit(1);
    }
    return std::move(writer).value();
}

double seconds(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv)
{
    int64_t records = argc > 1 ? std::atoll(argv[1]) : 1500000;
    std::filesystem::path dir
        = argc > 2 ? argv[2] : std::filesystem::temp_directory_path() / "placescope_capture_bench";
    std::filesystem::create_directories(dir);
    std::vector<Buffer> buffers = makeBuffers(records);
    RealCuptiApi api;

    // Capture path: CUPTI iterator + conversion + demangling + SQLite, committed every 8 buffers.
    auto start = std::chrono::steady_clock::now();
    uint64_t walked = 0;
    {
        auto writer = createPart((dir / "translated.sqlite").string());
        TranslatorOptions options;
        options.pid = 1000;
        ActivityTranslator translator(api, *writer, options);
        for (size_t i = 0; i < buffers.size(); ++i) {
            walked += translator.translateBuffer(
                reinterpret_cast<uint8_t*>(buffers[i].storage.data()), buffers[i].validSize);
            if (i % 8 == 7 && !writer->flush().isOk())
                return 1;
        }
        if (!writer->closePartial().isOk())
            return 1;
    }
    double translated = seconds(start);

    // Baseline: the same rows, already converted, written the same way.
    std::vector<KernelEvent> kernels;
    std::vector<RuntimeEvent> calls;
    for (int64_t i = 0; i < records; i += 3) {
        RuntimeEvent call;
        call.start = 1795000000000000000 + i * 10000;
        call.end = call.start + 3000;
        call.globalTid = makeGlobalTid(1000, 1001);
        call.correlationId = i / 3;
        call.name = "cudaLaunchKernel_v7000";
        calls.push_back(call);
        call.name = "cudaMemsetAsync_v3020";
        calls.push_back(call);
        KernelEvent kernel;
        kernel.start = call.start + 5000;
        kernel.end = call.start + 25000;
        kernel.streamId = 7;
        kernel.correlationId = i / 3;
        kernel.demangledName = demangleKernelName(kNames[i % 4]);
        kernels.push_back(std::move(kernel));
    }
    start = std::chrono::steady_clock::now();
    {
        auto writer = createPart((dir / "baseline.sqlite").string());
        size_t perFlush = 8 * kBufferBytes / 90; // rows in 8 buffers (average record 90 bytes)
        size_t rows = 0;
        for (size_t i = 0; i < kernels.size(); ++i) {
            writer->add(calls[2 * i]);
            writer->add(calls[2 * i + 1]);
            writer->add(kernels[i]);
            rows += 3;
            if (rows >= perFlush) {
                rows = 0;
                if (!writer->flush().isOk())
                    return 1;
            }
        }
        if (!writer->closePartial().isOk())
            return 1;
    }
    double baseline = seconds(start);

    double rate = static_cast<double>(walked) / translated;
    std::printf("capture_bench: %llu records in %zu buffers of %s\n", static_cast<unsigned long long>(walked),
        buffers.size(), formatBytes(static_cast<int64_t>(kBufferBytes)).c_str());
    std::printf(
        "  translate + write (capture path): %s, %.0f records/s\n", formatNanoseconds(translated * 1e9).c_str(), rate);
    std::printf("  write pre-converted (baseline):   %s, %.0f records/s\n", formatNanoseconds(baseline * 1e9).c_str(),
        static_cast<double>(walked) / baseline);
    std::printf("  ratio capture path / baseline: %.3f\n", translated / baseline);
    std::printf("  headroom over a ResNet-50 H100 step's record rate (%.0f/s): %.1fx\n", kResnetRecordsPerSecond,
        rate / kResnetRecordsPerSecond);
    std::filesystem::remove_all(dir);
    return 0;
}
