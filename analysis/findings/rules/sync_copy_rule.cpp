// SPDX-License-Identifier: MIT
// Synchronous copies and memsets that block the host (nsys cuda_memcpy_sync / cuda_memset_sync): cudaMemcpy*
// without Async (HtoD of <= 64 KB excluded, as nsys does) and cudaMemset without Async on pinned or managed
// memory. Saving: the host time blocked in those calls beyond the device time of the copy itself, an upper
// bound that the host realises only if it has other work to do meanwhile.
#include "analysis/findings/rules/rules.h"

#include "profiler/base/units.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/model/global_ids.h"

#include <algorithm>
#include <unordered_map>

namespace placescope {
namespace {

bool isSyncCopyApi(const std::string& name)
{
    return name.rfind("cudaMemcpy", 0) == 0
        ? name.find("Async") == std::string::npos
        : (name.rfind("cuMemcpy", 0) == 0 && name.find("Async") == std::string::npos);
}

bool isSyncMemsetApi(const std::string& name)
{
    return (name.rfind("cudaMemset", 0) == 0 || name.rfind("cuMemset", 0) == 0)
        && name.find("Async") == std::string::npos;
}

class SyncCopyRule final : public FindingRule
{
public:
    std::string_view id() const override { return "copies.synchronous"; }
    std::string_view description() const override { return "synchronous copies and memsets blocking the host"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        std::unordered_map<uint64_t, const GpuOp*> opOfCorrelation;
        for (const auto& op : ctx.trace.gpuOps)
            if (op.kind != GpuOp::Kind::Kernel && op.correlationId >= 0)
                opOfCorrelation.emplace(TraceData::correlationKey(op.globalPid, op.correlationId), &op);
        std::unordered_map<int64_t, int> apiKind; // 0 none, 1 copy, 2 memset
        Evidence copies { "synchronous cudaMemcpy calls (host blocked)" };
        Evidence memsets { "synchronous cudaMemset calls on pinned/managed memory (host blocked)" };
        std::vector<EvidenceRange> copyEx, memsetEx;
        int64_t savedNs = 0;
        for (const auto& call : ctx.trace.apiCalls) {
            auto [it, inserted] = apiKind.emplace(call.nameId, 0);
            if (inserted) {
                const std::string n = apiBaseName(ctx.trace.name(call.nameId));
                it->second = isSyncCopyApi(n) ? 1 : isSyncMemsetApi(n) ? 2 : 0;
            }
            if (it->second == 0)
                continue;
            const GpuOp* op = nullptr;
            int64_t globalPid = globalPidOfGlobalTid(call.globalTid);
            if (call.correlationId >= 0) {
                auto found = opOfCorrelation.find(TraceData::correlationKey(globalPid, call.correlationId));
                if (found != opOfCorrelation.end())
                    op = found->second;
            }
            if (it->second == 1 && op && op->copyKind == static_cast<int64_t>(CopyKind::HtoD)
                && op->bytes <= ctx.options.syncCopyMinHtoDBytes)
                continue;
            if (it->second == 2
                && !(op
                    && (op->srcKind == static_cast<int64_t>(MemKind::Pinned)
                        || op->srcKind == static_cast<int64_t>(MemKind::Managed))))
                continue;
            Evidence& e = it->second == 1 ? copies : memsets;
            int64_t blocked = call.endNs - call.startNs;
            ++e.count;
            e.totalNs += blocked;
            e.totalBytes += op ? op->bytes : 0;
            (it->second == 1 ? copyEx : memsetEx)
                .push_back({ call.startNs, call.endNs,
                    ctx.trace.name(call.nameId) + (op ? " " + formatBytes(op->bytes) : "") });
            if (ctx.inSteps(call.startNs))
                savedNs += std::max<int64_t>(0, blocked - (op ? op->durationNs() : 0));
        }
        if (copies.count + memsets.count == 0)
            return;
        Finding f;
        f.ruleId = "copies.synchronous";
        f.title = "Synchronous copies and memsets block the host";
        addLongestExamples(copies, std::move(copyEx));
        addLongestExamples(memsets, std::move(memsetEx));
        if (copies.count)
            f.evidence.push_back(copies);
        if (memsets.count)
            f.evidence.push_back(memsets);
        ctx.setTimeSaving(f, savedNs,
            "host time blocked inside these calls minus the device time of the copy/memset itself (the "
            "part spent waiting for earlier GPU work); an upper bound, realised only if the host has "
            "other work to overlap");
        f.severity = severityForShare(
            ctx.percent(copies.totalNs + memsets.totalNs), ctx.options.warnPercent, ctx.options.highPercent);
        f.summary = std::to_string(copies.count + memsets.count)
            + " synchronous copy/memset calls blocked the host for "
            + formatNanoseconds(static_cast<double>(copies.totalNs + memsets.totalNs)) + " in total.";
        f.fix = { "use tensor.to(device, non_blocking=True) from pinned memory and torch.cuda.Event to wait only where "
                  "the result is needed; avoid tensor.cpu()/item() mid-step",
            "keep tensors on the device between ops; avoid .numpy() inside tf.function steps",
            "use IOBinding (bind outputs to device memory) so Run() does not copy outputs back synchronously",
            "jax.device_put is asynchronous: keep results as device arrays and read them (jax.device_get, np.asarray, "
            "float) only where needed, not mid-step; block_until_ready() only for timing" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makeSyncCopyRule() { return std::make_unique<SyncCopyRule>(); }

} // namespace placescope
