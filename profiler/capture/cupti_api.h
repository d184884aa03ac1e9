// SPDX-License-Identifier: MIT
// CuptiApi: the one seam between Placescope and CUPTI. Everything above it (record translation, the tracer's
// buffers and writer thread, part files) is tested without a GPU by a test double that hands over buffers of
// real CUDA 13 activity records; RealCuptiApi forwards to libcupti.
//
// CUPTI's buffer callbacks are plain C functions without user data, so the Tracer registers static
// trampolines. Implementations must be callable from any thread.
#pragma once

#include <cupti.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace placescope::capture {

class CuptiApi
{
public:
    using BufferRequestedFn = void(CUPTIAPI*)(uint8_t** buffer, size_t* size, size_t* maxNumRecords);
    using BufferCompletedFn
        = void(CUPTIAPI*)(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t size, size_t validSize);

    virtual ~CuptiApi() = default;

    virtual CUptiResult version(uint32_t* version) = 0;
    // Takes CUPTI's one subscriber slot; fails with CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED when
    // another profiler (torch.profiler, nsys, ncu) already holds it.
    virtual CUptiResult subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void* userData) = 0;
    virtual CUptiResult unsubscribe(CUpti_SubscriberHandle subscriber) = 0;
    virtual CUptiResult enableCallback(
        CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
        = 0;
    virtual CUptiResult setThreadIdTypeSystem() = 0;
    virtual CUptiResult registerCallbacks(BufferRequestedFn requested, BufferCompletedFn completed) = 0;
    virtual CUptiResult enable(CUpti_ActivityKind kind) = 0;
    // Per-call selection inside the RUNTIME / DRIVER kinds (cuptiActivityEnableRuntimeApi/DriverApi).
    virtual CUptiResult enableRuntimeApi(CUpti_CallbackId cbid, bool enable) = 0;
    virtual CUptiResult enableDriverApi(CUpti_CallbackId cbid, bool enable) = 0;
    virtual CUptiResult disable(CUpti_ActivityKind kind) = 0;
    virtual CUptiResult flushAll(uint32_t flag) = 0;
    // Records lost since the last call because no buffer was available (CUPTI resets the counter). A null
    // context asks about the global queue.
    virtual CUptiResult droppedRecords(CUcontext context, uint32_t streamId, size_t* dropped) = 0;
    virtual CUptiResult timestamp(uint64_t* timestampNs) = 0;
    virtual CUptiResult nextRecord(uint8_t* buffer, size_t validSize, CUpti_Activity** record) = 0;
    // "cudaLaunchKernel_v7000"; empty when CUPTI does not know the id.
    virtual std::string callbackName(CUpti_CallbackDomain domain, uint32_t cbid) = 0;
    // A driver attribute (cuDeviceGetAttribute) of the device with CUDA ordinal `device`, for TARGET_INFO_GPU;
    // false where the driver cannot say (no driver loaded in this process, unknown attribute).
    virtual bool deviceAttribute(uint32_t device, CUdevice_attribute attribute, int* value) = 0;
};

// Forwards every call to libcupti.
class RealCuptiApi : public CuptiApi
{
public:
    CUptiResult version(uint32_t* version) override;
    CUptiResult subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void* userData) override;
    CUptiResult unsubscribe(CUpti_SubscriberHandle subscriber) override;
    CUptiResult enableCallback(
        CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain, CUpti_CallbackId cbid) override;
    CUptiResult setThreadIdTypeSystem() override;
    CUptiResult registerCallbacks(BufferRequestedFn requested, BufferCompletedFn completed) override;
    CUptiResult enable(CUpti_ActivityKind kind) override;
    CUptiResult enableRuntimeApi(CUpti_CallbackId cbid, bool enable) override;
    CUptiResult enableDriverApi(CUpti_CallbackId cbid, bool enable) override;
    CUptiResult disable(CUpti_ActivityKind kind) override;
    CUptiResult flushAll(uint32_t flag) override;
    CUptiResult droppedRecords(CUcontext context, uint32_t streamId, size_t* dropped) override;
    CUptiResult timestamp(uint64_t* timestampNs) override;
    CUptiResult nextRecord(uint8_t* buffer, size_t validSize, CUpti_Activity** record) override;
    std::string callbackName(CUpti_CallbackDomain domain, uint32_t cbid) override;
    // Uses the driver the traced process already loaded; never loads one.
    bool deviceAttribute(uint32_t device, CUdevice_attribute attribute, int* value) override;
};

// "CUPTI_ERROR_UNKNOWN (999)".
std::string cuptiResultName(CUptiResult result);

} // namespace placescope::capture
