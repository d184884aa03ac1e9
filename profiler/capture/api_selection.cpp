// SPDX-License-Identifier: MIT
#include "profiler/capture/api_selection.h"

#include "profiler/capture/capture_config.h"

namespace placescope::capture {

const std::vector<CUpti_CallbackId>& quietRuntimeCalls()
{
    static const std::vector<CUpti_CallbackId> calls = {
        CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorString_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorName_v6050,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v10010,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v10010,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_v11030,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_ptsz_v11030,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v12030,
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v12030,
        CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000,
        CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetAttributes_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaPointerGetAttributes_v4000,
        CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveClusters_v11070,
    };
    return calls;
}

const std::vector<CUpti_CallbackId>& workDriverCalls()
{
    static const std::vector<CUpti_CallbackId> calls = {
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync,
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2,
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2,
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2,
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync,
        CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async,
        CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async,
        CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async,
        CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2,
        CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2,
        CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync,
        CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync,
        CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuMemCreate, // expandable segments (VMM): cuMemCreate/Map/Unmap/Release
        CUPTI_DRIVER_TRACE_CBID_cuMemMap,
        CUPTI_DRIVER_TRACE_CBID_cuMemUnmap,
        CUPTI_DRIVER_TRACE_CBID_cuMemRelease,
    };
    return calls;
}

void applyApiSelection(CuptiApi& api, uint32_t kinds)
{
    if (!(kinds & kKindRuntime))
        return;
    for (CUpti_CallbackId cbid : quietRuntimeCalls())
        (void)api.enableRuntimeApi(cbid, false);
    if (!(kinds & kKindDriver))
        for (CUpti_CallbackId cbid : workDriverCalls())
            (void)api.enableDriverApi(cbid, true);
}

} // namespace placescope::capture
