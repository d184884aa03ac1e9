// SPDX-License-Identifier: MIT
// sequences (HTA's frequent CUDA kernel sequences): kernel sequences in launch order grouped by (op name, kernel
// name sequence), the most frequent first. A sequence that repeats often is a fusion or CUDA-graph candidate.
// Two ways to cut sequences:
// - by default, the kernels each framework op launched itself: the op is the innermost one open on the thread when the
//   launch call started (annotations and Python frames do not count as ops);
// - with ReportOptions::op, as HTA's operator_name: every host range whose name contains the text (ops, annotations,
//   NVTX) and that no other matching range on its thread encloses is one occurrence, with every kernel launched on
//   its thread while it ran, the ones its child ops launched included.
// Sequences shorter than ReportOptions::minLength (HTA's min_pattern_len; default 2) are left out.
#include "analysis/reports/kernel_index.h"
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace placescope {
namespace {

constexpr size_t kMaxRows = 50;
constexpr int64_t kDefaultMinLength = 2;

bool isOp(const HostRange& r)
{
    return !r.isNvtx && r.category != "user_annotation" && r.category != "python_function" && r.category != "Python";
}

struct SequenceTotals
{
    int64_t count = 0, kernels = 0, kernelNs = 0, opNs = 0;
};

using Groups = std::map<std::pair<std::string, std::string>, SequenceTotals>; // (op, "k1 -> k2 -> ...")

void addOccurrence(
    Groups& groups, const std::string& op, const std::string& sequence, int64_t length, int64_t kernelNs, int64_t opNs)
{
    SequenceTotals& t = groups[{ op, sequence }];
    ++t.count;
    t.kernels = length;
    t.kernelNs += kernelNs;
    t.opNs += opNs;
}

// Default: consecutive launches whose innermost open op is the same op instance form that instance's sequence.
void innermostOpSequences(const ReportContext& ctx, int64_t tid, const KernelIndex& index,
    const std::vector<const HostRange*>& ops, int64_t minLength, Groups& groups)
{
    std::vector<const HostRange*> open;
    size_t nextOp = 0;
    const HostRange* current = nullptr;
    std::string sequence;
    int64_t length = 0, kernelNs = 0;
    auto flush = [&] {
        if (current && length >= minLength && ctx.hostInScope(tid, current->startNs))
            addOccurrence(groups, ctx.trace().name(current->nameId), sequence, length, kernelNs,
                current->endNs - current->startNs);
        sequence.clear();
        length = kernelNs = 0;
    };
    for (size_t i = 0; i < index.at.size(); ++i) {
        const int64_t t = index.at[i];
        while (nextOp < ops.size() && ops[nextOp]->startNs <= t) {
            while (!open.empty() && open.back()->endNs <= ops[nextOp]->startNs)
                open.pop_back();
            open.push_back(ops[nextOp++]);
        }
        while (!open.empty() && open.back()->endNs <= t)
            open.pop_back();
        const HostRange* owner = open.empty() ? nullptr : open.back();
        if (owner != current) {
            flush();
            current = owner;
        }
        sequence += (length ? " -> " : "") + ctx.kernelName(index.ops[i]->nameId);
        ++length;
        kernelNs += index.ops[i]->durationNs();
    }
    flush();
}

// With an op name: each outermost matching range and every kernel launched on its thread while it ran.
void matchingRangeSequences(const ReportContext& ctx, int64_t tid, const KernelIndex& index,
    const std::vector<const HostRange*>& ranges, int64_t minLength, Groups& groups)
{
    int64_t enclosingEnd = INT64_MIN; // end of the last outermost match: a match starting before it is inside it
    for (const HostRange* r : ranges) {
        if (r->startNs < enclosingEnd)
            continue;
        enclosingEnd = r->endNs;
        const auto [first, last] = index.range(r->startNs, r->endNs);
        const int64_t length = static_cast<int64_t>(last - first);
        if (length < minLength || !ctx.hostInScope(tid, r->startNs))
            continue;
        std::string sequence;
        for (size_t i = first; i < last; ++i)
            sequence += (i > first ? " -> " : "") + ctx.kernelName(index.ops[i]->nameId);
        addOccurrence(groups, ctx.trace().name(r->nameId), sequence, length,
            index.cumulative[last] - index.cumulative[first], r->endNs - r->startNs);
    }
}

} // namespace

ReportTable sequencesReport(const ReportContext& ctx)
{
    const TraceData& trace = ctx.trace();
    const std::string& opFilter = ctx.options().op;
    const int64_t minLength = ctx.options().minLength > 0 ? ctx.options().minLength : kDefaultMinLength;
    const auto byThread = kernelsByLaunchingThread(ctx);
    std::unordered_map<int64_t, std::vector<const HostRange*>> rangesByThread; // by start, as hostRanges
    for (const HostRange& r : trace.hostRanges)
        if (opFilter.empty() ? isOp(r) : trace.name(r.nameId).find(opFilter) != std::string::npos)
            rangesByThread[r.globalTid].push_back(&r);
    Groups groups;
    for (const auto& [tid, index] : byThread) {
        auto ranges = rangesByThread.find(tid);
        if (ranges == rangesByThread.end())
            continue;
        if (opFilter.empty())
            innermostOpSequences(ctx, tid, index, ranges->second, minLength, groups);
        else
            matchingRangeSequences(ctx, tid, index, ranges->second, minLength, groups);
    }
    std::vector<std::pair<std::pair<std::string, std::string>, SequenceTotals>> rows(groups.begin(), groups.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.second.count != b.second.count ? a.second.count > b.second.count
                                                : a.second.kernelNs > b.second.kernelNs;
    });
    ReportTable table;
    table.title = opFilter.empty() ? "Most frequent kernel sequences launched by one framework op"
                                   : "Most frequent kernel sequences launched inside ops named like '" + opFilter + "'";
    table.columns = { { "count", "Count", ColumnKind::Count }, { "kernels", "Kernels", ColumnKind::Count },
        { "kernel_total_ns", "Kernel total", ColumnKind::Ns }, { "kernel_mean_ns", "Per occurrence", ColumnKind::Ns },
        { "op_total_ns", "Op total", ColumnKind::Ns }, { "op", "Op", ColumnKind::Text },
        { "sequence", "Sequence", ColumnKind::Text } };
    for (size_t i = 0; i < std::min(kMaxRows, rows.size()); ++i) {
        const auto& [key, t] = rows[i];
        table.rows.push_back(
            { t.count, t.kernels, t.kernelNs, roundedMean(t.kernelNs, t.count), t.opNs, key.first, key.second });
    }
    if (rows.size() > kMaxRows)
        table.notes.push_back(std::to_string(rows.size() - kMaxRows) + " less frequent sequence(s) not shown");
    if (rows.empty() && opFilter.empty())
        table.notes.push_back("no framework op launched " + std::to_string(minLength)
            + " or more kernels (the trace "
              "needs framework ops linked to their launch calls)");
    else if (rows.empty())
        table.notes.push_back("no host range whose name contains '" + opFilter + "' launched "
            + std::to_string(minLength) + " or more kernels");
    else
        table.notes.push_back("sequences of " + std::to_string(minLength) + " or more kernels"
            + (opFilter.empty() ? ", each launched by one op itself"
                                : ", each every kernel launched inside one outermost '" + opFilter + "' range"));
    return table;
}

} // namespace placescope
