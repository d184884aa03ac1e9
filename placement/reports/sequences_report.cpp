// SPDX-License-Identifier: MIT
// sequences (HTA's frequent CUDA kernel sequences): the kernels each framework op launched itself (the op is the
// innermost one open on the thread when the launch call started; annotations and Python frames do not count as ops),
// in launch order, grouped by (op name, kernel name sequence); the most frequent sequences of two or more kernels
// first. A sequence that repeats often is a fusion or CUDA-graph candidate.
#include "placement/reports/kernel_index.h"
#include "placement/reports/report_math.h"
#include "placement/reports/reports.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace placescope {
namespace {

constexpr size_t kMaxRows = 50;
constexpr size_t kMinLength = 2;

bool isOp(const HostRange& r)
{
    return !r.isNvtx && r.category != "user_annotation" && r.category != "python_function" && r.category != "Python";
}

struct SequenceTotals
{
    int64_t count = 0, kernels = 0, kernelNs = 0;
};

} // namespace

ReportTable sequencesReport(const ReportContext& ctx)
{
    const TraceData& trace = ctx.trace();
    const auto byThread = kernelsByLaunchingThread(ctx);
    std::unordered_map<int64_t, std::vector<const HostRange*>> opsByThread;
    for (const HostRange& r : trace.hostRanges)
        if (isOp(r))
            opsByThread[r.globalTid].push_back(&r);
    std::map<std::pair<std::string, std::string>, SequenceTotals> groups; // (op, "k1 -> k2 -> ...")
    for (const auto& [tid, index] : byThread) {
        auto opsIt = opsByThread.find(tid);
        if (opsIt == opsByThread.end())
            continue;
        const std::vector<const HostRange*>& ops = opsIt->second; // by start
        // Sweep the launches in time order with the stack of ops open at each; consecutive launches of one op
        // instance form its sequence.
        std::vector<const HostRange*> open;
        size_t nextOp = 0;
        const HostRange* current = nullptr;
        std::string sequence;
        int64_t length = 0, kernelNs = 0;
        auto flush = [&] {
            if (current && length >= static_cast<int64_t>(kMinLength) && ctx.hostInScope(tid, current->startNs)) {
                SequenceTotals& t = groups[{ trace.name(current->nameId), sequence }];
                ++t.count;
                t.kernels = length;
                t.kernelNs += kernelNs;
            }
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
    std::vector<std::pair<std::pair<std::string, std::string>, SequenceTotals>> rows(groups.begin(), groups.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.second.count != b.second.count ? a.second.count > b.second.count : a.second.kernelNs > b.second.kernelNs;
    });
    ReportTable table;
    table.title = "Most frequent kernel sequences launched by one framework op";
    table.columns = { { "count", "Count", ColumnKind::Count },
                      { "kernels", "Kernels", ColumnKind::Count },
                      { "kernel_total_ns", "Kernel total", ColumnKind::Ns },
                      { "kernel_mean_ns", "Per occurrence", ColumnKind::Ns },
                      { "op", "Op", ColumnKind::Text },
                      { "sequence", "Sequence", ColumnKind::Text } };
    for (size_t i = 0; i < std::min(kMaxRows, rows.size()); ++i) {
        const auto& [key, t] = rows[i];
        table.rows.push_back({ t.count, t.kernels, t.kernelNs, roundedMean(t.kernelNs, t.count), key.first, key.second });
    }
    if (rows.size() > kMaxRows)
        table.notes.push_back(std::to_string(rows.size() - kMaxRows) + " less frequent sequence(s) not shown");
    if (rows.empty())
        table.notes.push_back("no framework op launched two or more kernels (the trace needs framework ops linked to "
                              "their launch calls)");
    return table;
}

} // namespace placescope
