// SPDX-License-Identifier: MIT
// One source of GPU facts (analysis/trace/gpu_facts.h): compute capability by name (longest marker wins), the host
// link and its figures from resources/placement/devices.json, and agreement with the cost model's device table for
// every GPU row it has (its PCIe link and that link's figures), so the findings, the what-if `pinned` edit and the
// placement engine cannot quote two figures for one GPU again (the pageable-copy rule's 25 GB/s against the table's
// 24 GB/s before).
#include "analysis/trace/gpu_facts.h"
#include "placement/cost/device_table.h"
#include "placement/proposal/layout_facts.h"

#include <gtest/gtest.h>

namespace placescope {
namespace {

TEST(GpuFacts, ComputeCapabilityAndLinkByName)
{
    const GpuFacts a100 = gpuFactsFor("NVIDIA A100-SXM4-40GB");
    EXPECT_TRUE(a100.known);
    EXPECT_EQ(a100.marker, "A100"); // not "A10"
    EXPECT_DOUBLE_EQ(a100.computeCapability, 8.0);
    EXPECT_EQ(a100.hostLink.key, "gen4_x16");
    EXPECT_DOUBLE_EQ(a100.hostLink.pinnedGBps, 24.0);
    EXPECT_EQ(gpuFactsFor("NVIDIA GH200 480GB").marker, "GH200");
    EXPECT_DOUBLE_EQ(gpuFactsFor("NVIDIA H100 80GB HBM3").hostLink.pinnedGBps, 50.0);
    EXPECT_DOUBLE_EQ(gpuFactsFor("nvidia l40s").computeCapability, 8.9); // case does not matter
    EXPECT_EQ(gpuFactsFor("Tesla V100-SXM2-16GB").hostLink.key, "gen3_x16");
    const GpuFacts unknown = gpuFactsFor("GeForce GTX 1080");
    EXPECT_FALSE(unknown.known);
    EXPECT_DOUBLE_EQ(unknown.computeCapability, 0.0);
    EXPECT_EQ(unknown.hostLink.key, "gen4_x16");
    EXPECT_GT(unknown.hostLink.pinnedGBps, 0.0);
    EXPECT_FALSE(hostLinkFacts("gen9_x1").isOk());
    // The layout pass reads the same table.
    EXPECT_DOUBLE_EQ(computeCapabilityFromName("NVIDIA A10"), gpuFactsFor("NVIDIA A10").computeCapability);
}

TEST(GpuFacts, AgreeWithTheDeviceTable)
{
    auto table = DeviceTable::builtin();
    ASSERT_TRUE(table.isOk()) << table.status().message();
    int gpus = 0;
    for (const std::string& key : table->deviceKeys()) {
        const DeviceSpec spec = table->device(key).value();
        if (!spec.isGpu)
            continue;
        ++gpus;
        const GpuFacts facts = gpuFactsFor(spec.name);
        EXPECT_TRUE(facts.known) << spec.name;
        EXPECT_EQ(facts.hostLink.key, spec.pcie) << spec.name;
        const LinkSpec link = table->link(spec.pcie).value();
        EXPECT_DOUBLE_EQ(facts.hostLink.pinnedGBps, link.pinnedGBps) << spec.name;
        EXPECT_DOUBLE_EQ(facts.hostLink.pageableGBps, link.pageableGBps) << spec.name;
        EXPECT_DOUBLE_EQ(facts.hostLink.pinnedLatencyUs, link.pinnedLatencyUs) << spec.name;
    }
    EXPECT_GE(gpus, 5);
}

} // namespace
} // namespace placescope
