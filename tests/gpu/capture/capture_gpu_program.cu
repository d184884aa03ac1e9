// SPDX-License-Identifier: MIT
// A small CUDA program with a known number of kernels, copies (pageable and pinned), memsets, allocations and
// NVTX ranges (gpu_program_counts.h), for the GPU capture test. Modes:
//   (none)              do the work once and check the result
//   --fail              do the work, then exit with kFailExitCode
//   --children N        start N copies of itself (RANK=1..N), do the work, wait for them
//   --subscribe-first   take CUPTI's subscriber slot before CUDA starts, like another profiler would
//   --sleep S           do the work, then sleep S seconds (to be killed mid-run)
#include "gpu_program_counts.h"

#include <cuda_runtime.h>
#include <cupti.h>
#include <nvtx3/nvToolsExt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace placescope::gpuprogram;

__global__ void scaleKernel(float* data, float factor, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        data[i] *= factor;
}

__global__ void addKernel(float* data, float value, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        data[i] += value;
}

#define CHECK(call)                                                                                          \
    do {                                                                                                     \
        cudaError_t error_ = (call);                                                                         \
        if (error_ != cudaSuccess) {                                                                         \
            std::fprintf(stderr, "capture_gpu_program: %s failed: %s\n", #call, cudaGetErrorString(error_)); \
            std::exit(2);                                                                                    \
        }                                                                                                    \
    } while (0)

static int work()
{
    const int count = static_cast<int>(kCopyBytes / sizeof(float));
    nvtxRangePushA("setup");
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    float* device[3];
    for (int i = 0; i < 3; ++i)
        CHECK(cudaMalloc(&device[i], kDeviceAllocationBytes[i]));
    std::vector<float> pageable(count, 1.0f);
    float* pinned = nullptr;
    CHECK(cudaMallocHost(&pinned, kPinnedBytes));
    for (int i = 0; i < count; ++i)
        pinned[i] = 1.0f;
    nvtxRangePop();
    nvtxMarkA("start");

    for (int i = 0; i < kCopiesHtoDPageable; ++i)
        CHECK(cudaMemcpy(device[0], pageable.data(), kCopyBytes, cudaMemcpyHostToDevice));
    for (int i = 0; i < kCopiesHtoDPinned; ++i)
        CHECK(cudaMemcpyAsync(device[0], pinned, kCopyBytes, cudaMemcpyHostToDevice, stream));
    for (int i = 0; i < kMemsets; ++i)
        CHECK(cudaMemset(device[1], 0, kDeviceAllocationBytes[1]));
    for (int i = 0; i < kMemsetsAsync; ++i)
        CHECK(cudaMemsetAsync(device[2], 1, kDeviceAllocationBytes[2], stream));

    nvtxRangePushA("compute");
    const int threads = 256, blocks = (count + threads - 1) / threads;
    for (int i = 0; i < kScaleLaunches; ++i)
        scaleKernel<<<blocks, threads, 0, stream>>>(device[0], 2.0f, count);
    for (int i = 0; i < kAddLaunches; ++i)
        addKernel<<<blocks, threads, 0, stream>>>(device[0], 1.0f, count);
    CHECK(cudaGetLastError());
    nvtxRangePop();
    for (int i = 0; i < kStreamSyncs; ++i)
        CHECK(cudaStreamSynchronize(stream));

    for (int i = 0; i < kCopiesDtoD; ++i)
        CHECK(cudaMemcpyAsync(device[1], device[0], kCopyBytes, cudaMemcpyDeviceToDevice, stream));
    for (int i = 0; i < kCopiesDtoHPinned; ++i)
        CHECK(cudaMemcpyAsync(pinned, device[1], kCopyBytes, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < kCopiesDtoHPageable; ++i)
        CHECK(cudaMemcpy(pageable.data(), device[0], kCopyBytes, cudaMemcpyDeviceToHost));

    // 1 * 2^10 + 5 = 1029: the kernels really ran, in order.
    float expected = std::ldexp(1.0f, kScaleLaunches) + kAddLaunches;
    bool ok = pageable[0] == expected && pageable[count - 1] == expected && pinned[0] == expected;
    for (int i = 0; i < 3; ++i)
        CHECK(cudaFree(device[i]));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaStreamDestroy(stream));
    if (!ok) {
        std::fprintf(stderr, "capture_gpu_program: wrong result %f, expected %f\n", pageable[0], expected);
        return 3;
    }
    return 0;
}

static void CUPTIAPI ignoreCallback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) { }

int main(int argc, char** argv)
{
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--subscribe-first") {
        CUpti_SubscriberHandle subscriber;
        CUptiResult result = cuptiSubscribe(&subscriber, &ignoreCallback, nullptr);
        std::printf("capture_gpu_program: cuptiSubscribe -> %d\n", static_cast<int>(result));
    }
    std::vector<pid_t> children;
    if (mode == "--children") {
        int count = argc > 2 ? std::atoi(argv[2]) : 1;
        for (int rank = 1; rank <= count; ++rank) {
            pid_t pid = fork();
            if (pid == 0) {
                setenv("RANK", std::to_string(rank).c_str(), 1);
                execl("/proc/self/exe", argv[0], static_cast<char*>(nullptr));
                _exit(127);
            }
            children.push_back(pid);
        }
    }
    int result = work();
    for (pid_t child : children) {
        int status = 0;
        waitpid(child, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            result = 4;
    }
    if (mode == "--sleep" && argc > 2)
        sleep(static_cast<unsigned>(std::atoi(argv[2])));
    if (mode == "--fail" && result == 0)
        return kFailExitCode;
    return result;
}
