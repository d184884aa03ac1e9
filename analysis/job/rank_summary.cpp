// SPDX-License-Identifier: MIT
#include "analysis/job/rank_summary.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace placescope {

std::string rankSummaryToJson(const RankSummary& summary)
{
    nlohmann::ordered_json out;
    out["format"] = "placescope-rank-summary";
    out["version"] = 1;
    out["rank"] = summary.rank;
    out["world_size"] = summary.worldSize;
    out["hostname"] = summary.hostname;
    out["input"] = summary.input;
    out["trace"] = summary.trace;
    nlohmann::ordered_json& steps = out["steps"] = nlohmann::ordered_json::array();
    for (const RankStep& s : summary.steps)
        steps.push_back(
            { { "step", s.step }, { "start_ns", s.startNs }, { "end_ns", s.endNs }, { "compute_ns", s.computeNs },
                { "communication_ns", s.communicationNs }, { "copy_ns", s.copyNs }, { "idle_ns", s.idleNs } });
    nlohmann::ordered_json& collectives = out["collectives"] = nlohmann::ordered_json::array();
    for (const RankCollective& c : summary.collectives)
        collectives.push_back(
            { { "group", c.group }, { "seq", c.seq }, { "kind", c.kind }, { "step", c.step }, { "start_ns", c.startNs },
                { "duration_ns", c.durationNs }, { "bytes", c.bytes }, { "group_size", c.groupSize } });
    nlohmann::ordered_json& kernels = out["kernels"] = nlohmann::ordered_json::array();
    for (const KernelDurations& k : summary.kernels)
        kernels.push_back({ { "name", k.name }, { "durations", k.durations } });
    return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<RankSummary> rankSummaryFromJson(const std::string& text)
{
    const nlohmann::json in = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!in.is_object() || in.value("format", "") != "placescope-rank-summary")
        return Status::error("not a Placescope rank summary");
    try {
        RankSummary summary;
        summary.rank = in.at("rank").get<int64_t>();
        summary.worldSize = in.at("world_size").get<int64_t>();
        summary.hostname = in.at("hostname").get<std::string>();
        summary.input = in.at("input").get<std::string>();
        summary.trace = in.at("trace").get<std::string>();
        for (const auto& s : in.at("steps"))
            summary.steps.push_back(
                { s.at("step").get<int64_t>(), s.at("start_ns").get<int64_t>(), s.at("end_ns").get<int64_t>(),
                    s.at("compute_ns").get<int64_t>(), s.at("communication_ns").get<int64_t>(),
                    s.at("copy_ns").get<int64_t>(), s.at("idle_ns").get<int64_t>() });
        for (const auto& c : in.at("collectives"))
            summary.collectives.push_back({ c.at("group").get<std::string>(), c.at("seq").get<int64_t>(),
                c.at("kind").get<std::string>(), c.at("step").get<int64_t>(), c.at("start_ns").get<int64_t>(),
                c.at("duration_ns").get<int64_t>(), c.at("bytes").get<int64_t>(), c.at("group_size").get<int64_t>() });
        for (const auto& k : in.at("kernels"))
            summary.kernels.push_back(
                { k.at("name").get<std::string>(), k.at("durations").get<std::vector<std::pair<int64_t, int64_t>>>() });
        return summary;
    } catch (const nlohmann::json::exception& error) {
        return Status::error(std::string("malformed rank summary: ") + error.what());
    }
}

Result<RankSummary> readRankSummary(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return Status::error("cannot read " + path);
    std::stringstream text;
    text << file.rdbuf();
    auto summary = rankSummaryFromJson(text.str());
    if (!summary.isOk())
        return Status::error(path + ": " + summary.status().message());
    return summary;
}

} // namespace placescope
