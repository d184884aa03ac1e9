// SPDX-License-Identifier: MIT
#include "placement/cost/roofline.h"

#include <gtest/gtest.h>

namespace placescope {
namespace {

DeviceSpec spec(const std::string& key)
{
    auto table = DeviceTable::builtin();
    EXPECT_TRUE(table.isOk()) << table.status().message();
    auto device = table->device(key);
    EXPECT_TRUE(device.isOk()) << device.status().message();
    return device.isOk() ? device.value() : DeviceSpec {};
}

OpWork computeWork(double flops, double bytes, bool tensorCores = false)
{
    OpWork work;
    work.kind = WorkKind::Compute;
    work.flops = flops;
    work.bytes = bytes;
    work.tensorCoreEligible = tensorCores;
    return work;
}

TEST(Roofline, DeviceTableHasTheListedDevicesWithPlausibleFigures)
{
    for (const char* key : { "h100", "a100", "v100", "l4", "t4", "rtx4090" }) {
        DeviceSpec gpu = spec(key);
        EXPECT_TRUE(gpu.isGpu) << key;
        EXPECT_GT(gpu.tensorFp16FlopsPerSecond, gpu.fp32FlopsPerSecond) << key;
        EXPECT_GT(gpu.memoryBytes, int64_t(8) << 30) << key;
    }
    DeviceSpec host = spec("host");
    EXPECT_FALSE(host.isGpu);
    EXPECT_LT(host.fp32FlopsPerSecond, spec("t4").fp32FlopsPerSecond);
}

TEST(Roofline, PicksComputeOrMemoryBound)
{
    DeviceSpec h100 = spec("h100");
    // A ResNet-like 3x3 conv: ~10 GFLOP over ~30 MB -> arithmetic intensity far above the ridge point.
    OpWork conv = computeWork(10e9, 30e6);
    EXPECT_TRUE(isComputeBound(conv, h100));
    EXPECT_NEAR(rooflineUs(conv, h100), 10e9 / h100.fp32FlopsPerSecond * 1e6 + h100.launchOverheadUs, 1e-9);
    // Relu: 1 FLOP per 8 bytes -> memory-bound.
    OpWork relu = computeWork(1e6, 8e6);
    EXPECT_FALSE(isComputeBound(relu, h100));
    EXPECT_NEAR(rooflineUs(relu, h100), 8e6 / h100.memoryBytesPerSecond * 1e6 + h100.launchOverheadUs, 1e-9);
}

TEST(Roofline, TensorCoresOnlyForEligibleOps)
{
    DeviceSpec a100 = spec("a100");
    double fp32 = rooflineUs(computeWork(100e9, 1e6, false), a100);
    double fp16 = rooflineUs(computeWork(100e9, 1e6, true), a100);
    EXPECT_NEAR((fp32 - a100.launchOverheadUs) / (fp16 - a100.launchOverheadUs),
        a100.tensorFp16FlopsPerSecond / a100.fp32FlopsPerSecond, 1e-6);
    // The host has no tensor unit: the same time either way.
    DeviceSpec host = spec("host");
    EXPECT_DOUBLE_EQ(rooflineUs(computeWork(1e9, 1e3, true), host), rooflineUs(computeWork(1e9, 1e3, false), host));
}

TEST(Roofline, ViewsAreFreeAndTransposesAreMemoryBound)
{
    OpWork view;
    view.kind = WorkKind::View;
    view.bytes = 1e9;
    EXPECT_EQ(rooflineUs(view, spec("v100")), 0);
    DeviceSpec v100 = spec("v100");
    EXPECT_NEAR(
        transposeUs(900'000'000, v100), 2.0 * 900e6 / v100.memoryBytesPerSecond * 1e6 + v100.launchOverheadUs, 1e-6);
}

TEST(Roofline, CalibrationUsesTheMedianRatioAndMeasuredValues)
{
    Calibration c = Calibration::fromPairs({ { 20, 10 }, { 30, 10 }, { 100, 10 }, { -1, 10 }, { 5, 0 } });
    EXPECT_EQ(c.samples, 3);
    EXPECT_DOUBLE_EQ(c.scale, 3.0);
    EXPECT_FALSE(c.clamped);
    EXPECT_DOUBLE_EQ(c.costUs(42, 1000), 42); // measured wins
    EXPECT_DOUBLE_EQ(c.costUs(-1, 7), 21); // estimate scaled

    Calibration even = Calibration::fromPairs({ { 2, 1 }, { 4, 1 } });
    EXPECT_DOUBLE_EQ(even.scale, 3.0);

    Calibration wild = Calibration::fromPairs({ { 1000, 1 } });
    EXPECT_DOUBLE_EQ(wild.scale, Calibration::kMaxScale);
    EXPECT_TRUE(wild.clamped);
    EXPECT_DOUBLE_EQ(Calibration::fromPairs({ { 1, 1000 } }).scale, Calibration::kMinScale);
    EXPECT_DOUBLE_EQ(Calibration::fromPairs({}).scale, 1.0);
}

} // namespace
} // namespace placescope
