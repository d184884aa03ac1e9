// SPDX-License-Identifier: MIT
// The diff as JSON for scripts: integer nanoseconds and bytes throughout. `kernels` holds every kernel name of the
// whole trace of both runs; the compared steps' figures sit under `steps`; a --by grouping has its own key in the
// same row shape.
#include "analysis/diff/diff_report.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace placescope {

namespace {

using json = nlohmann::json;

json rowsJson(const std::vector<DeltaRow>& rows, bool withBytes = false)
{
    json out = json::array();
    for (const DeltaRow& r : rows) {
        json row = { { "name", r.name }, { "count_a", r.countA }, { "count_b", r.countB }, { "ns_a", r.nsA },
            { "ns_b", r.nsB }, { "delta_ns", r.deltaNs() }, { "change", changeName(r.change()) } };
        if (withBytes) {
            row["bytes_a"] = r.bytesA;
            row["bytes_b"] = r.bytesB;
        }
        out.push_back(std::move(row));
    }
    return out;
}

json totalJson(const GroupTotal& a, const GroupTotal& b)
{
    return { { "count_a", a.count }, { "count_b", b.count }, { "ns_a", a.ns }, { "ns_b", b.ns } };
}

json predictionJson(const std::optional<PredictionSource>& p)
{
    return p ? json { { "from", p->from }, { "edits", p->edits } } : json();
}

json predictionErrorJson(const PredictionError& e)
{
    json steps = json::array();
    for (const PredictionError::Step& s : e.steps)
        steps.push_back({ { "position", s.position }, { "predicted_ns", s.predictedNs },
            { "measured_ns", s.measuredNs }, { "error_ns", s.predictedNs - s.measuredNs },
            { "relative_error", PredictionError::relative(s.predictedNs, s.measuredNs) } });
    json classes = json::array();
    for (const PredictionError::Class& c : e.classes)
        classes.push_back({ { "class", c.name }, { "predicted_count", c.predictedCount },
            { "measured_count", c.measuredCount }, { "predicted_ns", c.predictedNs }, { "measured_ns", c.measuredNs },
            { "error_ns", c.predictedNs - c.measuredNs },
            { "relative_error", PredictionError::relative(c.predictedNs, c.measuredNs) },
            { "whole_trace",
                { { "predicted_ns", c.wholePredictedNs }, { "measured_ns", c.wholeMeasuredNs },
                    { "error_ns", c.wholePredictedNs - c.wholeMeasuredNs },
                    { "relative_error", PredictionError::relative(c.wholePredictedNs, c.wholeMeasuredNs) } } } });
    return { { "predicted_side", e.predictedIsA ? "a" : "b" },
        { "mean_step",
            { { "predicted_ns", e.predictedNs }, { "measured_ns", e.measuredNs },
                { "error_ns", e.predictedNs - e.measuredNs },
                { "relative_error", PredictionError::relative(e.predictedNs, e.measuredNs) },
                { "band_spread", e.band.known() ? json(e.band.spread) : json(nullptr) },
                { "inside_band", e.band.known() ? json(e.insideBand()) : json(nullptr) } } },
        { "steps", std::move(steps) },
        { "kernel_time",
            { { "predicted_ns", e.kernelPredictedNs }, { "measured_ns", e.kernelMeasuredNs },
                { "error_ns", e.kernelPredictedNs - e.kernelMeasuredNs } } },
        { "classes", std::move(classes) } };
}

json optionalNumber(const std::optional<int64_t>& n) { return n ? json(*n) : json(); }

// The in-step part of one grouping: the compared steps summed, per step with --all-steps, and what fell outside.
json stepGroupJson(const GroupDiff& g, const RunDiff& d)
{
    json out;
    out["compared"] = rowsJson(g.inSteps);
    if (!g.perStep.empty()) {
        json perStep = json::array();
        for (size_t i = 0; i < g.perStep.size(); ++i)
            perStep.push_back({ { "position", d.compared[i] }, { "rows", rowsJson(g.perStep[i]) } });
        out["per_step"] = std::move(perStep);
    }
    out["outside_steps"] = totalJson(g.outsideA, g.outsideB);
    out["after_last_step"] = totalJson(g.afterLastA, g.afterLastB);
    return out;
}

const char* unitName(Figure::Unit unit)
{
    return unit == Figure::Unit::Ns ? "ns" : unit == Figure::Unit::Bytes ? "bytes" : "count";
}

} // namespace

std::string renderDiffJson(const RunDiff& d)
{
    json out;
    out["a"] = { { "path", d.pathA }, { "gpu", d.gpuA }, { "step_source", d.stepSourceA },
        { "prediction", predictionJson(d.predictionA) } };
    out["b"] = { { "path", d.pathB }, { "gpu", d.gpuB }, { "step_source", d.stepSourceB },
        { "prediction", predictionJson(d.predictionB) } };
    out["notes"] = d.notes;
    if (d.predictionError)
        out["prediction_error"] = predictionErrorJson(*d.predictionError);
    out["span"] = { { "ns_a", d.spanNsA }, { "ns_b", d.spanNsB } };
    out["kernels"] = rowsJson(d.kernels.whole);
    if (d.extra)
        out[groupingKey(d.extra->grouping)] = rowsJson(d.extra->whole);
    out["copies"] = rowsJson(d.copies, true);

    json steps;
    steps["count_a"] = d.stepCountA;
    steps["count_b"] = d.stepCountB;
    steps["mean_ns_a"] = d.meanStepNsA;
    steps["mean_ns_b"] = d.meanStepNsB;
    json pairs = json::array();
    for (const StepPair& s : d.steps)
        pairs.push_back({ { "position", s.position }, { "number_a", optionalNumber(s.numberA) },
            { "number_b", optionalNumber(s.numberB) }, { "ns_a", s.numberA ? json(s.nsA) : json() },
            { "ns_b", s.numberB ? json(s.nsB) : json() } });
    steps["steps"] = std::move(pairs);
    steps["compared"] = d.compared;
    steps["compared_ns_a"] = d.comparedNsA;
    steps["compared_ns_b"] = d.comparedNsB;
    steps["kernels"] = stepGroupJson(d.kernels, d);
    if (d.extra)
        steps[groupingKey(d.extra->grouping)] = stepGroupJson(*d.extra, d);
    out["steps"] = std::move(steps);

    json figures = json::array();
    for (const Figure& f : d.figures) {
        json figure = { { "section", f.section }, { "name", f.name }, { "unit", unitName(f.unit) }, { "a", f.a },
            { "b", f.b } };
        if (f.perStep()) {
            figure["steps_a"] = f.stepsA;
            figure["steps_b"] = f.stepsB;
            figure["per_step_a"] = f.perStepA();
            figure["per_step_b"] = f.perStepB();
            const double share = d.shareOfStepDelta(f.perStepDelta());
            figure["share_of_step_delta"] = std::isnan(share) ? json() : json(share);
        }
        figures.push_back(std::move(figure));
    }
    out["figures"] = std::move(figures);

    json findings = json::array();
    for (const FindingDiff& f : d.findings)
        findings.push_back({ { "status", findingKindName(f.kind) }, { "rule", f.ruleId }, { "title", f.title },
            { "saving_ms_a", f.savingMsA }, { "saving_ms_b", f.savingMsB }, { "simulated_a", f.simulatedA },
            { "simulated_b", f.simulatedB }, { "estimated_ms_a", f.estimatedMsA },
            { "estimated_ms_b", f.estimatedMsB } });
    out["findings"] = std::move(findings);
    return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace placescope
