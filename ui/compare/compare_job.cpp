// SPDX-License-Identifier: MIT
#include "ui/compare/compare_job.h"

#include "analysis/diff/run_profile.h"
#include "profiler/store/trace_file.h"
#include "whatif/replay_saving_simulator.h"

#include <algorithm>
#include <filesystem>
#include <future>
#include <optional>

namespace placescope::ui {

namespace {

Result<std::unordered_map<std::string, std::vector<uint32_t>>> kernelRows(const std::string& tracePath)
{
    std::unordered_map<std::string, std::vector<uint32_t>> rows;
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, openTrace(tracePath));
    if (!db.hasTable("CUPTI_ACTIVITY_KIND_KERNEL"))
        return rows;
    // The diff's kernel rows are keyed by demangledName's text (profiler/stats' kernel summary).
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement scan,
        db.prepare("SELECT k.rowid, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                   "JOIN StringIds s ON s.id = k.demangledName"));
    while (scan.step())
        rows[scan.columnText(1)].push_back(static_cast<uint32_t>(scan.columnInt(0)));
    PLACESCOPE_RETURN_IF_ERROR(scan.status());
    for (auto& [name, ids] : rows)
        std::sort(ids.begin(), ids.end());
    return rows;
}

// One side: the timeline's lanes, then the diff's profile of the same file.
struct OpenedSide
{
    std::shared_ptr<CompareSide> side;
    std::optional<RunProfile> profile;
    std::string error;
};

OpenedSide openSide(const std::string& input, const std::string& tempDir, bool simulate, const CancelToken* cancel)
{
    OpenedSide out;
    out.side = std::make_shared<CompareSide>();
    out.side->input = input;
    out.side->opened = openAnyTrace(input, tempDir, {}, cancel);
    if (!out.side->opened.error.empty()) {
        out.error = input + ": " + out.side->opened.error;
        return out;
    }
    // The options `placescope diff [--simulate]` runs with, so the window shows the CLI's figures.
    const ReplaySavingSimulator simulator;
    ProfileOptions options;
    if (simulate)
        options.simulator = &simulator;
    auto profile = profileRun(out.side->opened.tracePath, options);
    if (!profile.isOk()) {
        out.error = profile.status().message();
        return out;
    }
    out.side->stepStartNs = profile->stepStartNs;
    out.side->stepDurationNs = profile->stepDurationNs;
    auto rows = kernelRows(out.side->opened.tracePath);
    if (!rows.isOk()) {
        out.error = input + ": " + rows.status().message();
        return out;
    }
    out.side->kernelRowsByName = std::move(rows).value();
    out.profile = std::move(profile).value();
    return out;
}

} // namespace

CompareResult compareRuns(const std::string& before, const std::string& after, const std::string& tempDir,
    bool simulate, const CancelToken* cancel)
{
    CompareResult result;
    // Two sides on two threads, as the CLI profiles them: they share nothing but the temp folder (distinct names).
    // Each side imports into its own folder: two inputs may share a file name (run1/trace.json, run2/trace.json).
    const std::filesystem::path dirA = std::filesystem::path(tempDir) / "a",
                                dirB = std::filesystem::path(tempDir) / "b";
    std::error_code ignored;
    std::filesystem::create_directories(dirA, ignored);
    std::filesystem::create_directories(dirB, ignored);
    auto b = std::async(std::launch::async, [&] { return openSide(after, dirB.string(), simulate, cancel); });
    OpenedSide a = openSide(before, dirA.string(), simulate, cancel);
    OpenedSide bSide = b.get();
    for (const OpenedSide* side : { &a, &bSide })
        if (!side->error.empty()) {
            result.error = side->error;
            return result;
        }
    if (cancel && cancel->isCancelled()) {
        result.error = "cancelled";
        return result;
    }
    auto diff = diffRuns(*a.profile, *bSide.profile, DiffOptions {});
    if (!diff.isOk()) {
        result.error = diff.status().message();
        return result;
    }
    result.a = std::move(a.side);
    result.b = std::move(bSide.side);
    result.diff = std::make_shared<const RunDiff>(std::move(diff).value());
    return result;
}

} // namespace placescope::ui
