// SPDX-License-Identifier: MIT
#include "analysis/job/job_folder.h"

#include "analysis/job/rank_summary.h"
#include "analysis/job/summarize_rank.h"
#include "profiler/base/output_file.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace placescope {

namespace fs = std::filesystem;

std::string rankTraceName(int64_t rank) { return "ranks/rank-" + std::to_string(rank) + ".sqlite"; }
std::string rankSummaryName(int64_t rank) { return "ranks/rank-" + std::to_string(rank) + ".summary.json"; }
std::string jobManifestPath(const std::string& folder) { return (fs::path(folder) / "job.json").string(); }

Status writeJobManifest(const std::string& folder, const JobManifest& manifest)
{
    nlohmann::ordered_json out;
    out["format"] = "placescope-job";
    out["version"] = 1;
    out["world_size"] = manifest.worldSize;
    nlohmann::ordered_json& ranks = out["ranks"] = nlohmann::ordered_json::array();
    for (const JobManifestRank& r : manifest.ranks)
        ranks.push_back({ { "rank", r.rank }, { "input", r.input }, { "trace", r.trace }, { "summary", r.summary } });
    nlohmann::ordered_json& failed = out["failed"] = nlohmann::ordered_json::array();
    for (const JobFailure& f : manifest.failed)
        failed.push_back({ { "input", f.input }, { "error", f.error } });
    out["missing"] = manifest.missing;
    return writeFileAtomically(
        jobManifestPath(folder), out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

Result<JobManifest> readJobManifest(const std::string& folder)
{
    const std::string path = jobManifestPath(folder);
    // A job folder (or its job.json) the user may not read is said as such, not as "not a job folder".
    if (::access(path.c_str(), R_OK) != 0 && errno != ENOENT && errno != ENOTDIR)
        return Status::error("cannot read " + path + ": " + std::strerror(errno));
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return Status::error(folder + " is not a job folder (no job.json; make one with placescope job import)");
    std::stringstream text;
    text << file.rdbuf();
    const nlohmann::json in = nlohmann::json::parse(text.str(), nullptr, false);
    if (!in.is_object() || in.value("format", "") != "placescope-job")
        return Status::error(path + " is not a Placescope job manifest");
    try {
        JobManifest manifest;
        manifest.worldSize = in.at("world_size").get<int64_t>();
        for (const auto& r : in.at("ranks"))
            manifest.ranks.push_back({ r.at("rank").get<int64_t>(), r.at("input").get<std::string>(),
                r.at("trace").get<std::string>(), r.at("summary").get<std::string>() });
        for (const auto& f : in.at("failed"))
            manifest.failed.push_back({ f.at("input").get<std::string>(), f.at("error").get<std::string>() });
        manifest.missing = in.at("missing").get<std::vector<int64_t>>();
        return manifest;
    } catch (const nlohmann::json::exception& error) {
        return Status::error(path + ": malformed job manifest: " + error.what());
    }
}

std::vector<std::string> failureLines(const JobManifest& manifest)
{
    std::vector<std::string> lines;
    for (const JobFailure& f : manifest.failed)
        lines.push_back(f.input + ": " + f.error);
    return lines;
}

std::vector<std::string> summaryPaths(const std::string& folder, const JobManifest& manifest)
{
    std::vector<std::string> paths;
    for (const JobManifestRank& r : manifest.ranks)
        paths.push_back((fs::path(folder) / r.summary).string());
    return paths;
}

Result<int64_t> mapRank(const std::string& input, const std::string& folder)
{
    const fs::path ranks = fs::path(folder) / "ranks";
    std::error_code error;
    fs::create_directories(ranks, error);
    if (error)
        return Status::error("cannot create " + ranks.string() + ": " + error.message());
    // The rank is known only once the trace is read: import under a name of this process's own, then rename.
    static std::atomic<int> counter { 0 };
    const fs::path incoming
        = ranks / (".incoming-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".sqlite");
    ImportOptions options;
    auto imported = importTraces({ input }, incoming.string(), options);
    if (!imported.isOk())
        return imported.status();
    struct RemoveUnlessKept
    {
        fs::path path;
        ~RemoveUnlessKept()
        {
            std::error_code ignored;
            if (!path.empty())
                fs::remove(path, ignored);
        }
    } cleanup { incoming };
    Result<RankSummary> summary = [&]() -> Result<RankSummary> {
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, openTrace(incoming.string()));
        return summarizeRank(db);
    }();
    if (!summary.isOk())
        return summary.status();
    summary->input = input;
    summary->trace = rankTraceName(summary->rank);
    const fs::path trace = fs::path(folder) / summary->trace;
    fs::rename(incoming, trace, error);
    if (error)
        return Status::error("cannot move the trace to " + trace.string() + ": " + error.message());
    cleanup.path.clear();
    PLACESCOPE_RETURN_IF_ERROR(
        writeFileAtomically((fs::path(folder) / rankSummaryName(summary->rank)).string(), rankSummaryToJson(*summary)));
    return summary->rank;
}

Result<JobManifest> collectJob(const std::string& folder, const std::vector<std::pair<std::string, int64_t>>& mapped,
    std::vector<JobFailure> failed)
{
    JobManifest manifest;
    manifest.failed = std::move(failed);
    std::map<int64_t, std::string> inputOfRank;
    for (const auto& [input, rank] : mapped) {
        if (auto [it, inserted] = inputOfRank.emplace(rank, input); !inserted)
            return Status::error("rank " + std::to_string(rank) + " is in two inputs: " + it->second + " and " + input);
    }
    for (const auto& [rank, input] : inputOfRank) {
        PLACESCOPE_ASSIGN_OR_RETURN(
            RankSummary summary, readRankSummary((fs::path(folder) / rankSummaryName(rank)).string()));
        manifest.worldSize = std::max(manifest.worldSize, summary.worldSize);
        manifest.ranks.push_back({ rank, input, rankTraceName(rank), rankSummaryName(rank) });
    }
    for (int64_t r = 0; r < manifest.worldSize; ++r)
        if (!inputOfRank.count(r))
            manifest.missing.push_back(r);
    std::sort(manifest.failed.begin(), manifest.failed.end(),
        [](const JobFailure& a, const JobFailure& b) { return a.input < b.input; });
    PLACESCOPE_RETURN_IF_ERROR(writeJobManifest(folder, manifest));
    return manifest;
}

} // namespace placescope
