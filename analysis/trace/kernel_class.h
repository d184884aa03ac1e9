// SPDX-License-Identifier: MIT
// What a GPU op is, by its kind and its kernel's name: the one classification the rules (communication for the device
// timeline, GEMM/convolution for Tensor Cores, layout conversions), the reports, the what-if replay and the diff's
// prediction error per class share. Names follow the libraries' conventions (cuBLAS/cuDNN/CUTLASS, NCCL/RCCL,
// PyTorch's at::native kernels), so a class is a reading of the name, not of the kernel's code: a kernel whose name
// says nothing lands in "other kernels".
#pragma once

#include "analysis/trace/trace_data.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace placescope {

// In the order tables list them. The first matching kernel class wins: communication, layout conversion, convolution,
// GEMM, normalization, elementwise, other.
enum class GpuWorkClass : uint8_t
{
    Gemm,
    Convolution,
    Communication,
    LayoutConversion,
    Normalization,
    Elementwise,
    OtherKernel,
    Memcpy,
    Memset,
};
inline constexpr int kGpuWorkClassCount = 9;

// "GEMM", "convolution", "communication", "layout conversion", "normalization", "elementwise", "other kernels",
// "memcpy", "memset".
std::string_view gpuWorkClassName(GpuWorkClass work);

// A kernel by its name; copies and memsets by their kind (the name is not read).
GpuWorkClass classifyGpuWork(GpuOp::Kind kind, const std::string& kernelName);
GpuWorkClass classifyKernel(const std::string& name);

// NCCL-style collective kernels (NCCL, RCCL, MSCCL and collective names).
bool isCommunicationKernel(const std::string& name);
// GEMM or convolution library kernels (cuBLAS, cuDNN, CUTLASS, xmma): the kernels Tensor Cores can run.
bool isMatrixKernel(const std::string& name);

enum class LayoutConversionKind : uint8_t
{
    None,
    Cudnn,
    Reformat,
    Transpose
};
// cuDNN's nchwToNhwc / nhwcToNchw, TensorRT Reformat, and transpose kernels that are not matrix kernels.
LayoutConversionKind layoutConversionKind(const std::string& name);

} // namespace placescope
