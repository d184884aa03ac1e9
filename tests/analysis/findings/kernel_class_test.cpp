// SPDX-License-Identifier: MIT
// The kernel classes through RE2 (they were std::regex, whose backtracking took most of a diff of two traces with
// 50,000 distinct kernel names): the same class for the names that decide between them, including the two spots
// std::regex spelled differently (the lookahead in conv(?!ert), \b), and any name, however long, answers.
#include "analysis/trace/kernel_class.h"

#include <gtest/gtest.h>

#include <string>

namespace placescope {
namespace {

TEST(KernelClass, NamesThatDecideBetweenClasses)
{
    EXPECT_EQ(classifyKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), GpuWorkClass::Communication);
    EXPECT_EQ(classifyKernel("void cudnn::ops::nchwToNhwcKernel<float>"), GpuWorkClass::LayoutConversion);
    EXPECT_EQ(classifyKernel("TRANSPOSE_kernel"), GpuWorkClass::LayoutConversion);
    EXPECT_EQ(classifyKernel("sm80_xmma_gemm_transpose_f16"), GpuWorkClass::Gemm); // a GEMM's transpose is a GEMM
    EXPECT_EQ(classifyKernel("implicit_convolve_sgemm"), GpuWorkClass::Convolution);
    EXPECT_EQ(classifyKernel("Conv2d_fprop"), GpuWorkClass::Convolution);
    EXPECT_EQ(classifyKernel("conv"), GpuWorkClass::Convolution); // "conv" at the end of the name
    EXPECT_EQ(classifyKernel("convolution_conve"), GpuWorkClass::Convolution);
    EXPECT_EQ(classifyKernel("convert_fp16_kernel"), GpuWorkClass::OtherKernel); // a type conversion
    EXPECT_EQ(classifyKernel("CONVERT_then_conv3d"), GpuWorkClass::Convolution); // a later conv counts
    EXPECT_EQ(classifyKernel("ampere_sgemm_128x64_nn"), GpuWorkClass::Gemm);
    EXPECT_EQ(classifyKernel("cudnn::bn_fw_tr_1C11_kernel_NCHW"), GpuWorkClass::Normalization); // \b before bn_
    EXPECT_EQ(classifyKernel("xbn_fw"), GpuWorkClass::OtherKernel); // no word boundary before bn_
    EXPECT_EQ(classifyKernel("vectorized_layer_norm_kernel"), GpuWorkClass::Normalization);
    EXPECT_EQ(classifyKernel("at::native::vectorized_elementwise_kernel<4>"), GpuWorkClass::Elementwise);
    EXPECT_EQ(classifyKernel("my_custom_kernel"), GpuWorkClass::OtherKernel);
    EXPECT_EQ(layoutConversionKind("op_Reformat_42"), LayoutConversionKind::Reformat);
}

TEST(KernelClass, AnyNameHoweverLongAnswers)
{
    const std::string longName = std::string(1 << 20, 'a') + "gemm";
    EXPECT_EQ(classifyKernel(longName), GpuWorkClass::Gemm);
    EXPECT_EQ(classifyKernel(std::string(1 << 20, '(')), GpuWorkClass::OtherKernel);
}

} // namespace
} // namespace placescope
