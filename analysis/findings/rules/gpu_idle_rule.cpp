// SPDX-License-Identifier: MIT
// GPU idle: time inside the steps when a GPU ran nothing, split by cause (device_timeline.h). One finding per
// cause that reaches the xprof input-bound threshold (5 % warning, 20 % high); evidence lists the longest
// gaps and the Nsight-style low-utilization chunks (< 50 % busy).
#include "analysis/findings/rules/rules.h"

#include <algorithm>

namespace placescope {
namespace {

struct CauseText
{
    IdleCause cause;
    const char* id;
    const char* title;
    const char* why;
    Fix fix;
};

const CauseText kCauses[] = {
    { IdleCause::InputBound, "gpu_idle.input_bound", "GPU waits for input data",
        "the host was loading or preprocessing data (DataLoader / tf.data / decode ranges) while the GPU had nothing "
        "queued",
        { "DataLoader(num_workers=N, pin_memory=True, persistent_workers=True, prefetch_factor=2..4); move "
          "decode/resize/augment to the GPU (torchvision.io.decode_jpeg(device='cuda'), DALI); copy batches with "
          ".to('cuda', non_blocking=True)",
            "dataset.map(f, num_parallel_calls=tf.data.AUTOTUNE).cache().prefetch(tf.data.AUTOTUNE); decode on the GPU "
            "(DALI) or offline; tf.data service for heavy preprocessing",
            "prepare the next batch on another thread while session.run executes; bind inputs already on the device "
            "with IOBinding (bind_ortvalue_input of a CUDA OrtValue)",
            "load with tf.data or Grain with prefetch, and prefetch batches to the device "
            "(flax.jax_utils.prefetch_to_device); decode on the accelerator or offline" } },
    { IdleCause::SyncWait, "gpu_idle.sync_wait", "GPU idles after host synchronizations",
        "the host blocked on the GPU (cudaStreamSynchronize / cudaDeviceSynchronize / synchronous copy), the queue "
        "drained, and the GPU waited until the host launched again",
        { "remove .item(), .cpu(), .numpy(), print(tensor) and torch.cuda.synchronize() from the loop; keep metrics "
          "on the GPU and read them every N steps; torch.cuda.set_sync_debug_mode('warn') finds the calls",
            "avoid .numpy() / float(tensor) inside the step; wrap the step in tf.function; read metrics once per epoch",
            "use run_with_iobinding and copy outputs to the host only when needed (synchronize_outputs once)",
            "do not read device values inside the loop (float(x), np.asarray(x), print, block_until_ready): JAX "
            "dispatches asynchronously until such a read; log metrics every N steps" } },
    { IdleCause::HostBound, "gpu_idle.host_bound", "GPU waits for the host to launch work",
        "the next kernel's launch call returned only after the GPU had gone idle: the CPU did not launch in time",
        { "torch.compile(model, mode='reduce-overhead') or CUDA Graphs (torch.cuda.CUDAGraph) to replay the step; "
          "larger batches; fewer tiny ops (fused optimizers: foreach=True / fused=True)",
            "tf.function(jit_compile=True) (XLA) to fuse ops and cut launches; larger batches",
            "enable CUDA graphs in the CUDA EP (enable_cuda_graph=1) with IOBinding; larger batches",
            "jax.jit the whole step and lax.scan over layers or steps so fewer, larger executables are dispatched; "
            "larger batches" } },
};

class GpuIdleRule final : public FindingRule
{
public:
    std::string_view id() const override { return "gpu_idle"; }
    std::string_view description() const override { return "GPU idle time inside steps, split by cause"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        const auto& lanes = ctx.timeline.lanes;
        if (lanes.empty())
            return;
        int64_t windowNs = 0, idleNs = 0;
        for (const auto& lane : lanes) {
            windowNs += totalLength(lane.window);
            idleNs += lane.idleNs;
        }
        if (windowNs <= 0)
            return;
        int laneCount = static_cast<int>(lanes.size());
        for (const auto& text : kCauses) {
            int c = static_cast<int>(text.cause);
            int64_t causeNs = 0, gapCount = 0;
            std::vector<EvidenceRange> examples;
            for (const auto& lane : lanes) {
                causeNs += lane.causeNs[c];
                for (const auto& g : lane.gaps) {
                    if (g.causeNs[c] * 2 < g.endNs - g.startNs)
                        continue;
                    ++gapCount;
                    examples.push_back({ g.startNs, g.endNs, lane.label });
                }
            }
            double share = 100.0 * static_cast<double>(causeNs) / static_cast<double>(windowNs);
            if (share < ctx.options.warnPercent)
                continue;
            Finding f;
            f.ruleId = text.id;
            f.title = text.title;
            f.severity = severityForShare(share, ctx.options.warnPercent, ctx.options.highPercent);
            f.summary = "The GPU was idle for " + formatPercent(share) + " of the analysed time because " + text.why
                + ". Total GPU idle time is " + formatPercent(100.0 * static_cast<double>(idleNs) / windowNs)
                + " of the steps.";
            Evidence gaps { "idle gaps mostly caused by " + std::string(idleCauseName(text.cause)), gapCount, causeNs };
            addLongestExamples(gaps, std::move(examples));
            f.evidence.push_back(std::move(gaps));
            Evidence lowUtil { "utilization chunks below 50 % busy (Nsight gpu_time_util, "
                + std::to_string(lanes.front().utilization.size()) + " chunks per GPU)" };
            std::vector<EvidenceRange> chunks;
            for (const auto& lane : lanes)
                for (size_t b = 0; b < lane.utilization.size(); ++b)
                    if (lane.utilization[b] >= 0 && lane.utilization[b] < 0.5) {
                        ++lowUtil.count;
                        int64_t s = lane.bucketStartNs + static_cast<int64_t>(b) * lane.bucketNs;
                        chunks.push_back({ s, s + lane.bucketNs, lane.label });
                    }
            lowUtil.examples.assign(chunks.begin(), chunks.begin() + std::min<size_t>(5, chunks.size()));
            f.evidence.push_back(std::move(lowUtil));
            std::vector<int64_t> perLane;
            for (const auto& lane : lanes)
                perLane.push_back(lane.causeNs[c]);
            ctx.setLaneSaving(f, perLane,
                "the " + std::string(idleCauseName(text.cause)) + " idle time per step and GPU ("
                    + std::to_string(laneCount)
                    + " GPU lane(s)); an upper bound: removing the cause lets the GPU run back to "
                      "back only if the host then keeps ahead");
            f.fix = text.fix;
            out.push_back(std::move(f));
        }
    }
};

} // namespace

std::unique_ptr<FindingRule> makeGpuIdleRule() { return std::make_unique<GpuIdleRule>(); }

} // namespace placescope
