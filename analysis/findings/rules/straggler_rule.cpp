// SPDX-License-Identifier: MIT
// Stragglers in multi-rank traces: per rank, the compute (non-communication kernel) time per step; a rank
// more than 10 % above the median makes every other rank wait in its collectives. Saving: the slowest
// rank's excess over the median per step (what the others wait).
#include "analysis/findings/rules/rules.h"
#include "profiler/base/units.h"

#include <algorithm>

namespace placescope {
namespace {

class StragglerRule final : public FindingRule
{
public:
    std::string_view id() const override { return "multi_rank.straggler"; }
    std::string_view description() const override { return "ranks slower than the others"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        struct RankTime
        {
            const DeviceLane* lane;
            double perStepNs;
        };
        std::vector<RankTime> ranks;
        for (const auto& lane : ctx.timeline.lanes) {
            int64_t steps = 0;
            for (const auto& s : ctx.steps.steps)
                steps += s.globalPid == lane.globalPid;
            if (steps == 0)
                steps = std::max<int64_t>(1, ctx.steps.count());
            ranks.push_back({ &lane, static_cast<double>(totalLength(lane.computeBusy)) / static_cast<double>(steps) });
        }
        if (ranks.size() < 2)
            return;
        std::sort(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) { return a.perStepNs < b.perStepNs; });
        double median = ranks[ranks.size() / 2].perStepNs;
        if (ranks.size() % 2 == 0)
            median = (ranks[ranks.size() / 2 - 1].perStepNs + ranks[ranks.size() / 2].perStepNs) / 2;
        const RankTime& slowest = ranks.back();
        if (median <= 0 || slowest.perStepNs < median * (1.0 + ctx.options.stragglerPercent / 100.0))
            return;
        Finding f;
        f.ruleId = "multi_rank.straggler";
        f.title = slowest.lane->label + " is a straggler";
        double excess = 100.0 * (slowest.perStepNs - median) / median;
        f.severity = severityForShare(excess, ctx.options.stragglerPercent, 30.0);
        f.summary = slowest.lane->label + " computes " + formatPercent(excess)
            + " longer per step than the median rank (" + formatNanoseconds(slowest.perStepNs) + " vs "
            + formatNanoseconds(median) + "); the other ranks wait for it in every collective.";
        for (const auto& r : ranks)
            f.evidence.push_back(
                { r.lane->label + ": compute kernel time per step", 1, static_cast<int64_t>(r.perStepNs) });
        f.saving.perStepMs = (slowest.perStepNs - median) / 1e6;
        double stepNs
            = ctx.steps.count() ? static_cast<double>(ctx.steps.totalNs()) / static_cast<double>(ctx.steps.count()) : 0;
        f.saving.percentOfStep = stepNs > 0 ? 100.0 * (slowest.perStepNs - median) / stepNs : 0.0;
        f.saving.method = "the slowest rank's compute time per step minus the median rank's: the time the other ranks "
                          "wait in collectives";
        f.fix = { "balance the work per rank (uneven sequence lengths: bucket/sort by length; uneven data shards); "
                  "check the slow rank's GPU clocks/thermals and its host (data loading, CPU affinity)",
            "use tf.distribute with even per-replica batches; check input pipeline speed per worker",
            "give each process the same batch shape; pin each session to its own GPU and CPU cores",
            "give every device an equal shard (the same batch shape in every process); check the slow host's input "
            "pipeline and its GPU clocks" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makeStragglerRule() { return std::make_unique<StragglerRule>(); }

} // namespace placescope
