// SPDX-License-Identifier: MIT
#include "placement/engine/problem_file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace placescope {
namespace {

using Json = nlohmann::json;

Result<int> deviceIndex(const OpGraph& graph, const std::string& name, const std::string& context)
{
    for (size_t i = 0; i < graph.devices.size(); ++i)
        if (graph.devices[i].name == name)
            return static_cast<int>(i);
    return Status::error(context + " names a missing device '" + name + "'");
}

// The largest byte count a problem may give (1 PB): sums of many such counts still fit int64, which 1.5e30 or
// 2^64-1 would not (the objective went negative or wrapped).
constexpr double kMaxBytes = 1e15;
// The largest time in microseconds (about 11.6 days for one op or transfer).
constexpr double kMaxMicroseconds = 1e12;

// A value as written, short enough for a one-line message.
std::string numberText(const Json& value)
{
    std::string text = value.dump();
    return text.size() > 40 ? text.substr(0, 40) + "..." : text;
}

// `object[key]` as a byte count: a whole number from 0 to kMaxBytes; `fallback` when the key is absent.
Result<int64_t> byteCount(const Json& object, const char* key, int64_t fallback, const std::string& what)
{
    if (!object.contains(key) || object[key].is_null())
        return fallback;
    const Json& value = object[key];
    const std::string field = what + " " + key;
    if (!value.is_number())
        return Status::error(field + " is " + numberText(value) + ", not a number");
    const std::string range = "; expected a whole number of bytes from 0 to 1e15";
    if (value.is_number_unsigned()) {
        const uint64_t number = value.get<uint64_t>();
        if (static_cast<double>(number) > kMaxBytes)
            return Status::error(field + " is " + numberText(value) + range);
        return static_cast<int64_t>(number);
    }
    if (value.is_number_integer() ? value.get<int64_t>() < 0 : !(value.get<double>() >= 0))
        return Status::error(field + " is " + numberText(value) + "; a byte count cannot be negative");
    const double number = value.get<double>();
    if (number > kMaxBytes || number != std::floor(number))
        return Status::error(field + " is " + numberText(value) + range);
    return static_cast<int64_t>(number);
}

// A time in microseconds: a number from 0 to kMaxMicroseconds.
Result<double> microseconds(const Json& value, const std::string& field)
{
    if (!value.is_number())
        return Status::error(field + " is " + numberText(value) + ", not a number");
    const double number = value.get<double>();
    if (!(number >= 0) || number > kMaxMicroseconds)
        return Status::error(field + " is " + numberText(value) + "; expected microseconds from 0 to 1e12");
    return number;
}

Result<OpGraph> fromJson(const Json& root)
{
    OpGraph graph;
    if (!root.is_object() || !root.contains("devices") || !root["devices"].is_array())
        return Status::error("the problem has no \"devices\" array");
    for (const Json& d : root["devices"]) {
        PlacementDevice device;
        device.name = d.at("name").get<std::string>();
        std::string kind = d.value("kind", "cpu");
        if (kind != "cpu" && kind != "gpu")
            return Status::error("device '" + device.name + "' has kind '" + kind + "' (expected cpu or gpu)");
        device.kind = kind == "gpu" ? DeviceKind::Gpu : DeviceKind::Cpu;
        PLACESCOPE_ASSIGN_OR_RETURN(
            device.memoryBytes, byteCount(d, "memory_bytes", 0, "device '" + device.name + "'"));
        for (const PlacementDevice& other : graph.devices)
            if (other.name == device.name)
                return Status::error(
                    "device name '" + device.name + "' appears twice; each device needs a name of its own");
        graph.devices.push_back(device);
    }
    for (const Json& l : root.value("links", Json::array())) {
        PlacementLink link;
        PLACESCOPE_ASSIGN_OR_RETURN(link.from, deviceIndex(graph, l.at("from").get<std::string>(), "a link"));
        PLACESCOPE_ASSIGN_OR_RETURN(link.to, deviceIndex(graph, l.at("to").get<std::string>(), "a link"));
        const std::string what = "link " + graph.devices[link.from].name + " -> " + graph.devices[link.to].name;
        if (l.contains("latency_us")) {
            PLACESCOPE_ASSIGN_OR_RETURN(link.latencyUs, microseconds(l["latency_us"], what + " latency_us"));
        }
        link.bandwidthGBps = 1.0;
        if (l.contains("bandwidth_gbps")) {
            const Json& bandwidth = l["bandwidth_gbps"];
            if (!bandwidth.is_number() || !(bandwidth.get<double>() > 0) || bandwidth.get<double>() > 1e9)
                return Status::error(what + " bandwidth_gbps is " + numberText(bandwidth)
                    + "; expected a positive number of GB/s (at most 1e9)");
            link.bandwidthGBps = bandwidth.get<double>();
        }
        graph.links.push_back(link);
        if (l.value("bidirectional", true))
            graph.links.push_back({ link.to, link.from, link.latencyUs, link.bandwidthGBps });
    }
    if (!root.contains("ops") || !root["ops"].is_array())
        return Status::error("the problem has no \"ops\" array");
    std::unordered_map<std::string, int> opIndex;
    for (const Json& o : root["ops"]) {
        PlacementOp op;
        op.id = o.at("id").get<std::string>();
        op.type = o.value("type", "");
        op.costUs.assign(graph.devices.size(), kNoKernel);
        for (const auto& [name, cost] : o.at("cost_us").items()) {
            PLACESCOPE_ASSIGN_OR_RETURN(int d, deviceIndex(graph, name, "op '" + op.id + "' cost"));
            if (cost.is_null()) {
                op.costUs[d] = kNoKernel;
            } else {
                PLACESCOPE_ASSIGN_OR_RETURN(op.costUs[d], microseconds(cost, "op '" + op.id + "' cost_us." + name));
            }
        }
        if (o.contains("pin")) {
            PLACESCOPE_ASSIGN_OR_RETURN(
                int d, deviceIndex(graph, o["pin"].get<std::string>(), "op '" + op.id + "' pin"));
            op.pin = d;
        }
        PLACESCOPE_ASSIGN_OR_RETURN(op.memoryBytes, byteCount(o, "memory_bytes", 0, "op '" + op.id + "'"));
        if (!opIndex.emplace(op.id, static_cast<int>(graph.ops.size())).second)
            return Status::error("op id '" + op.id + "' appears twice");
        graph.ops.push_back(std::move(op));
    }
    for (const Json& e : root.value("edges", Json::array())) {
        PlacementEdge edge;
        auto from = opIndex.find(e.at("from").get<std::string>());
        auto to = opIndex.find(e.at("to").get<std::string>());
        if (from == opIndex.end() || to == opIndex.end())
            return Status::error("an edge names a missing op ('" + e.at("from").get<std::string>() + "' -> '"
                + e.at("to").get<std::string>() + "')");
        edge.from = from->second;
        edge.to = to->second;
        PLACESCOPE_ASSIGN_OR_RETURN(edge.bytes,
            byteCount(e, "bytes", 0, "edge '" + graph.ops[edge.from].id + "' -> '" + graph.ops[edge.to].id + "'"));
        graph.edges.push_back(edge);
    }
    return graph;
}

} // namespace

Result<OpGraph> parsePlacementProblem(const std::string& text)
{
    try {
        Json root = Json::parse(text);
        return fromJson(root);
    } catch (const Json::exception& error) {
        std::string message = error.what();
        return Status::error("bad placement problem JSON: " + message);
    }
}

Result<OpGraph> loadPlacementProblem(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Status::error("cannot open problem file '" + path + "'");
    std::stringstream buffer;
    buffer << in.rdbuf();
    auto graph = parsePlacementProblem(buffer.str());
    if (!graph.isOk())
        return Status::error(path + ": " + graph.status().message());
    return graph;
}

std::string proposalToJson(const OpGraph& graph, const Proposal& proposal, Objective objective)
{
    Json root;
    root["objective"] = objective == Objective::Sum ? "sum" : "makespan";
    root["objective_us"] = proposal.objectiveUs;
    root["lower_bound_us"] = proposal.lowerBoundUs;
    root["exact"] = proposal.exact;
    root["total_us"] = proposal.timeline.sumUs;
    root["makespan_us"] = proposal.timeline.makespanUs;
    root["transferred_bytes"] = proposal.timeline.transferredBytes;
    root["transfer_count"] = proposal.timeline.transferCount;
    root["transfer_us"] = proposal.timeline.transferUs;
    Json assignment = Json::object();
    for (size_t i = 0; i < graph.ops.size(); ++i)
        assignment[graph.ops[i].id] = graph.devices[proposal.assignment[i]].name;
    root["assignment"] = assignment;
    Json peak = Json::object();
    Json limit = Json::object();
    for (size_t d = 0; d < graph.devices.size(); ++d) {
        peak[graph.devices[d].name] = proposal.timeline.peakMemoryBytes[d];
        limit[graph.devices[d].name] = graph.devices[d].memoryBytes;
    }
    root["peak_memory_bytes"] = peak;
    root["memory_limit_bytes"] = limit;
    Json order = Json::array();
    for (int op : proposal.order)
        order.push_back(graph.ops[op].id);
    root["order"] = order;
    root["notes"] = proposal.notes;
    return root.dump(2);
}

} // namespace placescope
