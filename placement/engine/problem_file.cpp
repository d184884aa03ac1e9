// SPDX-License-Identifier: MIT
#include "placement/engine/problem_file.h"

#include <nlohmann/json.hpp>

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
        device.memoryBytes = d.value("memory_bytes", int64_t(0));
        graph.devices.push_back(device);
    }
    for (const Json& l : root.value("links", Json::array())) {
        PlacementLink link;
        PLACESCOPE_ASSIGN_OR_RETURN(link.from, deviceIndex(graph, l.at("from").get<std::string>(), "a link"));
        PLACESCOPE_ASSIGN_OR_RETURN(link.to, deviceIndex(graph, l.at("to").get<std::string>(), "a link"));
        link.latencyUs = l.value("latency_us", 0.0);
        link.bandwidthGBps = l.value("bandwidth_gbps", 1.0);
        if (link.bandwidthGBps <= 0)
            return Status::error("a link has a bandwidth that is not positive");
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
            op.costUs[d] = cost.is_null() ? kNoKernel : cost.get<double>();
        }
        if (o.contains("pin")) {
            PLACESCOPE_ASSIGN_OR_RETURN(int d, deviceIndex(graph, o["pin"].get<std::string>(), "op '" + op.id + "' pin"));
            op.pin = d;
        }
        op.memoryBytes = o.value("memory_bytes", int64_t(0));
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
        edge.bytes = e.value("bytes", int64_t(0));
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
