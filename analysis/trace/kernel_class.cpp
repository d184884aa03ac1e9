// SPDX-License-Identifier: MIT
#include "analysis/trace/kernel_class.h"

#include <regex>

namespace placescope {

std::string_view gpuWorkClassName(GpuWorkClass work)
{
    switch (work) {
    case GpuWorkClass::Gemm:
        return "GEMM";
    case GpuWorkClass::Convolution:
        return "convolution";
    case GpuWorkClass::Communication:
        return "communication";
    case GpuWorkClass::LayoutConversion:
        return "layout conversion";
    case GpuWorkClass::Normalization:
        return "normalization";
    case GpuWorkClass::Elementwise:
        return "elementwise";
    case GpuWorkClass::OtherKernel:
        return "other kernels";
    case GpuWorkClass::Memcpy:
        return "memcpy";
    case GpuWorkClass::Memset:
        return "memset";
    }
    return "other kernels";
}

bool isCommunicationKernel(const std::string& name)
{
    static const std::regex kComm(
        R"(nccl|rccl|msccl|allreduce|all_reduce|allgather|all_gather|reducescatter|reduce_scatter|alltoall|all_to_all)",
        std::regex::icase);
    return std::regex_search(name, kComm);
}

namespace {

// cuDNN's convolution kernels: fprop/dgrad/wgrad engines, implicit GEMM convolutions, Winograd, and the
// single-precision scudnn kernels, whose names often say nothing else (volta_scudnn_128x64_relu_interior_nn_v1).
// "convert" is a type conversion, not a convolution.
bool isConvolutionKernel(const std::string& name)
{
    static const std::regex kConv(
        R"(conv(?!ert)|wgrad|dgrad|fprop|implicit_convolve|winograd|scudnn)", std::regex::icase);
    return std::regex_search(name, kConv);
}

bool isGemmKernel(const std::string& name)
{
    static const std::regex kGemm(R"(gemm|xmma|cutlass)", std::regex::icase);
    return std::regex_search(name, kGemm);
}

bool isNormalizationKernel(const std::string& name)
{
    static const std::regex kNorm(
        R"(batch_?norm|layer_?norm|group_?norm|instance_?norm|rms_?norm|\bbn_(fw|bw)|_bn_)", std::regex::icase);
    return std::regex_search(name, kNorm);
}

bool isElementwiseKernel(const std::string& name)
{
    static const std::regex kElementwise(R"(elementwise)", std::regex::icase);
    return std::regex_search(name, kElementwise);
}

} // namespace

bool isMatrixKernel(const std::string& name) { return isConvolutionKernel(name) || isGemmKernel(name); }

LayoutConversionKind layoutConversionKind(const std::string& name)
{
    static const std::regex kCudnn(R"(nchwToNhwc|nhwcToNchw|nchw2nhwc|nhwc2nchw)", std::regex::icase);
    static const std::regex kReformat(R"(reformat)", std::regex::icase);
    static const std::regex kTranspose(R"(transpose)", std::regex::icase);
    if (std::regex_search(name, kCudnn))
        return LayoutConversionKind::Cudnn;
    if (std::regex_search(name, kReformat))
        return LayoutConversionKind::Reformat;
    if (std::regex_search(name, kTranspose) && !isMatrixKernel(name))
        return LayoutConversionKind::Transpose;
    return LayoutConversionKind::None;
}

GpuWorkClass classifyKernel(const std::string& name)
{
    if (isCommunicationKernel(name))
        return GpuWorkClass::Communication;
    if (layoutConversionKind(name) != LayoutConversionKind::None)
        return GpuWorkClass::LayoutConversion;
    if (isConvolutionKernel(name))
        return GpuWorkClass::Convolution;
    if (isGemmKernel(name))
        return GpuWorkClass::Gemm;
    if (isNormalizationKernel(name))
        return GpuWorkClass::Normalization;
    if (isElementwiseKernel(name))
        return GpuWorkClass::Elementwise;
    return GpuWorkClass::OtherKernel;
}

GpuWorkClass classifyGpuWork(GpuOp::Kind kind, const std::string& kernelName)
{
    switch (kind) {
    case GpuOp::Kind::Memcpy:
        return GpuWorkClass::Memcpy;
    case GpuOp::Kind::Memset:
        return GpuWorkClass::Memset;
    case GpuOp::Kind::Kernel:
        break;
    }
    return classifyKernel(kernelName);
}

} // namespace placescope
