// SPDX-License-Identifier: MIT
// Data handed through the host: DtoH then HtoD of the same bytes with no framework op computing on the host
// in between (pairs with such ops belong to the CPU-fallback rule). Typical causes: passing tensors between
// frameworks or to numpy and back. Saving: both copies plus the GPU idle time between them, per step.
#include "analysis/findings/round_trips.h"
#include "analysis/findings/rules/rules.h"

namespace placescope {
namespace {

class HostRoundTripRule final : public FindingRule
{
public:
    std::string_view id() const override { return "copies.host_round_trip"; }
    std::string_view description() const override { return "device->host->device round trips of the same data"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        Evidence e { "DtoH copy followed by an HtoD copy of the same size, no host compute in between" };
        int64_t savedNs = 0;
        std::vector<EvidenceRange> ex;
        for (const auto& trip : findRoundTrips(ctx)) {
            if (!trip.hostOps.empty())
                continue;
            ++e.count;
            int64_t copyNs = trip.toHost->durationNs() + trip.toDevice->durationNs();
            e.totalNs += copyNs;
            e.totalBytes += trip.toHost->bytes;
            ex.push_back(
                { trip.toHost->startNs, trip.toDevice->endNs, formatBytes(trip.toHost->bytes) + " round trip" });
            if (ctx.inSteps(*trip.toHost))
                savedNs += copyNs + trip.gpuIdleNs;
        }
        if (e.count == 0)
            return;
        Finding f;
        f.ruleId = "copies.host_round_trip";
        f.title = "Data makes round trips through the host";
        addLongestExamples(e, std::move(ex));
        f.evidence.push_back(std::move(e));
        ctx.setTimeSaving(f, savedNs,
            "both copies of each round trip in the steps plus the GPU idle time between them; keeping "
            "the data on the device removes all of it");
        f.severity = severityForShare(f.saving.percentOfStep, ctx.options.warnPercent, ctx.options.highPercent);
        f.summary = std::to_string(f.evidence.front().count)
            + " times data went to the host and came back unchanged in size ("
            + formatBytes(f.evidence.front().totalBytes) + " each way in total).";
        f.fix = { "keep the tensor on the GPU; share it with CuPy/JAX/TF/numba without copies via torch.from_dlpack / "
                  "torch.utils.dlpack.to_dlpack or __cuda_array_interface__",
            "exchange device tensors with tf.experimental.dlpack.to_dlpack / from_dlpack instead of .numpy()",
            "pass device buffers between sessions with IOBinding and OrtValue.from_dlpack / "
            "ortvalue_from_numpy(..., 'cuda') instead of numpy round trips",
            "exchange device arrays with jax.dlpack.from_dlpack (and the array's __dlpack__) instead of np.asarray "
            "round trips" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makeHostRoundTripRule() { return std::make_unique<HostRoundTripRule>(); }

} // namespace placescope
