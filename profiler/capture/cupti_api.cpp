// SPDX-License-Identifier: MIT
#include "profiler/capture/cupti_api.h"

namespace placescope::capture {

CUptiResult RealCuptiApi::version(uint32_t* version) { return cuptiGetVersion(version); }

CUptiResult RealCuptiApi::subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void* userData)
{
    return cuptiSubscribe(subscriber, callback, userData);
}

CUptiResult RealCuptiApi::unsubscribe(CUpti_SubscriberHandle subscriber) { return cuptiUnsubscribe(subscriber); }

CUptiResult RealCuptiApi::enableCallback(CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain,
                                         CUpti_CallbackId cbid)
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

std::string cuptiResultName(CUptiResult result)
{
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text)
        text = "CUPTI error";
    return std::string(text) + " (" + std::to_string(static_cast<int>(result)) + ")";
}

} // namespace placescope::capture
