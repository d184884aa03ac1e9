// SPDX-License-Identifier: MIT
// What capture_gpu_program does in one process, counted exactly: the GPU capture test expects every one of
// these in the trace. Shared by the program and the test so the two cannot drift apart.
#pragma once

#include <cstdint>

namespace placescope::gpuprogram {

inline constexpr int kScaleLaunches = 10; // scaleKernel<<<...>>>
inline constexpr int kAddLaunches = 5; // addKernel<<<...>>>
inline constexpr int64_t kDeviceAllocationBytes[3] = { 1 << 20, 2 << 20, 4 << 20 }; // cudaMalloc, then cudaFree
inline constexpr int64_t kPinnedBytes = 1 << 20; // cudaMallocHost
inline constexpr int64_t kCopyBytes = 1 << 20;
inline constexpr int kCopiesHtoDPageable = 4; // cudaMemcpy from a std::vector
inline constexpr int kCopiesHtoDPinned = 3; // cudaMemcpyAsync from cudaMallocHost memory
inline constexpr int kCopiesDtoD = 2;
inline constexpr int kCopiesDtoHPinned = 2;
inline constexpr int kCopiesDtoHPageable = 1;
inline constexpr int kMemsets = 3; // cudaMemset
inline constexpr int kMemsetsAsync = 2; // cudaMemsetAsync
inline constexpr int kStreamSyncs = 2; // cudaStreamSynchronize
inline constexpr int kNvtxRanges = 2; // "setup", "compute" (push/pop)
inline constexpr int kNvtxMarks = 1; // "start"
// Exit code of `capture_gpu_program --fail`, after all the work above.
inline constexpr int kFailExitCode = 7;

} // namespace placescope::gpuprogram
