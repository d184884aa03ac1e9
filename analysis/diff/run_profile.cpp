// SPDX-License-Identifier: MIT
#include "analysis/diff/run_profile.h"

#include "profiler/store/trace_file.h"

#include <cmath>
#include <cstdlib>

namespace placescope {

namespace {

// demangledName id -> shortName text, for kernels grouped by short name. One row per distinct pair.
Result<std::unordered_map<int64_t, std::string>> shortKernelNames(SqliteDb& db, const TraceData& trace)
{
    std::unordered_map<int64_t, std::string> names;
    PLACESCOPE_ASSIGN_OR_RETURN(
        SqliteStatement scan, db.prepare("SELECT DISTINCT demangledName, shortName FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    while (scan.step())
        if (!scan.isNull(0))
            names[scan.columnInt(0)] = scan.isNull(1) ? std::string("[unknown]") : trace.name(scan.columnInt(1));
    PLACESCOPE_RETURN_IF_ERROR(scan.status());
    return names;
}

// A predicted trace says so in PS_META (whatif/prediction_file.cpp writes the keys).
Result<std::optional<PredictionSource>> predictionSource(SqliteDb& db)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement scan,
        db.prepare("SELECT key, value FROM PS_META WHERE key IN "
                   "('prediction', 'predicted_from', 'predicted_edits', 'predicted_step_spread')"));
    bool predicted = false;
    PredictionSource source;
    while (scan.step()) {
        const std::string key = scan.columnText(0);
        if (key == "prediction")
            predicted = true;
        else if (key == "predicted_from")
            source.from = scan.columnText(1);
        else if (key == "predicted_step_spread")
            source.stepSpread = std::strtod(scan.columnText(1).c_str(), nullptr);
        else
            source.edits = scan.columnText(1);
    }
    PLACESCOPE_RETURN_IF_ERROR(scan.status());
    return predicted ? std::optional<PredictionSource>(source) : std::nullopt;
}

} // namespace

std::string RunProfile::gpuName() const
{
    for (const DeviceUtilization& d : stats.devices)
        if (!d.name.empty())
            return d.name;
    return analysis.gpuName;
}

int64_t RunProfile::meanStepNs() const { return std::llround(analysis.meanStepMs * 1e6); }

namespace {

Result<RunProfile> profileOpenRun(SqliteDb& db, const std::string& path, const ProfileOptions& options)
{
    RunProfile profile;
    profile.path = path;
    StatsOptions statsOptions;
    statsOptions.topKernels = 0;
    statsOptions.nameKind = options.shortNames ? KernelNameKind::Short : KernelNameKind::Demangled;
    PLACESCOPE_ASSIGN_OR_RETURN(profile.stats, computeTraceStats(db, statsOptions));

    PLACESCOPE_ASSIGN_OR_RETURN(TraceData trace, TraceData::load(db));
    // analyzeTrace() without its second load of the file (the top-kernel table is stats.kernels here).
    AnalysisOptions analysisOptions;
    analysisOptions.simulator = options.simulator;
    profile.analysis = analyzeTraceData(trace, analysisOptions);

    const StepIndex steps(detectSteps(trace));
    for (size_t i = 0; i < steps.count(); ++i) {
        profile.stepNumbers.push_back(steps.number(i));
        profile.stepDurationNs.push_back(steps.durationNs(i));
        profile.stepStartNs.push_back(steps.startNs(i));
    }
    GroupingOptions grouping;
    if (options.shortNames) {
        PLACESCOPE_ASSIGN_OR_RETURN(grouping.kernelNames, shortKernelNames(db, trace));
    }
    // Kernels by name, GPU work by class and the extra grouping, in one pass where they are GPU groupings.
    std::vector<GroupingOptions> groupings { std::move(grouping), GroupingOptions { DiffGrouping::Class, {} } };
    const bool extra = options.extra && *options.extra != DiffGrouping::Kernel && *options.extra != DiffGrouping::Class;
    if (extra)
        groupings.push_back(GroupingOptions { *options.extra, {} });
    std::vector<EventGroups> groups = groupEvents(trace, steps, groupings);
    profile.kernels = std::move(groups[0]);
    profile.classes = std::move(groups[1]);
    if (extra)
        profile.extra = std::move(groups[2]);
    else if (options.extra == DiffGrouping::Class)
        profile.extra = profile.classes;
    PLACESCOPE_ASSIGN_OR_RETURN(profile.prediction, predictionSource(db));
    return profile;
}

} // namespace

Result<RunProfile> profileRun(const std::string& path, const ProfileOptions& options)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, openTrace(path)); // its messages name the file
    auto profile = profileOpenRun(db, path, options);
    if (!profile.isOk())
        return Status::error(path + ": " + profile.status().message());
    return profile;
}

} // namespace placescope
