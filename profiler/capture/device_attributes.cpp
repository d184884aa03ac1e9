// SPDX-License-Identifier: MIT
#include "profiler/capture/device_attributes.h"

#include <cstdio>

namespace placescope::capture {

DeviceAttributes readDeviceAttributes(CuptiApi& api, uint32_t device)
{
    auto ask = [&](CUdevice_attribute attribute) -> OptInt {
        int value = 0;
        if (!api.deviceAttribute(device, attribute, &value))
            return std::nullopt;
        return value;
    };
    DeviceAttributes a;
    a.pciDomainId = ask(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
    a.pciBusId = ask(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
    a.pciDeviceId = ask(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
    a.integrated = ask(CU_DEVICE_ATTRIBUTE_INTEGRATED);
    a.totalConstantMemory = ask(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
    a.maxSharedMemoryPerBlockOptin = ask(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    return a;
}

void addDeviceAttributes(GpuInfo& gpu, const DeviceAttributes& a)
{
    if (a.pciDomainId && a.pciBusId && a.pciDeviceId) {
        // domain:bus:device.function in lower-case hex, as nsys (and nvidia-smi, without its 8-digit domain) print it.
        char text[32];
        std::snprintf(text, sizeof text, "%04llx:%02llx:%02llx.0", static_cast<unsigned long long>(*a.pciDomainId),
            static_cast<unsigned long long>(*a.pciBusId), static_cast<unsigned long long>(*a.pciDeviceId));
        gpu.busLocation = text;
    }
    if (a.integrated)
        gpu.isDiscrete = *a.integrated ? 0 : 1;
    gpu.constantMemory = a.totalConstantMemory;
    gpu.maxShmemPerBlockOptin = a.maxSharedMemoryPerBlockOptin;
}

} // namespace placescope::capture
