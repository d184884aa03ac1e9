// SPDX-License-Identifier: MIT
// The diff as one self-contained HTML file: the analyze report's stylesheet and its inline-SVG bar charts
// (analysis/render/svg_charts), no scripts, no external resources. Charts first (step times before/after, the
// largest kernel deltas), then the tables the text output prints.
#include "analysis/diff/diff_format.h"
#include "analysis/diff/diff_report.h"
#include "analysis/render/report_writer.h"
#include "analysis/render/svg_charts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace placescope {

namespace {

using namespace diff_format;

const char* kBefore = "#95a5a6";
const char* kAfter = "#2e86c1";
const char* kSlower = "#c0392b";
const char* kFaster = "#27ae60";

std::string stepChart(const RunDiff& d, size_t maxSteps)
{
    std::vector<BarItem> items;
    items.push_back({ "mean step, before", static_cast<double>(d.meanStepNsA), duration(d.meanStepNsA), kBefore });
    items.push_back({ "mean step, after", static_cast<double>(d.meanStepNsB),
        duration(d.meanStepNsB) + " (" + signedDuration(d.stepDeltaNs()) + ")", kAfter });
    for (size_t i = 0; i < d.steps.size() && i < maxSteps; ++i) {
        const StepPair& s = d.steps[i];
        const std::string step = "step " + std::to_string(s.position);
        if (s.numberA)
            items.push_back({ step + " before (#" + std::to_string(*s.numberA) + ")", static_cast<double>(s.nsA),
                duration(s.nsA), kBefore });
        if (s.numberB)
            items.push_back({ step + " after (#" + std::to_string(*s.numberB) + ")", static_cast<double>(s.nsB),
                duration(s.nsB) + (s.numberA ? " (" + signedDuration(s.nsB - s.nsA) + ")" : ""), kAfter });
    }
    return svgBarChart(items);
}

// Bars of |delta|, red where the after-run spends more time, green where less.
std::string deltaChart(const std::vector<DeltaRow>& rows, size_t top)
{
    std::vector<BarItem> items;
    for (size_t i = 0; i < rows.size() && i < top; ++i) {
        const DeltaRow& r = rows[i];
        if (r.deltaNs() == 0)
            break; // sorted by |delta|: the rest did not move
        items.push_back({ r.name, static_cast<double>(std::llabs(r.deltaNs())),
            signedDuration(r.deltaNs()) + " (" + changeName(r.change()) + ", " + count(r.countA) + " -> "
                + count(r.countB) + ")",
            r.deltaNs() > 0 ? kSlower : kFaster });
    }
    return items.empty() ? "<p class='meta'>no time moved</p>" : svgBarChart(items);
}

std::string cell(const std::string& text) { return "<td>" + htmlEscape(text) + "</td>"; }

std::string rowsTable(const std::vector<DeltaRow>& rows, size_t top)
{
    std::string h = "<table><tr><th>Count A</th><th>Count B</th><th>Time A</th><th>Time B</th><th>Delta</th>"
                    "<th>Change</th><th>Name</th></tr>";
    for (size_t i = 0; i < rows.size() && i < top; ++i) {
        const DeltaRow& r = rows[i];
        h += "<tr>" + cell(count(r.countA)) + cell(count(r.countB)) + cell(duration(r.nsA)) + cell(duration(r.nsB))
            + cell(signedDuration(r.deltaNs())) + cell(changeName(r.change())) + "<td><code>" + htmlEscape(r.name)
            + "</code></td></tr>";
    }
    return h + "</table>";
}

std::string figureTable(const RunDiff& d)
{
    std::string h = "<table><tr><th>Figure</th><th>Before</th><th>After</th><th>Delta</th><th>Share of step "
                    "delta</th></tr>";
    for (const Figure& f : d.figures) {
        const bool perStep = f.perStep();
        const int64_t delta = perStep ? f.perStepDelta() : f.b - f.a;
        h += "<tr>" + cell(f.section + ": " + f.name + (perStep ? " (per step)" : ""))
            + cell(value(perStep ? f.perStepA() : f.a, f.unit)) + cell(value(perStep ? f.perStepB() : f.b, f.unit))
            + cell(signedValue(delta, f.unit)) + cell(perStep ? share(d.shareOfStepDelta(delta)) : "") + "</tr>";
    }
    return h + "</table>";
}

// How far a prediction was off: the mean step, each compared step, the summed kernel time, then each class of GPU
// work (compared steps, then whole trace), as the text output gives it.
std::string predictionSection(const RunDiff& d)
{
    if (!d.predictionError)
        return "";
    const PredictionError& e = *d.predictionError;
    std::string h = std::string("<h2>Prediction error</h2><p class='meta'>") + (e.predictedIsA ? "before" : "after")
        + " is the prediction; error = predicted - measured, relative to measured</p>";
    h += "<table><tr><th>Step</th><th>Predicted</th><th>Measured</th><th>Error</th><th>Relative</th></tr>";
    auto row = [&](const std::string& label, int64_t predicted, int64_t measured) {
        h += "<tr>" + cell(label) + cell(duration(predicted)) + cell(duration(measured))
            + cell(signedDuration(predicted - measured))
            + cell(relative(PredictionError::relative(predicted, measured))) + "</tr>";
    };
    row("mean", e.predictedNs, e.measuredNs);
    for (const PredictionError::Step& s : e.steps)
        row(std::to_string(s.position), s.predictedNs, s.measuredNs);
    row("kernels (whole trace)", e.kernelPredictedNs, e.kernelMeasuredNs);
    h += "</table>";
    if (e.classes.empty())
        return h;
    h += "<h3>Per class of GPU work</h3><table><tr><th>Class</th><th>Count predicted</th><th>Count measured</th>"
         "<th>Predicted (steps)</th><th>Measured (steps)</th><th>Error</th><th>Relative</th>"
         "<th>Error, whole trace</th><th>Relative</th></tr>";
    for (const PredictionError::Class& c : e.classes)
        h += "<tr>" + cell(c.name) + cell(count(c.predictedCount)) + cell(count(c.measuredCount))
            + cell(duration(c.predictedNs)) + cell(duration(c.measuredNs))
            + cell(signedDuration(c.predictedNs - c.measuredNs))
            + cell(relative(PredictionError::relative(c.predictedNs, c.measuredNs)))
            + cell(signedDuration(c.wholePredictedNs - c.wholeMeasuredNs))
            + cell(relative(PredictionError::relative(c.wholePredictedNs, c.wholeMeasuredNs))) + "</tr>";
    return h + "</table>";
}

std::string findingTable(const RunDiff& d)
{
    if (d.findings.empty())
        return "<p class='meta'>no findings in either run</p>";
    std::string h = "<table><tr><th>Status</th><th>Saving before</th><th>Saving after</th><th>Finding</th></tr>";
    // Simulated savings (the what-if replay of the fix) are marked; the others are the rules' estimates.
    for (const FindingDiff& f : d.findings) {
        const std::string a = duration(std::llround(f.savingMsA * 1e6)) + (f.simulatedA ? " (simulated)" : "");
        const std::string b = duration(std::llround(f.savingMsB * 1e6)) + (f.simulatedB ? " (simulated)" : "");
        h += "<tr>" + cell(findingKindName(f.kind)) + cell(a) + cell(b) + cell(f.ruleId + ": " + f.title) + "</tr>";
    }
    return h + "</table>";
}

std::string groupSection(const GroupDiff& g, const RunDiff& d, size_t top)
{
    const std::string noun = groupingKey(g.grouping);
    std::string h = "<h2>Largest " + noun + " deltas, whole trace</h2>" + deltaChart(g.whole, top);
    h += "<h2>Largest " + noun + " deltas in the compared steps</h2><p class='meta'>"
        + std::to_string(d.compared.size()) + " step(s), step time " + signedDuration(d.comparedNsB - d.comparedNsA)
        + "; outside every step: " + count(g.outsideA.count) + " before, " + count(g.outsideB.count) + " after</p>"
        + deltaChart(g.inSteps, top);
    h += "<h2>" + noun + ", whole trace</h2>" + rowsTable(g.whole, top);
    return h;
}

} // namespace

std::string renderDiffHtml(const RunDiff& d, const DiffRenderOptions& o)
{
    const size_t top = o.topRows ? o.topRows : SIZE_MAX;
    std::string h = "<!DOCTYPE html><html><head><meta charset='utf-8'><title>placescope diff "
        + htmlEscape(runLabel(d.pathA)) + " vs " + htmlEscape(runLabel(d.pathB)) + "</title>"
        + std::string(htmlReportStyle()) + "</head><body>\n";
    h += "<h1>" + htmlEscape(runLabel(d.pathA)) + " &rarr; " + htmlEscape(runLabel(d.pathB)) + "</h1>";
    h += "<p class='meta'>before: " + htmlEscape(d.pathA) + " (" + htmlEscape(d.gpuA) + ", "
        + std::to_string(d.stepCountA) + " steps, " + htmlEscape(d.stepSourceA) + ")<br>after: " + htmlEscape(d.pathB)
        + " (" + htmlEscape(d.gpuB) + ", " + std::to_string(d.stepCountB) + " steps, " + htmlEscape(d.stepSourceB)
        + ")</p>";
    for (const std::string& note : d.notes)
        h += "<p class='note'>" + htmlEscape(note) + "</p>";
    h += "<h2>Step time</h2>" + stepChart(d, 12);
    h += predictionSection(d);
    h += groupSection(d.kernels, d, top);
    if (d.extra)
        h += groupSection(*d.extra, d, top);
    h += "<h2>Figures</h2>" + figureTable(d);
    h += "<h2>Copies and memsets</h2>" + rowsTable(d.copies, top);
    h += "<h2>Findings</h2>" + findingTable(d);
    return h + "\n</body></html>\n";
}

} // namespace placescope
