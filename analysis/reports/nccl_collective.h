// SPDX-License-Identifier: MIT
// What the collectives report needs to know about one NCCL collective: the message PyTorch recorded for it (the
// record_param_comms arguments the Kineto importer keeps in PS_FRAMEWORK_OPS.extra), its size in bytes, and NCCL's
// bus bandwidth factor for its kind, so "Bus GB/s" means what nccl-tests' busbw column means.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace placescope {

// {"Collective name": "allreduce", "In msg nelems": 2049000, "Out msg nelems": 2049000, "Group size": 2,
//  "dtype": "Float", ...}: the fields the report reads; -1 / empty where the trace did not say.
struct CollectiveMessage
{
    std::string name; // PyTorch's collective name: "allreduce", "_allgather_base", "all_to_all", ...
    int64_t inNelems = -1;
    int64_t outNelems = -1;
    int64_t groupSize = -1; // ranks in the process group
    std::string dtype; // c10 ScalarType name: "Float", "BFloat16", "Long", ...
    std::string processGroup; // "Process Group Name" ("0", "1", ...); empty in older traces
    int64_t seq = -1; // "Seq": the collective's sequence number in its group; -1 in older traces
};

// The message in a PS_FRAMEWORK_OPS.extra object; none when it names no collective or is not JSON.
std::optional<CollectiveMessage> parseCollectiveMessage(std::string_view extraJson);

// Bytes per element of a c10 ScalarType name, -1 when unknown.
int64_t dtypeBytes(std::string_view dtype);

// The NCCL spelling of a PyTorch collective name ("_reduce_scatter_base" -> "ReduceScatter", "all_to_all" ->
// "AllToAll", "allreduce_coalesced" -> "AllReduce"), as NCCL's kernel names spell the kinds; the name unchanged when
// it is none of NCCL's collectives (send, recv, gather, barrier).
std::string ncclCollectiveKind(std::string_view pytorchName);

// The collective's size S as nccl-tests counts it: the whole array, which is the larger of the input and the output
// (all-gather: out = n x in; reduce-scatter: in = n x out; the others: in = out). -1 when a count or dtype is unknown.
int64_t collectiveBytes(const CollectiveMessage& message);

// busbw = algbw x factor (nccl-tests doc/PERFORMANCE.md, "Summary"), for the kinds that page documents: AllReduce
// 2(n-1)/n, ReduceScatter, AllGather and AllToAll (n-1)/n, Broadcast and Reduce 1. None for other kinds, or when n
// is needed and unknown (< 1).
std::optional<double> busBandwidthFactor(std::string_view ncclKind, int64_t ranks);

} // namespace placescope
