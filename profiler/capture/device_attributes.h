// SPDX-License-Identifier: MIT
// What nsys writes in TARGET_INFO_GPU beyond CUPTI's device record, read from the CUDA driver's device attributes
// (cuDeviceGetAttribute, the values cudaGetDeviceProperties reports): the PCI location, integrated or discrete,
// constant memory and the opt-in shared memory per block. readDeviceAttributes asks the driver through CuptiApi
// (so tests hand their own values); addDeviceAttributes is the pure mapping onto the row.
//
// Not filled, because no public CUDA or CUPTI call reports them: chipName ("GA100"), revision, and smMajor/smMinor
// (an A100's nsys export has 8.2 there beside compute capability 8.0, so copying the compute capability would be
// wrong). They stay NULL in a capture.
#pragma once

#include "profiler/capture/cupti_api.h"
#include "profiler/model/trace_events.h"

namespace placescope::capture {

// One device's driver attributes; empty where the driver did not answer.
struct DeviceAttributes
{
    OptInt pciDomainId, pciBusId, pciDeviceId;
    OptInt integrated; // 1: shares memory with the host (Jetson, Grace Hopper's iGPU mode)
    OptInt totalConstantMemory; // bytes
    OptInt maxSharedMemoryPerBlockOptin; // bytes
};

// Asks the driver about the device with CUDA ordinal `device` (CUpti_ActivityDevice5::id).
DeviceAttributes readDeviceAttributes(CuptiApi& api, uint32_t device);

// Fills busLocation (nsys's "0000:c1:00.0"), isDiscrete, constantMemory and maxShmemPerBlockOptin.
void addDeviceAttributes(GpuInfo& gpu, const DeviceAttributes& attributes);

} // namespace placescope::capture
