// SPDX-License-Identifier: MIT
// Communication not overlapped with compute: NCCL/collective kernel time during which no compute kernel ran
// on the same GPU (HTA's comm/comp overlap). Reported when the exposed part exceeds 10 % of the steps (TB
// plugin's communication threshold). Saving: the exposed communication per step, an upper bound (full overlap).
#include "analysis/findings/rules/rules.h"
#include "profiler/base/units.h"

namespace placescope {
namespace {

class CommOverlapRule final : public FindingRule
{
public:
    std::string_view id() const override { return "multi_rank.comm_overlap"; }
    std::string_view description() const override { return "communication not overlapped with compute"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        int64_t commNs = 0, exposedNs = 0, windowNs = 0;
        Evidence e { "communication kernel time with no compute kernel running" };
        std::vector<EvidenceRange> ex;
        std::vector<int64_t> perLane;
        for (const auto& lane : ctx.timeline.lanes) {
            IntervalList exposed = subtractIntervals(lane.commBusy, lane.computeBusy);
            perLane.push_back(totalLength(exposed));
            commNs += totalLength(lane.commBusy);
            exposedNs += totalLength(exposed);
            windowNs += totalLength(lane.window);
            for (const auto& iv : exposed)
                ex.push_back({ iv.startNs, iv.endNs, lane.label });
        }
        if (commNs == 0 || windowNs == 0)
            return;
        double share = 100.0 * static_cast<double>(exposedNs) / static_cast<double>(windowNs);
        if (share < ctx.options.commExposedPercent)
            return;
        e.count = static_cast<int64_t>(ex.size());
        e.totalNs = exposedNs;
        addLongestExamples(e, std::move(ex));
        Finding f;
        f.ruleId = "multi_rank.comm_overlap";
        f.title = "Communication is not overlapped with compute";
        f.severity = severityForShare(share, ctx.options.commExposedPercent, 25.0);
        double overlap = 100.0 * static_cast<double>(commNs - exposedNs) / static_cast<double>(commNs);
        f.summary = "Collectives ran " + formatNanoseconds(static_cast<double>(commNs)) + ", only "
            + formatPercent(overlap) + " of it overlapped with compute; exposed communication is "
            + formatPercent(share) + " of the steps (part of it may be waiting for slower ranks).";
        f.evidence.push_back(std::move(e));
        f.evidence.push_back({ "all communication kernel time", 0, commNs });
        ctx.setLaneSaving(
            f, perLane, "exposed communication time per step and GPU; an upper bound reached only with full overlap");
        f.fix = { "DDP: tune bucket_cap_mb, gradient_as_bucket_view=True, static_graph=True; FSDP: "
                  "backward_prefetch=BACKWARD_PRE, forward_prefetch=True; gradient accumulation with no_sync()",
            "tf.distribute MultiWorkerMirroredStrategy with CommunicationOptions(bytes_per_pack=...) to overlap "
            "all-reduce with backprop; larger per-replica batches",
            "for distributed inference keep collectives on a separate stream and batch requests; "
            "ORT itself runs no collectives",
            "shard with jax.jit or shard_map and let XLA's latency-hiding scheduler overlap collectives with compute "
            "(XLA_FLAGS=--xla_gpu_enable_latency_hiding_scheduler=true); larger per-device batches" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makeCommOverlapRule() { return std::make_unique<CommOverlapRule>(); }

} // namespace placescope
