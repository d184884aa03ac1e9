// SPDX-License-Identifier: MIT
// Text and JSON of a what-if and of a critical path. Figures come from WhatIfResult only; this file formats.
#include "analysis/findings/finding_rule.h"
#include "profiler/base/text_table.h"
#include "profiler/base/units.h"
#include "whatif/whatif.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace placescope {

namespace {

std::string ms(int64_t ns) { return formatNanoseconds(static_cast<double>(ns)); }

std::string signedPercent(double fraction) { return formatSignedPercent(100.0 * fraction, 2); }

// The largest contributors on a path: time per (category, name), longest first.
std::vector<std::tuple<int64_t, PathCategory, std::string>> topContributors(
    const CriticalPath& path, const ReplayGraph& graph, const TraceData& trace, size_t limit)
{
    std::map<std::pair<PathCategory, std::string>, int64_t> byName;
    for (const PathSegment& s : path.segments) {
        const ReplayTask& t = graph.tasks[s.task];
        std::string name
            = s.category == PathCategory::CpuOps && t.kind == TaskKind::HostCall && t.role == HostRole::Other
            ? taskName(trace, t)
            : s.category == PathCategory::CpuOps ? "CPU time between calls on " + graph.lanes[t.lane].label
            : s.category == PathCategory::Wait   ? "waiting on " + graph.lanes[t.lane].label
                                                 : taskName(trace, t);
        byName[{ s.category, name }] += s.endNs - s.startNs;
    }
    std::vector<std::tuple<int64_t, PathCategory, std::string>> list;
    for (const auto& [key, ns] : byName)
        list.emplace_back(ns, key.first, key.second);
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
    if (list.size() > limit)
        list.resize(limit);
    return list;
}

nlohmann::json pathJson(const CriticalPath& path, const ReplayGraph& graph, const TraceData& trace)
{
    nlohmann::json j;
    j["length_ns"] = path.lengthNs();
    nlohmann::json categories = nlohmann::json::object();
    for (int c = 0; c < kPathCategoryCount; ++c)
        categories[std::string(pathCategoryName(static_cast<PathCategory>(c)))]
            = path.categoryNs[static_cast<size_t>(c)];
    j["categories_ns"] = categories;
    j["segments"] = path.segments.size();
    nlohmann::json top = nlohmann::json::array();
    for (const auto& [ns, category, name] : topContributors(path, graph, trace, 10))
        top.push_back({ { "category", std::string(pathCategoryName(category)) }, { "name", name }, { "ns", ns } });
    j["top"] = top;
    return j;
}

void appendPathText(std::string& out, const CriticalPath& path, const ReplayGraph& graph, const TraceData& trace,
    const CriticalPath* after)
{
    if (path.segments.empty() && (!after || after->segments.empty())) {
        out += "  none: no CUDA call or GPU work in the window (the replay follows the host's ranges alone)\n";
        return;
    }
    TextTable categories { { "category", "replay" }, {}, { Align::Left, Align::Right, Align::Right }, "  " };
    if (after)
        categories.header.push_back("predicted");
    auto addRow = [&](std::string label, int64_t before, int64_t now) {
        categories.rows.push_back({ std::move(label), ms(before) });
        if (after)
            categories.rows.back().push_back(ms(now));
    };
    for (int c = 0; c < kPathCategoryCount; ++c) {
        const int64_t before = path.categoryNs[static_cast<size_t>(c)];
        const int64_t now = after ? after->categoryNs[static_cast<size_t>(c)] : 0;
        if (before != 0 || now != 0)
            addRow(std::string(pathCategoryName(static_cast<PathCategory>(c))), before, now);
    }
    addRow("length", path.lengthNs(), after ? after->lengthNs() : 0);
    out += renderTextTable(categories);
    const auto top = topContributors(path, graph, trace, 8);
    if (!top.empty()) {
        out += "  longest on the replay's path:\n";
        TextTable longest { {}, {}, { Align::Right, Align::Left, Align::Left }, "    " };
        for (const auto& [ns, category, name] : top)
            longest.rows.push_back({ ms(ns), std::string(pathCategoryName(category)),
                name.size() > 90 ? name.substr(0, 87) + "..." : name });
        out += renderTextTable(longest);
    }
}

// Prediction error per class of GPU work against the run measured after the change: each class's busy time in the
// span per step (the figure the step error compares), classes neither run has left out.
struct ClassError
{
    std::string_view name;
    int64_t predictedNs = 0, measuredNs = 0; // per step
};

std::vector<ClassError> classErrors(const WhatIfResult& r)
{
    std::vector<ClassError> out;
    if (!r.comparison)
        return out;
    for (int c = 0; c < kGpuWorkClassCount; ++c) {
        const int64_t predicted = r.predictedClassNs[static_cast<size_t>(c)];
        const int64_t measured = r.comparison->measuredClassNs[static_cast<size_t>(c)];
        if (predicted == 0 && measured == 0)
            continue;
        out.push_back({ gpuWorkClassName(static_cast<GpuWorkClass>(c)), WhatIfResult::perStep(predicted, r.stepCount),
            WhatIfResult::perStep(measured, r.comparison->stepCount) });
    }
    return out;
}

std::string prefixed(const std::string& prefix, const std::string& text) { return text.empty() ? text : prefix + text; }

} // namespace

std::string crossStreamEdgesText(const ReplayQuality& q)
{
    std::string text = "cross-stream edges: " + std::to_string(q.recordedCrossStream)
        + " recorded (stream waits on events the trace records), " + std::to_string(q.inferredCrossStream)
        + " inferred (a start within 5 us of another stream's op end that nothing else explains)";
    if (q.eventWaitsUnresolved > 0)
        text += "; " + std::to_string(q.eventWaitsUnresolved) + " recorded waits tied to no work";
    return text;
}

std::string hostWaitsText(const ReplayQuality& q)
{
    std::string text = "host waits: " + std::to_string(q.hostWaits)
        + " bound to the GPU work they wait for (synchronize calls, blocking copies, " + std::to_string(q.pollingLoops)
        + " polling loops of query calls, " + std::to_string(q.eventSyncsPaired)
        + " event synchronizes paired with their record), " + std::to_string(q.loaderWaits)
        + " DataLoader waits bound to a loader thread's work";
    if (q.loaderWaitsAsWork > 0)
        text += "; " + std::to_string(q.loaderWaitsAsWork)
            + " DataLoader waits replayed as CPU work: the trace shows no loader thread's work to bound them";
    return text;
}

std::string replayAccuracyText(const WhatIfResult& r)
{
    const double error = r.replayStepError();
    const std::string limit = formatPercent(100.0 * kReplayAccuracyLimit);
    if (replayWithinLimit(error))
        return "the unedited replay gives the measured step back within " + formatPercent(100.0 * std::abs(error))
            + ", inside the " + limit + " accuracy limit within which predictions are trusted";
    return "the unedited replay's step is " + formatPercent(100.0 * std::abs(error))
        + " off the measured one, past the " + limit
        + " accuracy limit: take the prediction as a rough guide (analyze simulates no finding on such a run)";
}

std::string predictedStepText(const WhatIfResult& r)
{
    std::string text = "predicted " + ms(r.predicted.stepNs) + ", " + stepBandText(r.band);
    if (r.band.known())
        text += ": " + ms(r.band.lowNs(r.predicted.stepNs)) + " to " + ms(r.band.highNs(r.predicted.stepNs));
    return text;
}

std::string hostSetStepText(const WhatIfResult& r)
{
    const int64_t saving = r.replay.stepNs - r.predicted.stepNs;
    const int64_t gpuWorkTaken
        = WhatIfResult::perStep(totalNs(r.measuredClassNs) - totalNs(r.predictedClassNs), r.stepCount);
    if (gpuWorkTaken <= 0 || saving * 10 > gpuWorkTaken || !r.predicted.steps.hostRanges
        || r.predicted.steps.setByGpuCount() > 0)
        return {};
    return "every step is set by the host (it ends with its host range, after the GPU has finished the step's "
           "work), so most of the "
        + ms(gpuWorkTaken)
        + " per step taken off the GPU only lengthens its idle time; host-side changes (input=, drop:op:NAME, fewer "
          "launches) shorten such steps";
}

std::string stepSavingText(const WhatIfResult& r)
{
    const int64_t saving = r.replay.stepNs - r.predicted.stepNs;
    const double share = r.replay.stepNs
        ? 100.0 * static_cast<double>(std::llabs(saving)) / static_cast<double>(r.replay.stepNs)
        : 0.0;
    if (saving > 0)
        return "saving " + ms(saving) + " per step (" + formatPercent(share) + " of the replayed step)"
            + prefixed("; ", hostSetStepText(r));
    if (saving < 0)
        return "slower by " + ms(-saving) + " per step (" + formatPercent(share) + " of the replayed step)";
    return "no change in step time" + prefixed(": ", hostSetStepText(r));
}

std::string whatIfText(const WhatIfResult& r, const TraceData& trace)
{
    std::string out;
    out += "Steps: " + std::to_string(r.stepCount) + " (" + r.stepSource + ")\n\n";
    TextTable steps { { "", "step", "span", "" }, {}, { Align::Left, Align::Right, Align::Right, Align::Left }, "  " };
    // Every step figure says what set it (analysis/trace/step_times.h): the host ranges or the GPU work in them.
    steps.rows.push_back(
        { "measured", ms(r.measured.stepNs), ms(r.measured.spanNs), " step " + r.measured.steps.how() });
    steps.rows.push_back({ "replay", ms(r.replay.stepNs), ms(r.replay.spanNs),
        " error " + signedPercent(r.replayStepError()) + " step, " + signedPercent(r.replaySpanError()) + " span" });
    steps.rows.push_back(
        { "predicted", ms(r.predicted.stepNs), ms(r.predicted.spanNs), " replay; step " + r.predicted.steps.how() });
    if (r.comparison) {
        const MeasuredComparison& c = *r.comparison;
        steps.rows.push_back({ "measured after", ms(c.measured.stepNs), ms(c.measured.spanNs),
            " prediction error " + signedPercent(c.stepError) + " step, " + signedPercent(c.spanError) + " span ("
                + std::to_string(c.stepCount) + " steps in the run after)" });
    }
    out += renderTextTable(steps);
    out += "  " + predictedStepText(r) + "\n";
    out += "  " + replayAccuracyText(r) + "\n";
    if (r.comparison) {
        const MeasuredComparison& c = *r.comparison;
        out += "  measured after: " + ms(c.measured.stepNs) + ", "
            + (r.band.known() ? bandVerdictText(c.verdict, c.measuredBand)
                              : "no band to judge it by (" + stepBandText(r.band) + ")")
            + "\n";
        for (const std::string& warning : c.notComparable)
            out += "  warning: the runs may not be comparable: " + warning + "\n";
    }
    const int64_t spanSaving = r.replay.spanNs - r.predicted.spanNs;
    out += "  " + stepSavingText(r);
    out += std::string("; span ")
        + (spanSaving > 0        ? "shorter by " + ms(spanSaving)
                : spanSaving < 0 ? "longer by " + ms(-spanSaving)
                                 : std::string("unchanged"))
        + "\n";
    if (const auto classes = classErrors(r); !classes.empty()) {
        out += "  prediction error per class of GPU work (busy time of the span's work per step):\n";
        TextTable errors { { "class", "predicted", "measured", "error", "relative" }, {},
            { Align::Left, Align::Right, Align::Right, Align::Right, Align::Right }, "    " };
        for (const ClassError& e : classes)
            errors.rows.push_back({ std::string(e.name), ms(e.predictedNs), ms(e.measuredNs),
                (e.predictedNs > e.measuredNs ? "+" : "") + ms(e.predictedNs - e.measuredNs),
                signedPercent(WhatIfResult::relativeError(e.predictedNs, e.measuredNs)) });
        out += renderTextTable(errors);
    }
    out += "  how: the replay schedules the trace's dependency graph with every measured duration and gap; the "
           "prediction replays it again after the edits\n";
    out += "  " + crossStreamEdgesText(r.quality) + "\n";
    out += "  " + hostWaitsText(r.quality) + "\n";

    out += "\nEdits\n";
    if (r.edits.empty())
        out += "  none (replay only; predicted = replay)\n";
    for (const EditOutcome& e : r.edits)
        out += "  " + e.text + ": " + e.understood + "; matched " + e.matchedWhat + ". " + e.how + "\n";

    out += "\nBusy time per lane (work of the span)\n";
    TextTable lanes { { "lane", "measured", "replay", "predicted" }, {},
        { Align::Left, Align::Right, Align::Right, Align::Right }, "  " };
    for (const LaneBusy& l : r.lanes)
        lanes.rows.push_back({ l.label, ms(l.measuredNs), ms(l.replayNs), ms(l.predictedNs) });
    if (lanes.rows.empty())
        out += "  none: no CUDA call or GPU work in the span\n";
    else
        out += renderTextTable(lanes);

    out += "\nCritical path (" + std::string(r.stepCount ? "the span" : "the trace") + ")\n";
    appendPathText(out, r.replayPath, r.predictedGraph, trace, &r.predictedPath);

    if (!r.accuracyNotes.empty()) {
        out += "\nReplay notes\n";
        for (const std::string& note : r.accuracyNotes)
            out += "  - " + note + "\n";
    }
    return out;
}

std::string whatIfJson(const WhatIfResult& r, const TraceData& trace)
{
    nlohmann::json j;
    j["step_source"] = r.stepSource;
    j["step_count"] = r.stepCount;
    j["measured_step_ns"] = r.measured.stepNs;
    j["measured_span_ns"] = r.measured.spanNs;
    j["replay_step_ns"] = r.replay.stepNs;
    j["replay_span_ns"] = r.replay.spanNs;
    j["replay_step_error"] = r.replayStepError();
    j["replay_span_error"] = r.replaySpanError();
    j["predicted_step_ns"] = r.predicted.stepNs;
    j["predicted_span_ns"] = r.predicted.spanNs;
    j["saving_step_ns"] = r.replay.stepNs - r.predicted.stepNs;
    j["measured_step_set_by"] = r.measured.steps.how();
    j["predicted_step_set_by"] = "replay; " + r.predicted.steps.how();
    j["predicted_step_band"] = { { "statistic", "coefficient of variation of the steady-state step times" },
        { "spread", r.band.known() ? nlohmann::json(r.band.spread) : nlohmann::json(nullptr) },
        { "steady_steps", r.band.steadySteps }, { "low_ns", r.band.lowNs(r.predicted.stepNs) },
        { "high_ns", r.band.highNs(r.predicted.stepNs) }, { "text", stepBandText(r.band) } };
    j["replay_accuracy_limit"] = kReplayAccuracyLimit;
    j["replay_within_limit"] = replayWithinLimit(r.replayStepError());
    nlohmann::json edits = nlohmann::json::array();
    for (const EditOutcome& e : r.edits)
        edits.push_back({ { "edit", e.text }, { "understood", e.understood }, { "matched", e.matched },
            { "matched_what", e.matchedWhat }, { "how", e.how } });
    j["edits"] = edits;
    nlohmann::json lanes = nlohmann::json::array();
    for (const LaneBusy& l : r.lanes)
        lanes.push_back({ { "lane", l.label }, { "measured_busy_ns", l.measuredNs }, { "replay_busy_ns", l.replayNs },
            { "predicted_busy_ns", l.predictedNs } });
    j["lanes"] = lanes;
    j["critical_path"] = { { "replay", pathJson(r.replayPath, r.predictedGraph, trace) },
        { "predicted", pathJson(r.predictedPath, r.predictedGraph, trace) } };
    const ReplayQuality& q = r.quality;
    j["replay_quality"] = { { "gpu_ops_without_launch", q.gpuOpsWithoutLaunch },
        { "starts_before_launch", q.startsBeforeLaunch }, { "same_stream_overlaps", q.sameStreamOverlaps },
        { "recorded_cross_stream", q.recordedCrossStream }, { "inferred_cross_stream", q.inferredCrossStream },
        { "event_waits_unresolved", q.eventWaitsUnresolved }, { "inferred_handoffs", q.inferredHandoffs },
        { "host_waits", q.hostWaits }, { "polling_loops", q.pollingLoops },
        { "event_syncs_paired", q.eventSyncsPaired }, { "loader_waits", q.loaderWaits },
        { "loader_waits_as_work", q.loaderWaitsAsWork }, { "handoffs_rejected", q.handoffsRejected },
        { "waits_ending_early", q.waitsEndingEarly }, { "collectives", q.collectives },
        { "nested_calls", q.nestedCalls }, { "launch_floor_ns", q.launchFloorNs } };
    j["cross_stream_edges"] = { { "recorded", q.recordedCrossStream }, { "inferred", q.inferredCrossStream },
        { "recorded_unresolved", q.eventWaitsUnresolved } };
    j["replay_notes"] = r.accuracyNotes;
    if (r.comparison) {
        nlohmann::json classes = nlohmann::json::array();
        for (const ClassError& e : classErrors(r))
            classes.push_back({ { "class", std::string(e.name) }, { "predicted_ns_per_step", e.predictedNs },
                { "measured_ns_per_step", e.measuredNs }, { "error_ns", e.predictedNs - e.measuredNs },
                { "relative_error", WhatIfResult::relativeError(e.predictedNs, e.measuredNs) } });
        j["compare"] = { { "measured_step_ns", r.comparison->measured.stepNs },
            { "measured_span_ns", r.comparison->measured.spanNs }, { "step_count", r.comparison->stepCount },
            { "prediction_step_error", r.comparison->stepError }, { "prediction_span_error", r.comparison->spanError },
            { "inside_band", r.band.known() ? nlohmann::json(r.comparison->insideBand()) : nlohmann::json(nullptr) },
            { "measured_step_spread",
                r.comparison->measuredBand.known() ? nlohmann::json(r.comparison->measuredBand.spread)
                                                   : nlohmann::json(nullptr) },
            { "band_verdict", bandVerdictText(r.comparison->verdict, r.comparison->measuredBand) },
            { "not_comparable", r.comparison->notComparable }, { "classes", std::move(classes) } };
    }
    return j.dump(2) + "\n";
}

std::string criticalPathText(const WhatIfResult& r, const TraceData& trace)
{
    std::string out = "Steps: " + std::to_string(r.stepCount) + " (" + r.stepSource + ")\n";
    out += "Critical path of the replay (replay step " + ms(r.replay.stepNs) + ", measured " + ms(r.measured.stepNs)
        + ", error " + signedPercent(r.replayStepError()) + "; step " + r.replay.steps.how() + ")\n";
    appendPathText(out, r.replayPath, r.predictedGraph, trace, nullptr);
    return out;
}

std::string criticalPathJson(const WhatIfResult& r, const TraceData& trace)
{
    nlohmann::json j = pathJson(r.replayPath, r.predictedGraph, trace);
    j["measured_step_ns"] = r.measured.stepNs;
    j["replay_step_ns"] = r.replay.stepNs;
    j["replay_step_set_by"] = r.replay.steps.how();
    j["step_count"] = r.stepCount;
    return j.dump(2) + "\n";
}

} // namespace placescope
