// SPDX-License-Identifier: MIT
// Pure conversions from CUDA 13 CUPTI activity records to Placescope's event records (profiler/model), with
// CUPTI's enum ids translated to nsys's (profiler/model/cuda_enums.h) and timestamps moved to the host clock.
// The record layouts are the latest ones CUPTI 13.0 emits: Kernel10, Memcpy6, MemcpyPtoP4, Memset4, Memory4,
// API, Synchronization2, ExternalCorrelation, Overhead3, Device5.
//
// Stateless and thread-safe.
#pragma once

#include "profiler/model/trace_events.h"

#include <cupti.h>

#include <string>

namespace placescope::capture {

// What a conversion needs besides the record.
struct ConversionContext
{
    int64_t globalPid = 0; // the traced process, for device-side records
    int64_t clockOffsetNs = 0; // host clock = CUPTI timestamp + offset
};

// The kernel's mangled name is returned in demangledName; the caller demangles (it caches names).
KernelEvent kernelEvent(const CUpti_ActivityKernel10& record, const ConversionContext& context);
MemcpyEvent memcpyEvent(const CUpti_ActivityMemcpy6& record, const ConversionContext& context);
MemcpyEvent peerMemcpyEvent(const CUpti_ActivityMemcpyPtoP4& record, const ConversionContext& context);
MemsetEvent memsetEvent(const CUpti_ActivityMemset4& record, const ConversionContext& context);
GpuMemoryEvent gpuMemoryEvent(const CUpti_ActivityMemory4& record, const ConversionContext& context);
// The API name (cuptiGetCallbackName) is filled in by the caller.
RuntimeEvent apiEvent(const CUpti_ActivityAPI& record, const ConversionContext& context);
SyncEvent syncEvent(const CUpti_ActivitySynchronization2& record, const ConversionContext& context);
ExternalCorrelation externalCorrelation(
    const CUpti_ActivityExternalCorrelation& record, const ConversionContext& context);
OverheadEvent overheadEvent(const CUpti_ActivityOverhead3& record, const ConversionContext& context);
// The columns CUPTI's device record has; device_attributes.h adds the driver's.
GpuInfo gpuInfo(const CUpti_ActivityDevice5& record);

// "CUPTI buffer flush", "CUPTI instrumentation"... for PROFILER_OVERHEAD.
std::string overheadKindName(CUpti_ActivityOverheadKind kind);
// "1a2b3c4d-...": the form nsys writes in TARGET_INFO_GPU.uuid (nvidia-smi prints it after "GPU-").
std::string uuidText(const CUuuid& uuid);
// Itanium-ABI demangling of a kernel name; the input when it is not a mangled name.
std::string demangleKernelName(const char* mangled);

} // namespace placescope::capture
