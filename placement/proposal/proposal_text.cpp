// SPDX-License-Identifier: MIT
// The readable proposal: short sections, largest effects first, long lists cut with a count of what is left.
#include "placement/proposal/model_proposal.h"

#include "analysis/findings/finding_rule.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>

namespace placescope {
namespace {

constexpr size_t kListLimit = 20;

void appendf(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& out, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    const int length = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    if (length > 0) {
        std::string line(static_cast<size_t>(length) + 1, '\0');
        std::vsnprintf(line.data(), line.size(), format, args);
        line.resize(static_cast<size_t>(length));
        out += line;
    }
    va_end(args);
}

std::string opLabel(const ModelProposal& p, int op) { return p.modelOpNames[op] + " (" + p.modelOpTypes[op] + ")"; }

void placementSection(const ModelProposal& p, std::string& out)
{
    int computeOps = 0, onGpu = 0;
    for (const OpDecision& d : p.ops) {
        if (d.graphOp < 0)
            continue;
        ++computeOps;
        onGpu += d.device == 1;
    }
    appendf(out, "Placement (%d ops: %d on %s, %d on %s)\n", computeOps, onGpu, p.deviceNames[1].c_str(),
        computeOps - onGpu, p.deviceNames[0].c_str());
    size_t shown = 0;
    for (const DeviceRun& run : p.runs) {
        if (shown++ == kListLimit) {
            appendf(out, "  ... %zu more runs\n", p.runs.size() - kListLimit);
            break;
        }
        const std::string span = run.firstOp == run.lastOp
            ? p.modelOpNames[run.firstOp]
            : p.modelOpNames[run.firstOp] + " .. " + p.modelOpNames[run.lastOp];
        appendf(out, "  %-4s %4d op(s) %10s  %s  [%s]\n", p.deviceNames[run.device].c_str(), run.opCount,
            formatNanoseconds(run.costUs * 1e3).c_str(), span.c_str(), run.typeSummary.c_str());
    }

    // Ops whose device needs a word: away from the framework's default, pinned, or forced by a missing kernel.
    std::vector<const OpDecision*> notable;
    for (const OpDecision& d : p.ops)
        if (d.graphOp >= 0
            && (d.device != d.defaultDevice || d.reason == PlacementReason::Pinned
                || d.reason == PlacementReason::NoKernel))
            notable.push_back(&d);
    // Forced placements first (no kernel, pinned), then the solver's own choices.
    auto rank = [](const OpDecision* d) {
        return d->reason == PlacementReason::NoKernel ? 0 : d->reason == PlacementReason::Pinned ? 1 : 2;
    };
    std::stable_sort(
        notable.begin(), notable.end(), [&](const OpDecision* a, const OpDecision* b) { return rank(a) < rank(b); });
    if (notable.empty()) {
        appendf(out, "  every op is where the %s default puts it\n", p.context.framework.c_str());
        return;
    }
    appendf(out, "Ops placed for a reason (%zu):\n", notable.size());
    for (size_t i = 0; i < notable.size(); ++i) {
        if (i == kListLimit) {
            appendf(out, "  ... %zu more (see --json)\n", notable.size() - kListLimit);
            break;
        }
        const OpDecision& d = *notable[i];
        const char* tag = d.reason == PlacementReason::Pinned ? "pinned"
            : d.reason == PlacementReason::NoKernel           ? "no kernel"
            : d.device != d.defaultDevice                     ? "cheaper"
                                                              : "default";
        std::string moved = d.device != d.defaultDevice ? " (default " + p.deviceNames[d.defaultDevice] + ")" : "";
        appendf(out, "  %-4s %-40s %-9s %s%s\n", p.deviceNames[d.device].c_str(), opLabel(p, d.modelOp).c_str(), tag,
            d.why.c_str(), moved.c_str());
    }
}

void layoutSection(const ModelProposal& p, std::string& out)
{
    const LayoutResult& layout = p.layout;
    int flipped = 0;
    for (const LayoutRegion& region : layout.regions)
        flipped += region.chosen != region.sourceLayout;
    appendf(out, "Layout (%zu region(s), %d switched; saving %s per step)\n", layout.regions.size(), flipped,
        formatNanoseconds(layout.savingUs * 1e3).c_str());
    if (layout.gpuConvs > 0)
        appendf(out, "  %d of %d GPU convs run on tensor cores and prefer NHWC; TensorFlow's swap rule (>= 50%%) %s\n",
            layout.gpuConvsPreferringNhwc, layout.gpuConvs, layout.frameworkSwapRuleHolds ? "holds" : "does not hold");
    size_t shown = 0, quiet = 0;
    for (const LayoutRegion& region : layout.regions) {
        // A region that keeps its layout at no conversion cost says nothing: it is only counted.
        const bool interesting
            = region.chosen != region.sourceLayout || std::min(region.nchwCostUs, region.nhwcCostUs) > 0;
        if (!interesting) {
            ++quiet;
            continue;
        }
        if (shown++ >= kListLimit)
            continue;
        appendf(out, "  region %d: %zu ops from %s (layout-sensitive: %d on CPU, %d on GPU) %s\n", region.id,
            region.ops.size(), p.modelOpNames[region.ops.front()].c_str(), region.cpuOps, region.gpuOps,
            region.reason.c_str());
    }
    if (shown > kListLimit)
        appendf(out, "  ... %zu more regions (see --json)\n", shown - kListLimit);
    if (quiet)
        appendf(out, "  %zu region(s) keep their source layout with no conversion\n", quiet);
    if (!layout.added.empty()) {
        double total = 0;
        int64_t totalBytes = 0;
        for (const LayoutTranspose& t : layout.added) {
            total += t.costUs;
            totalBytes += t.bytes;
        }
        appendf(out, "  transposes added: %zu, %s, %s\n", layout.added.size(), formatBytes(totalBytes).c_str(),
            formatNanoseconds(total * 1e3).c_str());
        for (size_t i = 0; i < layout.added.size() && i < kListLimit; ++i) {
            const LayoutTranspose& t = layout.added[i];
            appendf(out, "    %s->%s on %s %s: %s, %s\n", layoutName(t.from), layoutName(t.to),
                p.deviceNames[t.device].c_str(), t.where.c_str(), formatBytes(t.bytes).c_str(),
                formatNanoseconds(t.costUs * 1e3).c_str());
        }
        if (layout.added.size() > kListLimit)
            appendf(out, "    ... %zu more\n", layout.added.size() - kListLimit);
    }
    if (!layout.removed.empty()) {
        appendf(out, "  transposes removed: %zu pair(s)\n", layout.removed.size());
        for (size_t i = 0; i < layout.removed.size() && i < kListLimit; ++i) {
            const RemovedTransposePair& r = layout.removed[i];
            appendf(out, "    %s then %s compose to the identity: %s, saves %s\n", p.modelOpNames[r.first].c_str(),
                p.modelOpNames[r.second].c_str(), r.firstRemoved ? "both go" : "the second goes",
                formatNanoseconds(r.savingUs * 1e3).c_str());
        }
    }
}

void transferSection(const ModelProposal& p, std::string& out)
{
    const Timeline& t = p.proposal.timeline;
    appendf(out, "Transfers left: %d, %s, %s\n", t.transferCount, formatBytes(t.transferredBytes).c_str(),
        formatNanoseconds(t.transferUs * 1e3).c_str());
    for (size_t i = 0; i < p.transfers.size() && i < 10; ++i) {
        const RemainingTransfer& r = p.transfers[i];
        appendf(out, "  %s -> %s  %s (%s -> %s) %s\n", p.deviceNames[r.fromDevice].c_str(),
            p.deviceNames[r.toDevice].c_str(), formatBytes(r.bytes).c_str(), r.from.c_str(), r.to.c_str(),
            formatNanoseconds(r.us * 1e3).c_str());
    }
    if (p.transfers.size() > 10)
        appendf(out, "  ... %zu more\n", p.transfers.size() - 10);
}

void comparisonSection(const ModelProposal& p, std::string& out)
{
    appendf(out, "Predicted step time (%s objective: %s)\n", objectiveKey(p.context.objective),
        objectiveMeaning(p.context.objective));
    double proposalUs = p.comparisons.empty() ? 0 : p.comparisons.front().objectiveUs;
    for (const PlacementComparison& row : p.comparisons) {
        std::string ratio;
        if (row.key != "proposal" && proposalUs > 0) {
            char text[48];
            std::snprintf(text, sizeof text, "%.2fx the proposal", row.objectiveUs / proposalUs);
            ratio = text;
        }
        appendf(out, "  %-18s %10s  transfers %3d / %9s  %s%s%s\n", row.label.c_str(),
            formatNanoseconds(row.objectiveUs * 1e3).c_str(), row.timeline.transferCount,
            formatBytes(row.timeline.transferredBytes).c_str(), ratio.c_str(),
            ratio.empty() || row.note.empty() ? "" : "; ", row.note.c_str());
    }
    for (const PlacementComparison& row : p.comparisons)
        if (row.key == "framework_default")
            appendf(out, "  %s\n", savingLine(row.label, row.objectiveUs, proposalUs).c_str());
    if (p.context.measuredStepUs)
        appendf(out, "  %-18s %10s  %s\n", "measured", formatNanoseconds(*p.context.measuredStepUs * 1e3).c_str(),
            p.context.measuredNote.c_str());
    else
        appendf(out, "  %-18s %10s  (give --trace run.sqlite to compare with a measured run)\n", "measured", "-");
}

} // namespace

std::string proposalText(const ModelProposal& p)
{
    std::string out;
    appendf(out, "Placement proposal for %s (%s graph, %s, GPU %s)\n\n", p.context.modelPath.c_str(), p.source.c_str(),
        p.context.framework.c_str(), p.context.gpu.c_str());
    placementSection(p, out);
    out += "\n";
    layoutSection(p, out);
    out += "\n";
    transferSection(p, out);
    out += "\n";
    comparisonSection(p, out);
    if (!p.assumptions.empty()) {
        out += "\nAssumptions\n";
        for (const std::string& line : p.assumptions)
            appendf(out, "  - %s\n", line.c_str());
    }
    return out;
}

} // namespace placescope
