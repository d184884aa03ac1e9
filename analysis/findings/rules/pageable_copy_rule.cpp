// SPDX-License-Identifier: MIT
// Copies from or to pageable host memory (nsys cuda_memcpy_async): the driver stages them through a pinned
// buffer, so they run at a fraction of the link's bandwidth and block the host. Saving: the copies at the
// pinned bandwidth measured in the same trace (same direction, >= 1 MiB of pinned copies), else at twice the
// measured pageable bandwidth (the usual staging penalty) capped at the host link's practical bandwidth, minus
// their current time, plus the host time blocked in the copy calls: a pinned asynchronous copy no longer holds
// the host until it ends, and the replay's `pinned` edit frees that time too, so a bound without it could sit
// below the simulated saving (issue 25).
#include "analysis/findings/rules/rules.h"
#include "analysis/trace/gpu_facts.h"

#include "profiler/base/units.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/model/global_ids.h"

#include <algorithm>
#include <unordered_set>

namespace placescope {
namespace {

bool isPageable(const GpuOp& op)
{
    return op.kind == GpuOp::Kind::Memcpy
        && (op.srcKind == static_cast<int64_t>(MemKind::Pageable)
            || op.dstKind == static_cast<int64_t>(MemKind::Pageable));
}

bool isPinnedHostCopy(const GpuOp& op)
{
    return op.kind == GpuOp::Kind::Memcpy
        && (op.srcKind == static_cast<int64_t>(MemKind::Pinned) || op.dstKind == static_cast<int64_t>(MemKind::Pinned));
}

// Practical pinned host<->device bandwidth of the GPU's host link (analysis/trace/gpu_facts.h: PCIe 3 x16 12 GB/s,
// PCIe 4 x16 24 GB/s, PCIe 5 x16 50 GB/s, the figures the placement engine and the replay use). Bytes per ns = GB/s.
double linkCeilingBytesPerNs(const std::string& deviceName) { return gpuFactsFor(deviceName).hostLink.pinnedGBps; }

class PageableCopyRule final : public FindingRule
{
public:
    std::string_view id() const override { return "copies.pageable"; }
    std::string_view description() const override { return "copies from/to pageable host memory"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        struct Dir
        {
            int64_t count = 0, ns = 0, bytes = 0, inStepNs = 0, inStepBytes = 0;
            int64_t pinnedNs = 0, pinnedBytes = 0;
            std::vector<EvidenceRange> examples;
        };
        Dir dirs[11];
        std::unordered_set<uint64_t> pageableCalls; // (pid, correlation) of pageable copies in the steps
        for (const auto& op : ctx.trace.gpuOps) {
            if (op.copyKind < 0 || op.copyKind > 10)
                continue;
            Dir& d = dirs[op.copyKind];
            if (isPinnedHostCopy(op) && !isPageable(op)) {
                d.pinnedNs += op.durationNs();
                d.pinnedBytes += op.bytes;
            }
            if (!isPageable(op))
                continue;
            ++d.count;
            d.ns += op.durationNs();
            d.bytes += op.bytes;
            if (ctx.inSteps(op)) {
                d.inStepNs += op.durationNs();
                d.inStepBytes += op.bytes;
                if (op.correlationId >= 0)
                    pageableCalls.insert(TraceData::correlationKey(op.globalPid, op.correlationId));
            }
            d.examples.push_back({ op.startNs, op.endNs,
                std::string(copyKindShortName(static_cast<CopyKind>(op.copyKind))) + " " + formatBytes(op.bytes) });
        }
        Finding f;
        int64_t total = 0, totalNs = 0, savedNs = 0;
        std::string method;
        for (int k = 0; k <= 10; ++k) {
            Dir& d = dirs[k];
            if (d.count == 0)
                continue;
            std::string dir(copyKindShortName(static_cast<CopyKind>(k)));
            total += d.count;
            totalNs += d.ns;
            double pageableBw = d.ns > 0 ? static_cast<double>(d.bytes) / static_cast<double>(d.ns) : 0.0; // B/ns
            double ceiling = linkCeilingBytesPerNs(ctx.deviceName());
            double pinnedBw = std::max(pageableBw, std::min(2.0 * pageableBw, ceiling));
            std::string source = "2x the measured pageable bandwidth, capped at the host link's "
                + formatRate(ceiling * 1e9) + " (no pinned " + dir + " copies to measure)";
            if (d.pinnedBytes >= (1 << 20) && d.pinnedNs > 0) {
                pinnedBw = std::max(pageableBw, static_cast<double>(d.pinnedBytes) / static_cast<double>(d.pinnedNs));
                source = "the pinned " + dir + " bandwidth measured in this trace";
            }
            int64_t pinnedNs = pinnedBw > 0 ? static_cast<int64_t>(static_cast<double>(d.inStepBytes) / pinnedBw) : 0;
            savedNs += std::max<int64_t>(0, d.inStepNs - pinnedNs);
            Evidence e { "pageable " + dir + " copies at " + formatRate(pageableBw * 1e9), d.count, d.ns, d.bytes };
            addLongestExamples(e, std::move(d.examples));
            f.evidence.push_back(std::move(e));
            method += (method.empty() ? "" : "; ") + dir + " copies re-timed at " + source;
        }
        if (total == 0)
            return;
        // The host blocked in the calls of those copies (a call returns once its pageable copy is staged).
        int64_t hostWaitNs = 0;
        for (const auto& call : ctx.trace.apiCalls)
            if (call.correlationId >= 0
                && pageableCalls.count(
                    TraceData::correlationKey(globalPidOfGlobalTid(call.globalTid), call.correlationId)))
                hostWaitNs += call.endNs - call.startNs;
        f.ruleId = "copies.pageable";
        f.title = "Copies use pageable host memory";
        ctx.setTimeSaving(f, savedNs + hostWaitNs,
            "copy time in the steps minus the same bytes moved at pinned speed (" + method
                + "), plus the host time blocked in those copies' calls ("
                + formatNanoseconds(static_cast<double>(hostWaitNs))
                + " in the steps), which pinned asynchronous copies no longer wait for.");
        f.severity = severityForShare(ctx.percent(savedNs), ctx.options.warnPercent, ctx.options.highPercent);
        f.summary = std::to_string(total) + " copies (" + formatNanoseconds(static_cast<double>(totalNs))
            + ") went through pageable host memory; the driver stages them through a pinned buffer and the host "
              "blocks until the staging is done.";
        f.fix = { "DataLoader(pin_memory=True) and tensor.to('cuda', non_blocking=True); allocate host buffers with "
                  "torch.empty(..., pin_memory=True) or tensor.pin_memory()",
            "feed with tf.data ... .prefetch(tf.data.AUTOTUNE) and tf.data.experimental.prefetch_to_device("
            "'/gpu:0') so the runtime uses pinned staging buffers",
            "bind inputs/outputs with IOBinding to CUDA_PINNED OrtValues (OrtDevice 'cuda_pinned') or to "
            "device memory instead of numpy arrays",
            "prefetch batches to the device ahead of the step (flax.jax_utils.prefetch_to_device, or jax.device_put of "
            "the next batch before running the current one) so the copy overlaps compute" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makePageableCopyRule() { return std::make_unique<PageableCopyRule>(); }

} // namespace placescope
