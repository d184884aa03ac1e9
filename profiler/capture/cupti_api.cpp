// SPDX-License-Identifier: MIT
#include "profiler/capture/cupti_api.h"

#include <dlfcn.h>

namespace placescope::capture {

CUptiResult RealCuptiApi::version(uint32_t* version) { return cuptiGetVersion(version); }

CUptiResult RealCuptiApi::subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void* userData)
{
    return cuptiSubscribe(subscriber, callback, userData);
}

CUptiResult RealCuptiApi::unsubscribe(CUpti_SubscriberHandle subscriber) { return cuptiUnsubscribe(subscriber); }

CUptiResult RealCuptiApi::enableCallback(
    CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    return cuptiEnableCallback(1, subscriber, domain, cbid);
}

CUptiResult RealCuptiApi::setThreadIdTypeSystem() { return cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM); }

CUptiResult RealCuptiApi::registerCallbacks(BufferRequestedFn requested, BufferCompletedFn completed)
{
    return cuptiActivityRegisterCallbacks(requested, completed);
}

CUptiResult RealCuptiApi::enable(CUpti_ActivityKind kind) { return cuptiActivityEnable(kind); }
CUptiResult RealCuptiApi::enableRuntimeApi(CUpti_CallbackId cbid, bool enable)
{
    return cuptiActivityEnableRuntimeApi(cbid, enable ? 1 : 0);
}
CUptiResult RealCuptiApi::enableDriverApi(CUpti_CallbackId cbid, bool enable)
{
    return cuptiActivityEnableDriverApi(cbid, enable ? 1 : 0);
}
CUptiResult RealCuptiApi::disable(CUpti_ActivityKind kind) { return cuptiActivityDisable(kind); }
CUptiResult RealCuptiApi::flushAll(uint32_t flag) { return cuptiActivityFlushAll(flag); }
CUptiResult RealCuptiApi::droppedRecords(CUcontext context, uint32_t streamId, size_t* dropped)
{
    return cuptiActivityGetNumDroppedRecords(context, streamId, dropped);
}
CUptiResult RealCuptiApi::timestamp(uint64_t* timestampNs) { return cuptiGetTimestamp(timestampNs); }

CUptiResult RealCuptiApi::nextRecord(uint8_t* buffer, size_t validSize, CUpti_Activity** record)
{
    return cuptiActivityGetNextRecord(buffer, validSize, record);
}

std::string RealCuptiApi::callbackName(CUpti_CallbackDomain domain, uint32_t cbid)
{
    const char* name = nullptr;
    if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || !name)
        return {};
    return name;
}

bool RealCuptiApi::deviceAttribute(uint32_t device, CUdevice_attribute attribute, int* value)
{
    // CUPTI runs on the driver the program loaded, so it is there when device records arrive. RTLD_NOLOAD takes
    // that copy (however the program's CUDA runtime opened it) and never brings a driver into a process without one.
    // Looked up once; the handle is kept for the life of the process, as the driver is.
    struct Driver
    {
        CUresult(CUDAAPI* deviceGet)(CUdevice*, int) = nullptr;
        CUresult(CUDAAPI* getAttribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
    };
    static const Driver driver = [] {
        Driver d;
        if (void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
            d.deviceGet = reinterpret_cast<decltype(d.deviceGet)>(dlsym(library, "cuDeviceGet"));
            d.getAttribute = reinterpret_cast<decltype(d.getAttribute)>(dlsym(library, "cuDeviceGetAttribute"));
        }
        return d;
    }();
    CUdevice handle = 0;
    return driver.deviceGet && driver.getAttribute
        && driver.deviceGet(&handle, static_cast<int>(device)) == CUDA_SUCCESS
        && driver.getAttribute(value, attribute, handle) == CUDA_SUCCESS;
}

std::string cuptiResultName(CUptiResult result)
{
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text)
        text = "CUPTI error";
    return std::string(text) + " (" + std::to_string(static_cast<int>(result)) + ")";
}

} // namespace placescope::capture
