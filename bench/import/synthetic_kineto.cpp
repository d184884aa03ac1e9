// SPDX-License-Identifier: MIT
#include "synthetic_kineto.h"

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace placescope::bench {

bool writeSyntheticKinetoTrace(const std::string& path, uint64_t targetEvents, SyntheticTrace* written)
{
    gzFile out = gzopen(path.c_str(), "wb1"); // level 1: the bench times the import, not the generator
    if (!out)
        return false;
    gzbuffer(out, 1 << 20);
    SyntheticTrace counts;
    auto put = [&](const std::string& text) {
        counts.uncompressedBytes += text.size();
        return gzwrite(out, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size());
    };
    bool ok = put("{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"Synthetic GPU\", "
                  "\"totalGlobalMem\": 85899345920, \"computeMajor\": 9, \"computeMinor\": 0}],\n\"traceEvents\": [\n");
    static const char* const kOps[] = { "aten::conv2d", "aten::batch_norm", "aten::relu", "aten::add_", "aten::mm" };
    static const char* const kKernels[] = { "implicit_convolve_sgemm", "bn_fw_tr_1C11_kernel_NCHW",
        "vectorized_elementwise_kernel<4, relu>", "vectorized_elementwise_kernel<4, add>", "ampere_sgemm_128x64_nn" };
    char line[1024];
    int64_t ts = 1000000; // microseconds
    uint64_t correlation = 1;
    const char* separator = "";
    while (ok && counts.events < targetEvents) {
        int kind = static_cast<int>(correlation % 5);
        // Framework op, its launch call, the flow pair, the kernel: 5 events per op.
        std::snprintf(line, sizeof line,
            "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 4242, \"tid\": 4242, \"ts\": %lld.%03d, "
            "\"dur\": 41.250, \"args\": {\"External id\": %llu, \"Input Dims\": [[32, 64, 56, 56], [64]], "
            "\"Input type\": [\"float\", \"float\"]}},\n"
            "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 4242, \"tid\": 4242, "
            "\"ts\": %lld.%03d, \"dur\": 6.1, \"args\": {\"correlation\": %llu, \"External id\": %llu}},\n"
            "{\"ph\": \"s\", \"id\": %llu, \"pid\": 4242, \"tid\": 4242, \"ts\": %lld.%03d, \"cat\": \"ac2g\", "
            "\"name\": \"ac2g\"},\n"
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7, \"ts\": %lld.%03d, "
            "\"dur\": 35.5, "
            "\"args\": {\"device\": 0, \"stream\": 7, \"correlation\": %llu, \"External id\": %llu, "
            "\"grid\": [128, 1, 1], \"block\": [256, 1, 1], \"registers per thread\": 32}},\n"
            "{\"ph\": \"f\", \"id\": %llu, \"pid\": 0, \"tid\": 7, \"ts\": %lld.%03d, \"cat\": \"ac2g\", \"name\": "
            "\"ac2g\", \"bp\": \"e\"}",
            separator, kOps[kind], static_cast<long long>(ts), static_cast<int>(correlation % 1000),
            static_cast<unsigned long long>(correlation), static_cast<long long>(ts + 2), 500,
            static_cast<unsigned long long>(correlation), static_cast<unsigned long long>(correlation),
            static_cast<unsigned long long>(correlation), static_cast<long long>(ts + 2), 500, kKernels[kind],
            static_cast<long long>(ts + 10), 0, static_cast<unsigned long long>(correlation),
            static_cast<unsigned long long>(correlation), static_cast<unsigned long long>(correlation),
            static_cast<long long>(ts + 10), 0);
        ok = put(line);
        counts.events += 5;
        if (correlation % 50 == 0) { // a pageable input copy now and then
            std::snprintf(line, sizeof line,
                ",\n{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pageable -> Device)\", \"pid\": "
                "0, "
                "\"tid\": 7, \"ts\": %lld.000, \"dur\": 8.0, \"args\": {\"device\": 0, \"stream\": 7, \"bytes\": "
                "1048576}}",
                static_cast<long long>(ts + 46));
            ok = ok && put(line);
            counts.events += 1;
        }
        separator = ",\n";
        ts += 50;
        ++correlation;
    }
    ok = ok && put("\n]}\n");
    if (gzclose(out) != Z_OK)
        ok = false;
    if (!ok) {
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
        return false;
    }
    if (written)
        *written = counts;
    return true;
}

} // namespace placescope::bench
