// SPDX-License-Identifier: MIT
#include "analysis/diff/run_diff.h"

#include "analysis/trace/kernel_class.h"
#include "analysis/trace/run_comparability.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>

namespace placescope {

const char* changeName(Change change)
{
    switch (change) {
    case Change::Same:
        return "same";
    case Change::Changed:
        return "changed";
    case Change::Added:
        return "added";
    case Change::Removed:
        return "removed";
    }
    return "same";
}

const char* findingKindName(FindingDiff::Kind kind)
{
    switch (kind) {
    case FindingDiff::Kind::Resolved:
        return "resolved";
    case FindingDiff::Kind::New:
        return "new";
    case FindingDiff::Kind::Changed:
        return "changed";
    case FindingDiff::Kind::Unchanged:
        return "unchanged";
    }
    return "unchanged";
}

std::string savingBasis(const FindingDiff& f)
{
    auto basis = [](bool inRun, bool simulated) { return !inRun ? "-" : simulated ? "simulated" : "estimate"; };
    return std::string(basis(f.kind != FindingDiff::Kind::New, f.simulatedA)) + " / "
        + basis(f.kind != FindingDiff::Kind::Resolved, f.simulatedB);
}

Change DeltaRow::change() const
{
    if (countA == 0 && countB > 0)
        return Change::Added;
    if (countB == 0 && countA > 0)
        return Change::Removed;
    return countA == countB && nsA == nsB && bytesA == bytesB ? Change::Same : Change::Changed;
}

double RunDiff::shareOfStepDelta(int64_t deltaNs) const
{
    const int64_t step = stepDeltaNs();
    return step == 0 ? std::numeric_limits<double>::quiet_NaN()
                     : static_cast<double>(deltaNs) / static_cast<double>(step);
}

double RunDiff::shareOfComparedDelta(int64_t deltaNs) const
{
    const int64_t step = comparedNsB - comparedNsA;
    return step == 0 ? std::numeric_limits<double>::quiet_NaN()
                     : static_cast<double>(deltaNs) / static_cast<double>(step);
}

namespace {

void sortByDelta(std::vector<DeltaRow>& rows)
{
    std::sort(rows.begin(), rows.end(), [](const DeltaRow& x, const DeltaRow& y) {
        const int64_t dx = std::llabs(x.deltaNs()), dy = std::llabs(y.deltaNs());
        if (dx != dy)
            return dx > dy;
        if (std::llabs(x.countB - x.countA) != std::llabs(y.countB - y.countA))
            return std::llabs(x.countB - x.countA) > std::llabs(y.countB - y.countA);
        return x.name < y.name;
    });
}

GroupTable kernelTable(const KernelSummary& summary)
{
    GroupTable table;
    for (const KernelSummaryRow& row : summary.rows) {
        GroupTotal& total = table[row.name];
        total.count += row.time.count;
        total.ns += row.time.totalNs;
    }
    return table;
}

GroupTable sumSteps(const EventGroups& groups, const std::vector<size_t>& positions)
{
    GroupTable sum;
    for (size_t p : positions)
        if (p < groups.perStep.size())
            for (const auto& [name, total] : groups.perStep[p]) {
                sum[name].count += total.count;
                sum[name].ns += total.ns;
            }
    return sum;
}

GroupDiff diffGroups(DiffGrouping grouping, const GroupTable& wholeA, const GroupTable& wholeB, const EventGroups& a,
    const EventGroups& b, const std::vector<size_t>& compared, bool allSteps)
{
    GroupDiff diff;
    diff.grouping = grouping;
    diff.whole = diffTables(wholeA, wholeB);
    diff.inSteps = diffTables(sumSteps(a, compared), sumSteps(b, compared));
    if (allSteps)
        for (size_t p : compared)
            diff.perStep.push_back(diffTables(sumSteps(a, { p }), sumSteps(b, { p })));
    diff.outsideA = a.outside;
    diff.outsideB = b.outside;
    diff.afterLastA = a.afterLast;
    diff.afterLastB = b.afterLast;
    return diff;
}

// Each run's GPU ids in the pairing's order (by id; the analyzer and stats list devices in id order within a rank).
std::vector<int64_t> deviceIdsOf(const RunProfile& run)
{
    std::vector<int64_t> ids;
    for (const DeviceUtilization& d : run.stats.devices)
        ids.push_back(d.deviceId);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

// The after-run's GPU id paired with each of the before-run's: identity by id; by position, the i-th with the i-th.
// Returns the map (before id -> after id) and says the pairing in the notes when it is not by id.
std::map<int64_t, int64_t> pairDevices(RunDiff& diff, const RunProfile& a, const RunProfile& b, DevicePairing pairing)
{
    const std::vector<int64_t> idsA = deviceIdsOf(a), idsB = deviceIdsOf(b);
    const bool byPosition = pairing == DevicePairing::ByPosition
        || (pairing == DevicePairing::Auto && idsA.size() == idsB.size() && idsA != idsB);
    std::map<int64_t, int64_t> map;
    if (!byPosition || idsA == idsB) {
        for (int64_t id : idsA)
            map[id] = id;
        return map;
    }
    std::string pairs;
    for (size_t i = 0; i < std::min(idsA.size(), idsB.size()); ++i) {
        map[idsA[i]] = idsB[i];
        pairs += (pairs.empty() ? "" : ", ") + ("GPU " + std::to_string(idsA[i])) + " with GPU "
            + std::to_string(idsB[i]);
    }
    diff.notes.push_back("the runs' GPU ids differ, so their GPUs are paired by position (" + pairs
        + "); --devices id pairs them by id instead");
    return map;
}

// "GPU 3" (by id) or "GPU 3 / GPU 1" (paired by position).
std::string pairedGpuLabel(int64_t idA, int64_t idB)
{
    return idA == idB ? "GPU " + std::to_string(idA) : "GPU " + std::to_string(idA) + " / GPU " + std::to_string(idB);
}

void addFigures(RunDiff& diff, const RunProfile& a, const RunProfile& b, DevicePairing pairing)
{
    const std::map<int64_t, int64_t> paired = pairDevices(diff, a, b, pairing);
    // A before-run device id as the after-run calls it (unpaired ids stay themselves and so stay apart).
    auto inB = [&](int64_t idA) {
        const auto it = paired.find(idA);
        return it == paired.end() ? idA : it->second;
    };
    using Unit = Figure::Unit;
    diff.figures.push_back({ "Step", "mean step time", diff.meanStepNsA, diff.meanStepNsB, Unit::Ns, 1, 1 });
    diff.figures.push_back({ "Trace", "span", diff.spanNsA, diff.spanNsB, Unit::Ns, 0, 0 });
    diff.figures.push_back(
        { "Trace", "kernel time (summed)", a.stats.kernels.totalNs, b.stats.kernels.totalNs, Unit::Ns, 0, 0 });
    diff.figures.push_back(
        { "Trace", "kernels", a.stats.kernels.kernelCount, b.stats.kernels.kernelCount, Unit::Count, 0, 0 });

    // GPU busy and idle by cause over the steps, per device lane (the analyzer's breakdown), paired by label.
    // Lane labels end in their GPU ("GPU 3", "rank 1 GPU 3"): a paired lane of either run is named after both ids.
    std::map<int64_t, int64_t> idAOf; // after-run id -> before-run id, where paired
    for (const auto& [idA, idB] : paired)
        idAOf[idB] = idA;
    auto laneLabel = [&](const std::string& label, bool before) {
        const size_t at = label.rfind("GPU ");
        if (at == std::string::npos || label.find_first_not_of("0123456789", at + 4) != std::string::npos)
            return label;
        const int64_t id = std::strtoll(label.c_str() + at + 4, nullptr, 10);
        int64_t idA = id, idB = id;
        if (before)
            idB = inB(id);
        else if (const auto it = idAOf.find(id); it != idAOf.end())
            idA = it->second;
        return label.substr(0, at) + pairedGpuLabel(idA, idB);
    };
    std::map<std::string, std::pair<const DeviceBreakdown*, const DeviceBreakdown*>> lanes;
    for (const DeviceBreakdown& d : a.analysis.devices)
        lanes[laneLabel(d.label, true)].first = &d;
    for (const DeviceBreakdown& d : b.analysis.devices)
        lanes[laneLabel(d.label, false)].second = &d;
    const int64_t stepsA = std::max<int64_t>(1, a.analysis.stepCount),
                  stepsB = std::max<int64_t>(1, b.analysis.stepCount);
    for (const auto& [label, pair] : lanes) {
        const DeviceBreakdown none;
        const DeviceBreakdown& x = pair.first ? *pair.first : none;
        const DeviceBreakdown& y = pair.second ? *pair.second : none;
        const std::string section = label + " over the steps";
        auto add = [&](const std::string& name, int64_t va, int64_t vb) {
            diff.figures.push_back({ section, name, va, vb, Unit::Ns, stepsA, stepsB });
        };
        add("analysed window", x.windowNs, y.windowNs);
        add("busy: compute", x.computeNs, y.computeNs);
        add("busy: communication", x.commNs, y.commNs);
        add("busy: copies only", x.copyOnlyNs, y.copyOnlyNs);
        add("idle", x.idleNs, y.idleNs);
        for (int c = 0; c < kIdleCauseCount; ++c)
            add("idle: " + std::string(idleCauseName(static_cast<IdleCause>(c))), x.idleCauseNs[c], y.idleCauseNs[c]);
    }

    // GPU busy time over the whole trace (profiler/stats, as `placescope stats` prints it), paired by device id.
    // Keyed by the after-run's id; the label names both ids where they differ.
    std::map<int64_t, std::pair<int64_t, int64_t>> busy;
    auto labelOf = [&](int64_t idB) {
        const auto it = idAOf.find(idB);
        return pairedGpuLabel(it == idAOf.end() ? idB : it->second, idB);
    };
    for (const DeviceUtilization& d : a.stats.devices)
        busy[inB(d.deviceId)].first = d.busyNs;
    for (const DeviceUtilization& d : b.stats.devices)
        busy[d.deviceId].second = d.busyNs;
    for (const auto& [device, pair] : busy)
        diff.figures.push_back({ "GPU busy, whole trace", labelOf(device), pair.first, pair.second, Unit::Ns, 0, 0 });

    // Peak memory per device from the analyzer's memory curves (each bucket keeps its maximum).
    std::map<int64_t, std::pair<MemoryPoint, MemoryPoint>> peaks;
    auto peakOf = [](const MemoryCurve& curve) {
        MemoryPoint peak;
        for (const MemoryPoint& p : curve.points) {
            peak.allocated = std::max(peak.allocated, p.allocated);
            peak.reserved = std::max(peak.reserved, p.reserved);
        }
        return peak;
    };
    for (const MemoryCurve& c : a.analysis.memory)
        peaks[inB(c.deviceId)].first = peakOf(c);
    for (const MemoryCurve& c : b.analysis.memory)
        peaks[c.deviceId].second = peakOf(c);
    for (const auto& [device, pair] : peaks) {
        const std::string section = "Peak memory, " + labelOf(device);
        diff.figures.push_back(
            { section, "allocated", pair.first.allocated, pair.second.allocated, Unit::Bytes, 0, 0 });
        diff.figures.push_back({ section, "reserved", pair.first.reserved, pair.second.reserved, Unit::Bytes, 0, 0 });
    }
}

std::vector<DeltaRow> diffCopies(const RunProfile& a, const RunProfile& b)
{
    std::map<std::string, DeltaRow> rows;
    auto add = [&](const std::vector<MemoryOpRow>& ops, bool before) {
        for (const MemoryOpRow& op : ops) {
            DeltaRow& row = rows[op.operation + " (" + op.memoryTypes + ")"];
            (before ? row.countA : row.countB) += op.time.count;
            (before ? row.nsA : row.nsB) += op.time.totalNs;
            (before ? row.bytesA : row.bytesB) += op.totalBytes;
        }
    };
    add(a.stats.memoryOps, true);
    add(b.stats.memoryOps, false);
    std::vector<DeltaRow> out;
    for (auto& [name, row] : rows) {
        row.name = name;
        out.push_back(row);
    }
    sortByDelta(out);
    return out;
}

// Findings matched by rule id, in the analyzer's order within a rule.
std::vector<FindingDiff> diffFindings(const std::vector<Finding>& a, const std::vector<Finding>& b)
{
    std::vector<FindingDiff> out;
    std::vector<bool> used(b.size(), false);
    auto setA = [](FindingDiff& d, const Finding& f) {
        d.savingMsA = f.saving.rankingMs();
        d.estimatedMsA = f.saving.perStepMs;
        d.simulatedA = f.saving.simulated;
    };
    auto setB = [](FindingDiff& d, const Finding& f) {
        d.title = f.title;
        d.savingMsB = f.saving.rankingMs();
        d.estimatedMsB = f.saving.perStepMs;
        d.simulatedB = f.saving.simulated;
    };
    for (const Finding& fa : a) {
        FindingDiff d;
        d.ruleId = fa.ruleId;
        d.title = fa.title;
        setA(d, fa);
        d.kind = FindingDiff::Kind::Resolved;
        for (size_t j = 0; j < b.size(); ++j)
            if (!used[j] && b[j].ruleId == fa.ruleId) {
                used[j] = true;
                setB(d, b[j]);
                d.kind = d.savingMsA == d.savingMsB ? FindingDiff::Kind::Unchanged : FindingDiff::Kind::Changed;
                break;
            }
        out.push_back(std::move(d));
    }
    for (size_t j = 0; j < b.size(); ++j)
        if (!used[j]) {
            FindingDiff d;
            d.kind = FindingDiff::Kind::New;
            d.ruleId = b[j].ruleId;
            setB(d, b[j]);
            out.push_back(std::move(d));
        }
    std::stable_sort(
        out.begin(), out.end(), [](const FindingDiff& x, const FindingDiff& y) { return x.kind < y.kind; });
    return out;
}

std::string predictionText(const PredictionSource& p)
{
    return "whatif's prediction from " + (p.from.empty() ? std::string("an unnamed run") : p.from) + " with "
        + (p.edits.empty() ? std::string("no edit recorded") : p.edits);
}

// The class rows of the diff, in the classification's order, as predicted / measured.
std::vector<PredictionError::Class> classErrors(const GroupDiff& classes, bool predictedIsA)
{
    std::vector<PredictionError::Class> out;
    for (int c = 0; c < kGpuWorkClassCount; ++c) {
        const std::string name(gpuWorkClassName(static_cast<GpuWorkClass>(c)));
        auto find = [&](const std::vector<DeltaRow>& rows) {
            auto it = std::find_if(rows.begin(), rows.end(), [&](const DeltaRow& r) { return r.name == name; });
            return it == rows.end() ? DeltaRow {} : *it;
        };
        const DeltaRow inSteps = find(classes.inSteps), whole = find(classes.whole);
        if (whole.countA == 0 && whole.countB == 0)
            continue;
        PredictionError::Class row;
        row.name = name;
        row.predictedCount = predictedIsA ? inSteps.countA : inSteps.countB;
        row.measuredCount = predictedIsA ? inSteps.countB : inSteps.countA;
        row.predictedNs = predictedIsA ? inSteps.nsA : inSteps.nsB;
        row.measuredNs = predictedIsA ? inSteps.nsB : inSteps.nsA;
        row.wholePredictedNs = predictedIsA ? whole.nsA : whole.nsB;
        row.wholeMeasuredNs = predictedIsA ? whole.nsB : whole.nsA;
        out.push_back(std::move(row));
    }
    return out;
}

// A prediction beside a measured run: the prediction's error, unless the measured run is the one it was predicted
// from (then the deltas are the edits' predicted effect, and calling them an error would mislead).
void addPrediction(RunDiff& diff, const RunProfile& a, const RunProfile& b)
{
    diff.predictionA = a.prediction;
    diff.predictionB = b.prediction;
    if (a.prediction && b.prediction) {
        diff.notes.push_back("both runs are predictions (A: " + predictionText(*a.prediction)
            + "; B: " + predictionText(*b.prediction) + ")");
        return;
    }
    if (!a.prediction && !b.prediction)
        return;
    const bool predictedIsA = a.prediction.has_value();
    const RunProfile& predicted = predictedIsA ? a : b;
    const RunProfile& measured = predictedIsA ? b : a;
    const char* predictedSide = predictedIsA ? "A" : "B";
    const char* measuredSide = predictedIsA ? "B" : "A";
    if (!predicted.prediction->from.empty()
        && std::filesystem::path(measured.path).filename().string() == predicted.prediction->from) {
        diff.notes.push_back(std::string(predictedSide) + " is " + predictionText(*predicted.prediction) + ", and "
            + measuredSide
            + " is the run it was predicted from: the deltas are what the edits are "
              "predicted to change, not an error");
        return;
    }
    diff.notes.push_back(std::string("comparing a prediction with a measured run: ") + predictedSide + " is "
        + predictionText(*predicted.prediction) + "; " + measuredSide
        + " is measured; prediction error = predicted - measured");
    PredictionError error;
    error.predictedIsA = predictedIsA;
    error.predictedNs = predicted.meanStepNs();
    error.measuredNs = measured.meanStepNs();
    for (size_t p : diff.compared)
        error.steps.push_back({ p, predicted.stepDurationNs[p], measured.stepDurationNs[p] });
    error.kernelPredictedNs = predicted.stats.kernels.totalNs;
    error.kernelMeasuredNs = measured.stats.kernels.totalNs;
    error.classes = classErrors(diff.classes, predictedIsA);
    error.band.spread = predicted.prediction->stepSpread;
    error.measuredBand = stepBandOf(measured.stepDurationNs);
    error.verdict = judgeMeasured(error.band, error.predictedNs, error.measuredBand, error.measuredNs);
    diff.notes.push_back(!error.band.known()
            ? std::string("the prediction has no band (its run had too few steps to measure their variation)")
            : "the measured mean step is " + bandVerdictText(error.verdict, error.measuredBand)
                + " (steps of the run it was predicted from vary +-" + formatPercentFixed(100.0 * error.band.spread, 1)
                + ")");
    diff.predictionError = std::move(error);
}

std::string countText(int64_t n, const char* noun) { return std::to_string(n) + " " + noun; }

void addNotes(RunDiff& diff, const RunProfile& a, const RunProfile& b, const DiffOptions& options)
{
    if (!diff.gpuA.empty() && !diff.gpuB.empty() && diff.gpuA != diff.gpuB)
        diff.notes.push_back("the runs are on different GPUs (" + diff.gpuA + " / " + diff.gpuB
            + "): times are compared as measured, not scaled");
    std::vector<std::string> kernelsA, kernelsB; // names, sorted (the rows are unique by name)
    for (const DeltaRow& row : diff.kernels.whole) {
        if (row.countA > 0)
            kernelsA.push_back(row.name);
        if (row.countB > 0)
            kernelsB.push_back(row.name);
    }
    std::sort(kernelsA.begin(), kernelsA.end());
    std::sort(kernelsB.begin(), kernelsB.end());
    if (auto mismatch = kernelSetMismatch(kernelsA, kernelsB))
        diff.notes.push_back("the runs may not be comparable: " + *mismatch);
    if (diff.stepSourceA != diff.stepSourceB)
        diff.notes.push_back(
            "steps were found differently (" + a.analysis.stepDescription + " / " + b.analysis.stepDescription + ")");
    if (diff.stepCountA != diff.stepCountB && !options.step)
        diff.notes.push_back("the runs have " + std::to_string(diff.stepCountA) + " and "
            + std::to_string(diff.stepCountB) + " steps: the in-step tables compare the first "
            + std::to_string(diff.compared.size()));
    auto outside = [&](const GroupDiff& g, const char* noun) {
        if (g.outsideA.count == 0 && g.outsideB.count == 0)
            return;
        diff.notes.push_back(countText(g.outsideA.count, noun) + " / " + countText(g.outsideB.count, noun)
            + " ran outside every step (" + std::to_string(g.afterLastA.count) + " / "
            + std::to_string(g.afterLastB.count)
            + " after the last step): in the whole-trace table, not in the in-step one");
    };
    outside(diff.kernels, "kernels");
    if (diff.extra)
        outside(*diff.extra, groupingKey(diff.extra->grouping));
}

} // namespace

std::vector<DeltaRow> diffTables(const GroupTable& a, const GroupTable& b)
{
    std::vector<DeltaRow> rows;
    rows.reserve(std::max(a.size(), b.size()));
    for (const auto& [name, total] : a) {
        DeltaRow row;
        row.name = name;
        row.countA = total.count;
        row.nsA = total.ns;
        if (auto it = b.find(name); it != b.end()) {
            row.countB = it->second.count;
            row.nsB = it->second.ns;
        }
        rows.push_back(std::move(row));
    }
    for (const auto& [name, total] : b)
        if (!a.count(name)) {
            DeltaRow row;
            row.name = name;
            row.countB = total.count;
            row.nsB = total.ns;
            rows.push_back(std::move(row));
        }
    sortByDelta(rows);
    return rows;
}

bool parseDevicePairing(const std::string& text, DevicePairing& pairing)
{
    if (text == "auto")
        pairing = DevicePairing::Auto;
    else if (text == "id")
        pairing = DevicePairing::ById;
    else if (text == "position")
        pairing = DevicePairing::ByPosition;
    else
        return false;
    return true;
}

Result<RunDiff> diffRuns(const RunProfile& a, const RunProfile& b, const DiffOptions& options)
{
    RunDiff diff;
    diff.pathA = a.path;
    diff.pathB = b.path;
    diff.gpuA = a.gpuName();
    diff.gpuB = b.gpuName();
    diff.stepSourceA = a.analysis.stepSource;
    diff.stepSourceB = b.analysis.stepSource;
    diff.stepCountA = a.analysis.stepCount;
    diff.stepCountB = b.analysis.stepCount;
    diff.meanStepNsA = a.meanStepNs();
    diff.meanStepNsB = b.meanStepNs();
    diff.spanNsA = a.stats.span.durationNs();
    diff.spanNsB = b.stats.span.durationNs();

    const size_t stepsA = a.stepDurationNs.size(), stepsB = b.stepDurationNs.size();
    for (size_t p = 0; p < std::max(stepsA, stepsB); ++p) {
        StepPair pair;
        pair.position = p;
        if (p < stepsA) {
            pair.numberA = a.stepNumbers[p];
            pair.nsA = a.stepDurationNs[p];
        }
        if (p < stepsB) {
            pair.numberB = b.stepNumbers[p];
            pair.nsB = b.stepDurationNs[p];
        }
        diff.steps.push_back(pair);
    }
    if (options.step) {
        if (*options.step >= std::min(stepsA, stepsB))
            return Status::error("--step " + std::to_string(*options.step) + ": the runs have " + std::to_string(stepsA)
                + " and " + std::to_string(stepsB) + " steps (positions from 0)");
        diff.compared.push_back(*options.step);
    } else {
        for (size_t p = 0; p < std::min(stepsA, stepsB); ++p)
            diff.compared.push_back(p);
    }
    for (size_t p : diff.compared) {
        diff.comparedNsA += a.stepDurationNs[p];
        diff.comparedNsB += b.stepDurationNs[p];
    }

    addFigures(diff, a, b, options.devices);
    diff.copies = diffCopies(a, b);
    diff.kernels = diffGroups(DiffGrouping::Kernel, kernelTable(a.stats.kernels), kernelTable(b.stats.kernels),
        a.kernels, b.kernels, diff.compared, options.allSteps);
    diff.classes = diffGroups(
        DiffGrouping::Class, a.classes.whole, b.classes.whole, a.classes, b.classes, diff.compared, options.allSteps);
    if (a.extra && b.extra)
        diff.extra = diffGroups(options.by.value_or(DiffGrouping::Kernel), a.extra->whole, b.extra->whole, *a.extra,
            *b.extra, diff.compared, options.allSteps);
    diff.findings = diffFindings(a.analysis.findings, b.analysis.findings);
    addPrediction(diff, a, b);
    addNotes(diff, a, b, options);
    return diff;
}

} // namespace placescope
