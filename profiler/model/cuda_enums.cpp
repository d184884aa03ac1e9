// SPDX-License-Identifier: MIT
#include "profiler/model/cuda_enums.h"

#include <array>
#include <iterator>

namespace placescope {
namespace {

constexpr EnumRow kMemcpyOper[] = {
    { 0, "CUDA_MEMCPY_OPER_UNKNOWN", "Unknown" },
    { 1, "CUDA_MEMCPY_OPER_HTOD", "Host-to-Device" },
    { 2, "CUDA_MEMCPY_OPER_DTOH", "Device-to-Host" },
    { 3, "CUDA_MEMCPY_OPER_HTOA", "Host-to-Array" },
    { 4, "CUDA_MEMCPY_OPER_ATOH", "Array-to-Host" },
    { 5, "CUDA_MEMCPY_OPER_ATOA", "Array-to-Array" },
    { 6, "CUDA_MEMCPY_OPER_ATOD", "Array-to-Device" },
    { 7, "CUDA_MEMCPY_OPER_DTOA", "Device-to-Array" },
    { 8, "CUDA_MEMCPY_OPER_DTOD", "Device-to-Device" },
    { 9, "CUDA_MEMCPY_OPER_HTOH", "Host-to-Host" },
    { 10, "CUDA_MEMCPY_OPER_PTOP", "Peer-to-Peer" },
    { 11, "CUDA_MEMCPY_OPER_UVM_HTOD", "Unified Host-to-Device" },
    { 12, "CUDA_MEMCPY_OPER_UVM_DTOH", "Unified Device-to-Host" },
    { 13, "CUDA_MEMCPY_OPER_UVM_DTOD", "Unified Device-to-Device" },
};

constexpr EnumRow kMemKind[] = {
    { 0, "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", "Pageable" },
    { 1, "CUDA_MEMOPR_MEMORY_KIND_PINNED", "Pinned" },
    { 2, "CUDA_MEMOPR_MEMORY_KIND_DEVICE", "Device" },
    { 3, "CUDA_MEMOPR_MEMORY_KIND_ARRAY", "Array" },
    { 4, "CUDA_MEMOPR_MEMORY_KIND_MANAGED", "Managed" },
    { 5, "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC", "Device Static" },
    { 6, "CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", "Managed Static" },
    { 7, "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN", "Unknown" },
};

constexpr EnumRow kDevMemEventOper[] = {
    { 0, "CUDA_DEV_MEM_EVENT_OPR_ALLOCATION", "Allocation" },
    { 1, "CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION", "Deallocation" },
};

constexpr EnumRow kSyncType[] = {
    { 0, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", "Unknown" },
    { 1, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE", "Event sync" },
    { 2, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", "Stream wait event" },
    { 3, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", "Stream sync" },
    { 4, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", "Context sync" },
};

constexpr EnumRow kNsysEventType[] = {
    { 33, "NvtxCategory", "NVTX category" },
    { 34, "NvtxMark", "NVTX mark" },
    { 39, "NvtxThread", "NVTX thread" },
    { 59, "NvtxPushPopRange", "NVTX push/pop range" },
    { 60, "NvtxStartEndRange", "NVTX start/end range" },
    { 75, "NvtxDomainCreate", "NVTX domain create" },
    { 76, "NvtxDomainDestroy", "NVTX domain destroy" },
};

constexpr EnumTable kTables[] = {
    { "ENUM_CUDA_MEMCPY_OPER", kMemcpyOper, static_cast<int>(std::size(kMemcpyOper)) },
    { "ENUM_CUDA_MEM_KIND", kMemKind, static_cast<int>(std::size(kMemKind)) },
    { "ENUM_CUDA_DEV_MEM_EVENT_OPER", kDevMemEventOper, static_cast<int>(std::size(kDevMemEventOper)) },
    { "ENUM_CUPTI_SYNC_TYPE", kSyncType, static_cast<int>(std::size(kSyncType)) },
    { "ENUM_NSYS_EVENT_TYPE", kNsysEventType, static_cast<int>(std::size(kNsysEventType)) },
};

constexpr std::array<std::string_view, 11> kCopyShortNames
    = { "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP" };

} // namespace

std::optional<CopyKind> copyKindFromShortName(std::string_view name)
{
    for (size_t i = 1; i < kCopyShortNames.size(); ++i)
        if (kCopyShortNames[i] == name)
            return static_cast<CopyKind>(i);
    return std::nullopt;
}

std::optional<MemKind> memKindFromLabel(std::string_view label)
{
    for (const EnumRow& row : kMemKind)
        if (label == row.label)
            return static_cast<MemKind>(row.id);
    return std::nullopt;
}

std::string_view copyKindShortName(CopyKind kind)
{
    auto index = static_cast<size_t>(kind);
    return index < kCopyShortNames.size() ? kCopyShortNames[index] : "Unknown";
}

std::string_view memKindLabel(MemKind kind)
{
    auto index = static_cast<size_t>(kind);
    return index < std::size(kMemKind) ? kMemKind[index].label : "Unknown";
}

const EnumTable* enumTables(int* count)
{
    *count = static_cast<int>(std::size(kTables));
    return kTables;
}

} // namespace placescope
