// SPDX-License-Identifier: MIT
#include "analysis/trace/kernel_class.h"

#include "profiler/base/name_pattern.h"

namespace placescope {
namespace {

// A fixed class pattern, case-insensitive, through the one matcher (RE2): every GPU op's name is classified, often
// several times per command, and std::regex's backtracking took most of a diff of a trace with 50,000 kernels.
NamePattern classPattern(const char* pattern) { return *NamePattern::compile(std::string("(?i)") + pattern); }

} // namespace

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
    static const NamePattern kComm = classPattern(
        R"(nccl|rccl|msccl|allreduce|all_reduce|allgather|all_gather|reducescatter|reduce_scatter|alltoall|all_to_all)");
    return kComm.search(name);
}

namespace {

// cuDNN's convolution kernels: fprop/dgrad/wgrad engines, implicit GEMM convolutions, Winograd, and the
// single-precision scudnn kernels, whose names often say nothing else (volta_scudnn_128x64_relu_interior_nn_v1).
// "convert" is a type conversion, not a convolution.
bool isConvolutionKernel(const std::string& name)
{
    static const NamePattern kConv
        = classPattern(R"(conv($|[^e]|e$|e[^r]|er$|er[^t])|wgrad|dgrad|fprop|implicit_convolve|winograd|scudnn)");
    return kConv.search(name);
}

bool isGemmKernel(const std::string& name)
{
    static const NamePattern kGemm = classPattern(R"(gemm|xmma|cutlass)");
    return kGemm.search(name);
}

bool isNormalizationKernel(const std::string& name)
{
    static const NamePattern kNorm
        = classPattern(R"(batch_?norm|layer_?norm|group_?norm|instance_?norm|rms_?norm|\bbn_(fw|bw)|_bn_)");
    return kNorm.search(name);
}

bool isElementwiseKernel(const std::string& name)
{
    static const NamePattern kElementwise = classPattern(R"(elementwise)");
    return kElementwise.search(name);
}

} // namespace

bool isMatrixKernel(const std::string& name) { return isConvolutionKernel(name) || isGemmKernel(name); }

LayoutConversionKind layoutConversionKind(const std::string& name)
{
    static const NamePattern kCudnn = classPattern(R"(nchwToNhwc|nhwcToNchw|nchw2nhwc|nhwc2nchw)");
    static const NamePattern kReformat = classPattern(R"(reformat)");
    static const NamePattern kTranspose = classPattern(R"(transpose)");
    if (kCudnn.search(name))
        return LayoutConversionKind::Cudnn;
    if (kReformat.search(name))
        return LayoutConversionKind::Reformat;
    if (kTranspose.search(name) && !isMatrixKernel(name))
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
