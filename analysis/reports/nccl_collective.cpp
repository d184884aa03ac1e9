// SPDX-License-Identifier: MIT
#include "analysis/reports/nccl_collective.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace placescope {

std::optional<CollectiveMessage> parseCollectiveMessage(std::string_view extraJson)
{
    if (extraJson.find("Collective name") == std::string_view::npos)
        return std::nullopt;
    // simdjson, not a DOM of maps: a job's map reads one message per collective, tens of thousands per rank, and
    // nlohmann's tree cost more than the rest of the rank's summary (issue 29's bench).
    thread_local simdjson::dom::parser parser;
    simdjson::dom::object extra;
    if (parser.parse(extraJson.data(), extraJson.size()).get_object().get(extra))
        return std::nullopt;
    std::string_view name;
    if (extra["Collective name"].get_string().get(name) || name.empty())
        return std::nullopt;
    auto integer = [&extra](std::string_view key) -> int64_t {
        int64_t value = -1;
        return extra[key].get_int64().get(value) ? -1 : value;
    };
    auto text = [&extra](std::string_view key) -> std::string {
        std::string_view value;
        return extra[key].get_string().get(value) ? std::string() : std::string(value);
    };
    CollectiveMessage message;
    message.name = std::string(name);
    message.inNelems = integer("In msg nelems");
    message.outNelems = integer("Out msg nelems");
    message.groupSize = integer("Group size");
    message.dtype = text("dtype");
    message.processGroup = text("Process Group Name");
    message.seq = integer("Seq");
    return message;
}

int64_t dtypeBytes(std::string_view dtype)
{
    // c10::toString(ScalarType) spellings, as record_param_comms writes them.
    static constexpr std::array<std::pair<std::string_view, int64_t>, 23> kSizes { {
        { "Byte", 1 },
        { "Char", 1 },
        { "Bool", 1 },
        { "QInt8", 1 },
        { "QUInt8", 1 },
        { "Float8_e5m2", 1 },
        { "Float8_e4m3fn", 1 },
        { "Float8_e5m2fnuz", 1 },
        { "Float8_e4m3fnuz", 1 },
        { "Short", 2 },
        { "Half", 2 },
        { "BFloat16", 2 },
        { "UInt16", 2 },
        { "Int", 4 },
        { "Float", 4 },
        { "QInt32", 4 },
        { "UInt32", 4 },
        { "ComplexHalf", 4 },
        { "Long", 8 },
        { "Double", 8 },
        { "UInt64", 8 },
        { "ComplexFloat", 8 },
        { "ComplexDouble", 16 },
    } };
    for (const auto& [name, bytes] : kSizes)
        if (name == dtype)
            return bytes;
    return -1;
}

std::string ncclCollectiveKind(std::string_view pytorchName)
{
    std::string key; // lower case without underscores: "_reduce_scatter_base" -> "reducescatterbase"
    for (char c : pytorchName)
        if (c != '_')
            key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto has = [&key](std::string_view part) { return key.find(part) != std::string::npos; };
    if (has("allreduce"))
        return "AllReduce";
    if (has("reducescatter"))
        return "ReduceScatter";
    if (has("allgather"))
        return "AllGather";
    if (has("alltoall"))
        return "AllToAll";
    if (has("broadcast"))
        return "Broadcast";
    if (key == "reduce")
        return "Reduce";
    return std::string(pytorchName);
}

int64_t collectiveBytes(const CollectiveMessage& message)
{
    const int64_t element = dtypeBytes(message.dtype);
    const int64_t count = std::max(message.inNelems, message.outNelems);
    if (element < 0 || message.inNelems < 0 || message.outNelems < 0)
        return -1;
    return count * element;
}

std::optional<double> busBandwidthFactor(std::string_view ncclKind, int64_t ranks)
{
    // NVIDIA/nccl-tests, doc/PERFORMANCE.md ("Bus bandwidth", "Summary"): busbw = algbw x factor, where for
    // AllReduce the factor is 2(n-1)/n, for ReduceScatter, AllGather and AlltoAll (n-1)/n, and for Broadcast and
    // Reduce 1, so that the figure compares with the hardware's link bandwidth whatever the number of ranks.
    if (ncclKind == "Broadcast" || ncclKind == "Reduce")
        return 1.0;
    const bool allReduce = ncclKind == "AllReduce";
    if (!allReduce && ncclKind != "ReduceScatter" && ncclKind != "AllGather" && ncclKind != "AllToAll")
        return std::nullopt;
    if (ranks < 1)
        return std::nullopt;
    const double n = static_cast<double>(ranks);
    return (allReduce ? 2.0 : 1.0) * (n - 1.0) / n;
}

} // namespace placescope
