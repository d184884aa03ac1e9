// SPDX-License-Identifier: MIT
#include "profiler/model/cuda_enums.h"

#include <array>
#include <iterator>

namespace placescope {
namespace {

constexpr EnumRow kMemcpyOper[] = {
    { 0, "CUDA_MEMCPY_KIND_UNKNOWN", "Unknown" },
    { 1, "CUDA_MEMCPY_KIND_HTOD", "Host-to-Device" },
    { 2, "CUDA_MEMCPY_KIND_DTOH", "Device-to-Host" },
    { 3, "CUDA_MEMCPY_KIND_HTOA", "Host-to-Array" },
    { 4, "CUDA_MEMCPY_KIND_ATOH", "Array-to-Host" },
    { 5, "CUDA_MEMCPY_KIND_ATOA", "Array-to-Array" },
    { 6, "CUDA_MEMCPY_KIND_ATOD", "Array-to-Device" },
    { 7, "CUDA_MEMCPY_KIND_DTOA", "Device-to-Array" },
    { 8, "CUDA_MEMCPY_KIND_DTOD", "Device-to-Device" },
    { 9, "CUDA_MEMCPY_KIND_HTOH", "Host-to-Host" },
    { 10, "CUDA_MEMCPY_KIND_PTOP", "Peer-to-Peer" },
    { 11, "CUDA_MEMCPY_KIND_UVM_HTOD", "Unified Host-to-Device" },
    { 12, "CUDA_MEMCPY_KIND_UVM_DTOH", "Unified Device-to-Host" },
    { 13, "CUDA_MEMCPY_KIND_UVM_DTOD", "Unified Device-to-Device" },
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
    { 2, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", "Stream wait sync" },
    { 3, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", "Stream sync" },
    { 4, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", "Context sync" },
};

constexpr EnumRow kStreamType[] = {
    { 0, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN", "Unknown stream type" },
    { 1, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT", "Default stream" },
    { 2, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING", "Non-blocking stream" },
    { 3, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL", "Null stream" },
};

// nsys writes the symbol as the label too. Only the NVTX rows, the ones our rows use.
constexpr EnumRow kNsysEventType[] = {
    { 33, "NvtxCategory", "NvtxCategory" },
    { 34, "NvtxMark", "NvtxMark" },
    { 39, "NvtxThread", "NvtxThread" },
    { 59, "NvtxPushPopRange", "NvtxPushPopRange" },
    { 60, "NvtxStartEndRange", "NvtxStartEndRange" },
    { 75, "NvtxDomainCreate", "NvtxDomainCreate" },
    { 76, "NvtxDomainDestroy", "NvtxDomainDestroy" },
};

// eventClass of CUPTI_ACTIVITY_KIND_RUNTIME and OSRT_API: the rows our API calls and OS runtime calls use.
constexpr EnumRow kNsysEventClass[] = {
    { 0, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", "CUDA runtime" },
    { 1, "TRACE_PROCESS_EVENT_CUDA_DRIVER", "CUDA driver" },
    { 27, "TRACE_PROCESS_EVENT_OS_RUNTIME", "OSRT runtime" },
};

constexpr EnumRow kKernelLaunchType[] = {
    { 0, "CUDA_KERNEL_LAUNCH_TYPE_UNKNOWN", "Unknown" },
    { 1, "CUDA_KERNEL_LAUNCH_TYPE_REGULAR", "Regular" },
    { 2, "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE", "Coop Single Device" },
    { 3, "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE", "Coop Multi Device" },
};

constexpr EnumRow kFuncCacheConfig[] = {
    { 0, "CU_FUNC_CACHE_PREFER_NONE", "None" },
    { 1, "CU_FUNC_CACHE_PREFER_SHARED", "Shared" },
    { 2, "CU_FUNC_CACHE_PREFER_L1", "L1" },
    { 3, "CU_FUNC_CACHE_PREFER_EQUAL", "Equal" },
};

constexpr EnumRow kSharedMemLimitConfig[] = {
    { 0, "CUDA_SHARED_MEM_LIMIT_DEFAULT", "Default" },
    { 1, "CUDA_SHARED_MEM_LIMIT_OPTIN", "Opt in" },
};

constexpr EnumRow kUnifiedMemMigration[] = {
    { 0, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_UNKNOWN", "Unknown" },
    { 1, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_USER", "User prefetch" },
    { 2, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE", "Page fault" },
    { 3, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH", "Speculative prefecth" }, // nsys's spelling
    { 4, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION", "Eviction" },
    { 5, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS", "Access counters" },
};

constexpr EnumRow kDiagnosticSeverity[] = {
    { 0, "UnknownLevel", "Unknown" },
    { 1, "Info", "Info" },
    { 2, "Warning", "Warning" },
    { 3, "Error", "Error" },
    { 4, "Verbose", "Verbose" },
};

constexpr EnumRow kDiagnosticSource[] = {
    { 0, "UnknownSource", "Unknown source" },
    { 1, "Injection", "Injection" },
    { 2, "Daemon", "Daemon" },
    { 3, "Analysis", "Analysis" },
};

constexpr EnumRow kDiagnosticTimestamp[] = {
    { 0, "UnknownTimestamp", "Unknown timestamp" },
    { 1, "TargetTimestamp", "Target timestamp" },
    { 2, "HostTimestamp", "Host timestamp" },
};

constexpr EnumTable kTables[] = {
    { "ENUM_CUDA_MEMCPY_OPER", kMemcpyOper, static_cast<int>(std::size(kMemcpyOper)) },
    { "ENUM_CUDA_MEM_KIND", kMemKind, static_cast<int>(std::size(kMemKind)) },
    { "ENUM_CUDA_DEV_MEM_EVENT_OPER", kDevMemEventOper, static_cast<int>(std::size(kDevMemEventOper)) },
    { "ENUM_CUPTI_SYNC_TYPE", kSyncType, static_cast<int>(std::size(kSyncType)) },
    { "ENUM_CUPTI_STREAM_TYPE", kStreamType, static_cast<int>(std::size(kStreamType)) },
    { "ENUM_NSYS_EVENT_TYPE", kNsysEventType, static_cast<int>(std::size(kNsysEventType)) },
    { "ENUM_NSYS_EVENT_CLASS", kNsysEventClass, static_cast<int>(std::size(kNsysEventClass)) },
    { "ENUM_CUDA_KERNEL_LAUNCH_TYPE", kKernelLaunchType, static_cast<int>(std::size(kKernelLaunchType)) },
    { "ENUM_CUDA_FUNC_CACHE_CONFIG", kFuncCacheConfig, static_cast<int>(std::size(kFuncCacheConfig)) },
    { "ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG", kSharedMemLimitConfig, static_cast<int>(std::size(kSharedMemLimitConfig)) },
    { "ENUM_CUDA_UNIF_MEM_MIGRATION", kUnifiedMemMigration, static_cast<int>(std::size(kUnifiedMemMigration)) },
    { "ENUM_DIAGNOSTIC_SEVERITY_LEVEL", kDiagnosticSeverity, static_cast<int>(std::size(kDiagnosticSeverity)) },
    { "ENUM_DIAGNOSTIC_SOURCE_TYPE", kDiagnosticSource, static_cast<int>(std::size(kDiagnosticSource)) },
    { "ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE", kDiagnosticTimestamp, static_cast<int>(std::size(kDiagnosticTimestamp)) },
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
