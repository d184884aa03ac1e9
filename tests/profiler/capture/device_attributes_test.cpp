// SPDX-License-Identifier: MIT
// TARGET_INFO_GPU's columns from the driver's device attributes, without a GPU: the mapping of an attribute set
// onto the row, and the attributes asked of the driver through the CUPTI seam (a test double answers).
#include "cupti_records.h"
#include "profiler/capture/device_attributes.h"

#include <gtest/gtest.h>

namespace placescope::capture {
namespace {

TEST(DeviceAttributes, MapOntoNsysColumns)
{
    // An A100 SXM4 at PCI 0000:c1:00.0, as the real CloverLeaf nsys export lists its GPU 0.
    DeviceAttributes a;
    a.pciDomainId = 0;
    a.pciBusId = 0xc1;
    a.pciDeviceId = 0;
    a.integrated = 0;
    a.totalConstantMemory = 65536;
    a.maxSharedMemoryPerBlockOptin = 166912;
    GpuInfo gpu;
    addDeviceAttributes(gpu, a);
    EXPECT_EQ(gpu.busLocation, "0000:c1:00.0");
    EXPECT_EQ(gpu.isDiscrete, 1);
    EXPECT_EQ(gpu.constantMemory, 65536);
    EXPECT_EQ(gpu.maxShmemPerBlockOptin, 166912);

    // A second domain, a device number past 9 and an integrated GPU.
    a.pciDomainId = 0x10;
    a.pciBusId = 0x3;
    a.pciDeviceId = 0x1f;
    a.integrated = 1;
    addDeviceAttributes(gpu, a);
    EXPECT_EQ(gpu.busLocation, "0010:03:1f.0");
    EXPECT_EQ(gpu.isDiscrete, 0);
}

TEST(DeviceAttributes, UnknownAttributesStayUnknown)
{
    GpuInfo gpu;
    DeviceAttributes a;
    a.pciBusId = 0xc1; // domain and device unknown: no half-made location
    addDeviceAttributes(gpu, a);
    EXPECT_EQ(gpu.busLocation, "");
    EXPECT_FALSE(gpu.isDiscrete.has_value());
    EXPECT_FALSE(gpu.constantMemory.has_value());
    EXPECT_FALSE(gpu.maxShmemPerBlockOptin.has_value());
}

TEST(DeviceAttributes, AskedOfTheDriverForThatDevice)
{
    testing::FakeCuptiApi api;
    api.deviceAttributes[{ 2, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID }] = 0;
    api.deviceAttributes[{ 2, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID }] = 0x41;
    api.deviceAttributes[{ 2, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID }] = 0;
    api.deviceAttributes[{ 2, CU_DEVICE_ATTRIBUTE_INTEGRATED }] = 0;
    api.deviceAttributes[{ 2, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN }] = 232448;
    api.deviceAttributes[{ 0, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY }] = 65536; // another device's
    DeviceAttributes a = readDeviceAttributes(api, 2);
    EXPECT_EQ(a.pciBusId, 0x41);
    EXPECT_EQ(a.pciDomainId, 0);
    EXPECT_EQ(a.integrated, 0);
    EXPECT_EQ(a.maxSharedMemoryPerBlockOptin, 232448);
    EXPECT_FALSE(a.totalConstantMemory.has_value());
    EXPECT_FALSE(readDeviceAttributes(api, 5).pciBusId.has_value());
}

} // namespace
} // namespace placescope::capture
