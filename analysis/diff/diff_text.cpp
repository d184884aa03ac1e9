// SPDX-License-Identifier: MIT
// The diff as text: the step comparison first (what a user asks first: did the step get faster?), then the figures
// with their deltas and shares of the step delta, copies, the grouped tables sorted by absolute delta, and the
// findings. Aligned columns, names last (they are long).
#include "analysis/diff/diff_format.h"
#include "analysis/diff/diff_report.h"
#include "profiler/base/text_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace placescope {

namespace {

using namespace diff_format;
using Rows = std::vector<std::vector<std::string>>;

// Columns right-aligned except the last (the names), through the one table writer.
void table(std::string& out, const std::vector<std::string>& header, Rows rows)
{
    out += renderTextTable(header, std::move(rows));
}

std::string clip(const std::string& name, size_t width)
{
    return width == 0 || name.size() <= width ? name : name.substr(0, width - 3) + "...";
}

std::string stepNumber(const std::optional<int64_t>& n) { return n ? "#" + std::to_string(*n) : "-"; }

void stepSection(std::string& out, const RunDiff& d)
{
    out += "Step time (steps paired by position)\n";
    Rows rows;
    rows.push_back({ "mean", "", "", duration(d.meanStepNsA), duration(d.meanStepNsB), signedDuration(d.stepDeltaNs()),
        "analyzer's mean step" });
    for (const StepPair& s : d.steps)
        rows.push_back({ std::to_string(s.position), stepNumber(s.numberA), stepNumber(s.numberB),
            s.numberA ? duration(s.nsA) : "-", s.numberB ? duration(s.nsB) : "-",
            s.numberA && s.numberB ? signedDuration(s.nsB - s.nsA) : "-",
            std::find(d.compared.begin(), d.compared.end(), s.position) != d.compared.end() ? "compared" : "" });
    table(out, { "Step", "A", "B", "Before", "After", "Delta", "" }, rows);
}

// How far a prediction was off, step by step (the kernel tables below give it per kernel name).
void predictionSection(std::string& out, const RunDiff& d)
{
    if (!d.predictionError)
        return;
    const PredictionError& e = *d.predictionError;
    out += std::string("\nPrediction error (") + (e.predictedIsA ? "A" : "B")
        + " predicted, error = predicted - measured, relative to measured; per kernel name: the kernel tables)\n";
    Rows rows;
    rows.push_back(
        { "mean", duration(e.predictedNs), duration(e.measuredNs), signedDuration(e.predictedNs - e.measuredNs),
            relative(PredictionError::relative(e.predictedNs, e.measuredNs)) });
    for (const PredictionError::Step& s : e.steps)
        rows.push_back({ std::to_string(s.position), duration(s.predictedNs), duration(s.measuredNs),
            signedDuration(s.predictedNs - s.measuredNs),
            relative(PredictionError::relative(s.predictedNs, s.measuredNs)) });
    rows.push_back({ "kernels", duration(e.kernelPredictedNs), duration(e.kernelMeasuredNs),
        signedDuration(e.kernelPredictedNs - e.kernelMeasuredNs),
        relative(PredictionError::relative(e.kernelPredictedNs, e.kernelMeasuredNs)) });
    table(out, { "Step", "Predicted", "Measured", "Error", "Relative" }, rows);
    if (e.classes.empty())
        return;
    out += "\nPrediction error per class of GPU work (time summed over the compared steps; then the whole trace)\n";
    rows.clear();
    for (const PredictionError::Class& c : e.classes)
        rows.push_back({ count(c.predictedCount), count(c.measuredCount), duration(c.predictedNs),
            duration(c.measuredNs), signedDuration(c.predictedNs - c.measuredNs),
            relative(PredictionError::relative(c.predictedNs, c.measuredNs)),
            signedDuration(c.wholePredictedNs - c.wholeMeasuredNs),
            relative(PredictionError::relative(c.wholePredictedNs, c.wholeMeasuredNs)), c.name });
    table(out,
        { "Count P", "Count M", "Predicted", "Measured", "Error", "Relative", "Whole trace", "Relative", "Class" },
        rows);
}

void figureSection(std::string& out, const RunDiff& d)
{
    out += "\nFigures (over the steps: per step, with the share of the step delta; else whole trace)\n";
    Rows rows;
    std::string section;
    for (const Figure& f : d.figures) {
        const bool perStep = f.perStep();
        const int64_t delta = perStep ? f.perStepDelta() : f.b - f.a;
        rows.push_back({ perStep ? value(f.perStepA(), f.unit) : value(f.a, f.unit),
            perStep ? value(f.perStepB(), f.unit) : value(f.b, f.unit), signedValue(delta, f.unit),
            perStep ? share(d.shareOfStepDelta(delta)) : "", f.section + ": " + f.name });
    }
    table(out, { "Before", "After", "Delta", "Share", "Figure" }, rows);
}

void copySection(std::string& out, const RunDiff& d, const DiffRenderOptions& o)
{
    out += "\nCopies and memsets by kind and memory type (whole trace)\n";
    if (d.copies.empty()) {
        out += " none in either run\n";
        return;
    }
    Rows rows;
    for (const DeltaRow& r : d.copies)
        rows.push_back(
            { count(r.countA), count(r.countB), duration(r.nsA), duration(r.nsB), signedDuration(r.deltaNs()),
                bytes(r.bytesA), bytes(r.bytesB), changeName(r.change()), clip(r.name, o.nameWidth) });
    table(
        out, { "Count A", "Count B", "Time A", "Time B", "Delta", "Bytes A", "Bytes B", "Change", "Operation" }, rows);
}

std::string changeSummary(const std::vector<DeltaRow>& rows)
{
    int64_t changed = 0, added = 0, removed = 0;
    for (const DeltaRow& r : rows) {
        changed += r.change() == Change::Changed;
        added += r.change() == Change::Added;
        removed += r.change() == Change::Removed;
    }
    return std::to_string(rows.size()) + " names: " + std::to_string(changed) + " changed, " + std::to_string(added)
        + " added, " + std::to_string(removed) + " removed";
}

void deltaTable(std::string& out, const std::string& title, const std::vector<DeltaRow>& rows, const RunDiff& d,
    bool withShare, const DiffRenderOptions& o)
{
    const size_t shown = o.topRows ? std::min(o.topRows, rows.size()) : rows.size();
    out += "\n" + title + " (" + changeSummary(rows);
    out += shown < rows.size() ? "; the " + std::to_string(shown) + " largest deltas)\n" : ")\n";
    if (rows.empty())
        return;
    Rows body;
    for (size_t i = 0; i < shown; ++i) {
        const DeltaRow& r = rows[i];
        std::vector<std::string> row { count(r.countA), count(r.countB), duration(r.nsA), duration(r.nsB),
            signedDuration(r.deltaNs()) };
        if (withShare)
            row.push_back(share(d.shareOfComparedDelta(r.deltaNs())));
        row.push_back(changeName(r.change()));
        row.push_back(clip(r.name, o.nameWidth));
        body.push_back(std::move(row));
    }
    std::vector<std::string> header { "Count A", "Count B", "Time A", "Time B", "Delta" };
    if (withShare)
        header.push_back("Share");
    header.push_back("Change");
    header.push_back("Name");
    table(out, header, body);
}

std::string comparedText(const RunDiff& d)
{
    if (d.compared.size() == 1)
        return "step " + std::to_string(d.compared.front());
    if (d.compared.empty())
        return "no steps";
    return "steps 0-" + std::to_string(d.compared.back());
}

void groupSection(std::string& out, const GroupDiff& g, const RunDiff& d, const DiffRenderOptions& o)
{
    std::string noun = groupingKey(g.grouping);
    noun[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(noun[0])));
    deltaTable(out, noun + ", whole trace", g.whole, d, false, o);
    deltaTable(out,
        noun + " in the compared " + comparedText(d) + " (" + signedDuration(d.comparedNsB - d.comparedNsA)
            + " of step time; share = delta / that)",
        g.inSteps, d, true, o);
    out += " outside every step: " + count(g.outsideA.count) + " (" + duration(g.outsideA.ns) + ") before, "
        + count(g.outsideB.count) + " (" + duration(g.outsideB.ns)
        + ") after; after the last step: " + count(g.afterLastA.count) + " / " + count(g.afterLastB.count) + "\n";
    for (size_t i = 0; i < g.perStep.size(); ++i)
        deltaTable(out, noun + " in step " + std::to_string(d.compared[i]), g.perStep[i], d, false, o);
}

void findingSection(std::string& out, const RunDiff& d)
{
    out += "\nFindings (saving per step, before -> after: the what-if replay's simulation where marked, else the "
           "rule's "
           "estimate; --simulate simulates every fix that is an edit)\n";
    if (d.findings.empty()) {
        out += " none in either run\n";
        return;
    }
    Rows rows;
    for (const FindingDiff& f : d.findings) {
        const std::string saving
            = duration(std::llround(f.savingMsA * 1e6)) + " -> " + duration(std::llround(f.savingMsB * 1e6));
        rows.push_back({ findingKindName(f.kind), saving, savingBasis(f), f.ruleId + ": " + f.title });
    }
    table(out, { "Status", "Saving", "Basis", "Finding" }, rows);
}

} // namespace

std::string renderDiffText(const RunDiff& d, const DiffRenderOptions& o)
{
    std::string out = std::string(d.predictionA ? "A (before, predicted): " : "A (before): ") + d.pathA + " ("
        + (d.gpuA.empty() ? "GPU ?" : d.gpuA) + ", " + std::to_string(d.stepCountA) + " steps: " + d.stepSourceA
        + ")\n";
    out += std::string(d.predictionB ? "B (after, predicted):  " : "B (after):  ") + d.pathB + " ("
        + (d.gpuB.empty() ? "GPU ?" : d.gpuB) + ", " + std::to_string(d.stepCountB) + " steps: " + d.stepSourceB
        + ")\n";
    for (const std::string& note : d.notes)
        out += "Note: " + note + "\n";
    out += "\n";
    stepSection(out, d);
    predictionSection(out, d);
    figureSection(out, d);
    copySection(out, d, o);
    groupSection(out, d.kernels, d, o);
    if (d.extra)
        groupSection(out, *d.extra, d, o);
    findingSection(out, d);
    return out;
}

Result<DiffFormat> parseDiffFormat(const std::string& name)
{
    if (name == "text" || name == "txt")
        return DiffFormat::Text;
    if (name == "json")
        return DiffFormat::Json;
    if (name == "html" || name == "htm")
        return DiffFormat::Html;
    return Status::error("unknown format '" + name + "' (text, json or html)");
}

std::string renderDiff(const RunDiff& diff, DiffFormat format, const DiffRenderOptions& options)
{
    switch (format) {
    case DiffFormat::Json:
        return renderDiffJson(diff);
    case DiffFormat::Html:
        return renderDiffHtml(diff, options);
    case DiffFormat::Text:
        break;
    }
    return renderDiffText(diff, options);
}

} // namespace placescope
