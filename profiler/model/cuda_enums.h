// SPDX-License-Identifier: MIT
// CUDA enums as stored in the trace: nsys's ids, with translations from CUPTI's ids and from the names
// PyTorch's profiler writes ('Memcpy HtoD (Pageable -> Device)').
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace placescope {

// ENUM_CUDA_MEMCPY_OPER ids (0-10 equal CUPTI's CUpti_ActivityMemcpyKind).
enum class CopyKind : int64_t
{
    Unknown = 0,
    HtoD = 1,
    DtoH = 2,
    HtoA = 3,
    AtoH = 4,
    AtoA = 5,
    AtoD = 6,
    DtoA = 7,
    DtoD = 8,
    HtoH = 9,
    PtoP = 10
};

// ENUM_CUDA_MEM_KIND ids (nsys): CUPTI's CUpti_ActivityMemoryKind minus one, with CUPTI's UNKNOWN (0) -> 7.
enum class MemKind : int64_t
{
    Pageable = 0,
    Pinned = 1,
    Device = 2,
    Array = 3,
    Managed = 4,
    DeviceStatic = 5,
    ManagedStatic = 6,
    Unknown = 7
};

inline int64_t memKindFromCupti(int64_t cuptiMemoryKind)
{
    return cuptiMemoryKind <= 0 || cuptiMemoryKind > 7 ? static_cast<int64_t>(MemKind::Unknown) : cuptiMemoryKind - 1;
}

// ENUM_CUDA_DEV_MEM_EVENT_OPER ids (nsys): 0 allocation, 1 deallocation. CUPTI: 1 ALLOCATION, 2 RELEASE.
inline int64_t memoryOperationFromCupti(int64_t cuptiOperation) { return cuptiOperation == 2 ? 1 : 0; }

std::optional<CopyKind> copyKindFromShortName(std::string_view name); // "HtoD", "DtoH", "PtoP"...
std::optional<MemKind> memKindFromLabel(std::string_view label); // "Pageable", "Pinned", "Device"...
std::string_view copyKindShortName(CopyKind kind);
std::string_view memKindLabel(MemKind kind);

// The rows of the ENUM_* tables written into every trace: {id, name, label}.
struct EnumRow
{
    int64_t id;
    const char* name;
    const char* label;
};
struct EnumTable
{
    const char* table;
    const EnumRow* rows;
    int count;
};
// All enum tables of the schema, for TraceWriter.
const EnumTable* enumTables(int* count);

} // namespace placescope
