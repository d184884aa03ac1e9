// SPDX-License-Identifier: MIT
#include "placement/cost/capability_table.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace placescope {
namespace {

CapabilityTable table(const std::string& framework)
{
    auto result = CapabilityTable::forFramework(framework);
    EXPECT_TRUE(result.isOk()) << result.status().message();
    return result.isOk() ? result.value() : CapabilityTable {};
}

TEST(CapabilityTable, EveryEmbeddedTableParses)
{
    for (const char* framework : { "torch", "tf", "ort" }) {
        CapabilityTable t = table(framework);
        EXPECT_EQ(t.framework(), framework);
        EXPECT_TRUE(t.lookup("Conv").known) << framework;
    }
}

TEST(CapabilityTable, TensorFlowCpuPoolingAndConvAcceptNhwcOnly)
{
    CapabilityTable tf = table("tf");
    const std::vector<DataLayout> nhwcOnly = { DataLayout::Nhwc };
    for (const char* op : { "MaxPool", "AvgPool", "AveragePool", "Conv2DBackpropFilter", "Conv" }) {
        OpCapability cap = tf.lookup(op);
        ASSERT_TRUE(cap.known) << op;
        EXPECT_EQ(cap.cpuLayouts, nhwcOnly) << op;
        EXPECT_NE(std::find(cap.gpuLayouts.begin(), cap.gpuLayouts.end(), DataLayout::Nchw), cap.gpuLayouts.end())
            << op;
        EXPECT_TRUE(cap.layoutSensitive) << op;
        EXPECT_TRUE(cap.cpuKernel && cap.gpuKernel) << op;
    }
    EXPECT_NE(tf.lookup("MaxPool").note.find("Default MaxPoolingOp only supports NHWC on device type CPU"),
        std::string::npos);
}

TEST(CapabilityTable, ImageDecodeAndEncodeHaveNoGpuKernelAnywhere)
{
    for (const char* framework : { "torch", "tf", "ort" }) {
        CapabilityTable t = table(framework);
        for (const char* op : { "DecodeImage", "EncodeImage" }) {
            OpCapability cap = t.lookup(op);
            EXPECT_TRUE(cap.known) << framework << " " << op;
            EXPECT_FALSE(cap.gpuKernel) << framework << " " << op;
            EXPECT_TRUE(cap.cpuKernel) << framework << " " << op;
        }
    }
    EXPECT_FALSE(table("tf").lookup("DecodeJpeg").gpuKernel);
}

TEST(CapabilityTable, NonMaxSuppressionHistoryAndOrtFallbacks)
{
    OpCapability nms = table("tf").lookup("NonMaxSuppressionV3");
    EXPECT_TRUE(nms.known);
    EXPECT_TRUE(nms.gpuKernel); // TF 2.x
    EXPECT_NE(nms.note.find("1.14"), std::string::npos);
    EXPECT_TRUE(table("ort").lookup("NonMaxSuppression").gpuKernel);
    EXPECT_TRUE(table("torch").lookup("torchvision::nms").gpuKernel);

    CapabilityTable ort = table("ort");
    OpCapability pad = ort.lookup("Pad");
    EXPECT_TRUE(pad.gpuKernelFor("float32"));
    EXPECT_FALSE(pad.gpuKernelFor("int64"));
    EXPECT_TRUE(pad.gpuKernelFor("")); // unknown dtype: trust the table
    EXPECT_FALSE(ort.lookup("LessOrEqual").gpuKernel);
    EXPECT_EQ(ort.lookup("Conv").cpuLayouts, std::vector<DataLayout> { DataLayout::Nchw });
}

TEST(CapabilityTable, TorchAnswersAtenNames)
{
    CapabilityTable torch = table("torch");
    for (const char* op : { "aten::conv2d", "aten::max_pool2d", "aten::batch_norm" }) {
        OpCapability cap = torch.lookup(op);
        EXPECT_TRUE(cap.known) << op;
        EXPECT_TRUE(cap.layoutSensitive) << op;
        EXPECT_TRUE(cap.cpuLayouts.empty() && cap.gpuLayouts.empty()) << op; // channels_last on both
    }
    EXPECT_FALSE(torch.lookup("aten::relu").layoutSensitive);
}

TEST(CapabilityTable, UnknownOpIsAllowedEverywhere)
{
    OpCapability cap = table("torch").lookup("MyVendorOp");
    EXPECT_FALSE(cap.known);
    EXPECT_TRUE(cap.cpuKernel);
    EXPECT_TRUE(cap.gpuKernel);
    EXPECT_TRUE(cap.cpuLayouts.empty());
}

TEST(CapabilityTable, AliasNeverHidesAKey)
{
    auto t = CapabilityTable::fromJson("x", R"({"ops": {"A": {"gpu": false, "aliases": ["B"]}, "B": {"cpu": false}}})");
    ASSERT_TRUE(t.isOk()) << t.status().message();
    EXPECT_FALSE(t->lookup("B").cpuKernel);
    EXPECT_TRUE(t->lookup("B").gpuKernel);
}

TEST(CapabilityTable, ErrorsAreOneLine)
{
    auto expectOneLineError = [](const Status& status, const std::string& mentions) {
        EXPECT_FALSE(status.isOk());
        EXPECT_EQ(status.message().find('\n'), std::string::npos) << status.message();
        EXPECT_NE(status.message().find(mentions), std::string::npos) << status.message();
    };
    expectOneLineError(CapabilityTable::forFramework("jax").status(), "jax");
    expectOneLineError(CapabilityTable::fromJson("tf", "{\"ops\": {").status(), "not valid JSON");
    expectOneLineError(CapabilityTable::fromJson("tf", "[1, 2]").status(), "\"ops\"");
    expectOneLineError(
        CapabilityTable::fromJson("tf", R"({"ops": {"MaxPool": {"cpu_layouts": ["NCWH"]}}})").status(), "NCWH");
    expectOneLineError(
        CapabilityTable::fromJson("tf", R"({"ops": {"X": {"cpu": false, "gpu": false}}})").status(), "'X'");
    expectOneLineError(CapabilityTable::fromJson("tf", R"({"ops": {"X": {"cpu": "yes"}}})").status(), "malformed");
}

} // namespace
} // namespace placescope
