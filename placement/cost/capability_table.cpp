// SPDX-License-Identifier: MIT
#include "placement/cost/capability_table.h"

#include "placement/cost/capabilities_ort_json.h"
#include "placement/cost/capabilities_tf_json.h"
#include "placement/cost/capabilities_torch_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace placescope {
namespace {

using Json = nlohmann::json;

Result<std::vector<DataLayout>> parseLayouts(const Json& entry, const char* key, const std::string& op)
{
    std::vector<DataLayout> layouts;
    if (!entry.contains(key))
        return layouts;
    if (!entry[key].is_array())
        return Status::error("op '" + op + "': \"" + key + "\" is not an array");
    for (const Json& item : entry[key]) {
        std::string name = item.is_string() ? item.get<std::string>() : std::string();
        if (name == "NCHW")
            layouts.push_back(DataLayout::Nchw);
        else if (name == "NHWC")
            layouts.push_back(DataLayout::Nhwc);
        else
            return Status::error("op '" + op + "': layout '" + (item.is_string() ? name : item.dump()) + "' in \"" + key
                + "\" is not NCHW or NHWC");
    }
    return layouts;
}

Result<OpCapability> parseOp(const std::string& op, const Json& entry)
{
    if (!entry.is_object())
        return Status::error("op '" + op + "' is not a JSON object");
    OpCapability cap;
    cap.known = true;
    // Missing fields mean "has the kernel": most ops have both, so entries list only the exceptions.
    cap.cpuKernel = entry.value("cpu", true);
    cap.gpuKernel = entry.value("gpu", true);
    PLACESCOPE_ASSIGN_OR_RETURN(cap.cpuLayouts, parseLayouts(entry, "cpu_layouts", op));
    PLACESCOPE_ASSIGN_OR_RETURN(cap.gpuLayouts, parseLayouts(entry, "gpu_layouts", op));
    cap.layoutSensitive = entry.value("layout_sensitive", false);
    if (entry.contains("gpu_dtypes"))
        cap.gpuDtypes = entry["gpu_dtypes"].get<std::vector<std::string>>();
    cap.note = entry.value("note", std::string());
    if (!cap.cpuKernel && !cap.gpuKernel)
        return Status::error("op '" + op + "' has neither a CPU nor a GPU kernel");
    return cap;
}

} // namespace

bool OpCapability::gpuKernelFor(const std::string& dtype) const
{
    if (!gpuKernel)
        return false;
    if (gpuDtypes.empty() || dtype.empty())
        return true;
    return std::find(gpuDtypes.begin(), gpuDtypes.end(), dtype) != gpuDtypes.end();
}

Result<CapabilityTable> CapabilityTable::forFramework(const std::string& framework)
{
    if (framework == "torch")
        return fromJson(framework, kCapabilitiesTorchJson);
    if (framework == "tf")
        return fromJson(framework, kCapabilitiesTfJson);
    if (framework == "ort")
        return fromJson(framework, kCapabilitiesOrtJson);
    return Status::error("unknown framework '" + framework + "' (expected torch, tf or ort)");
}

Result<CapabilityTable> CapabilityTable::fromJson(const std::string& framework, const std::string& jsonText)
{
    Json root = Json::parse(jsonText, nullptr, /*allow_exceptions=*/false);
    if (root.is_discarded())
        return Status::error("the " + framework + " capability table is not valid JSON");
    if (!root.is_object() || !root.contains("ops") || !root["ops"].is_object())
        return Status::error("the " + framework + " capability table has no \"ops\" object");
    CapabilityTable table;
    table.m_framework = framework;
    try {
        // Keys first, then aliases, so an alias never hides an op listed under its own name.
        for (const auto& [op, entry] : root["ops"].items()) {
            auto cap = parseOp(op, entry);
            if (!cap)
                return Status::error("the " + framework + " capability table: " + cap.status().message());
            table.m_ops[op] = *cap;
        }
        for (const auto& [op, entry] : root["ops"].items()) {
            if (!entry.contains("aliases"))
                continue;
            for (const Json& alias : entry["aliases"])
                table.m_ops.try_emplace(alias.get<std::string>(), table.m_ops[op]);
        }
    } catch (const nlohmann::json::exception& e) {
        // A field of the wrong type (a number where a string belongs): the library says which.
        return Status::error("the " + framework + " capability table has a malformed entry: " + e.what());
    }
    return table;
}

OpCapability CapabilityTable::lookup(const std::string& opType) const
{
    auto it = m_ops.find(opType);
    if (it != m_ops.end())
        return it->second;
    return OpCapability {};
}

} // namespace placescope
