// SPDX-License-Identifier: MIT
// Ops that ran on the CPU inside a GPU graph, from where they really ran: (a) framework ops (PyTorch, TensorFlow
// from XPlane) between a DtoH copy and an HtoD copy of the same size that launched no GPU work (a CPU fallback in
// the middle of GPU work); (b) ONNX Runtime nodes on a CPU provider in a session whose other nodes run on a GPU
// one, with the MemcpyToHost/MemcpyFromHost nodes ORT put around them. Saving: from the placement engine when one
// is given (--model); otherwise the copies around the ops plus the GPU idle time while they ran (each op and each
// stretch of idle time once, however many round trips of a batch it sits in), an upper bound that ignores the ops'
// own cost on the GPU. The fix is proposed as the what-if edit op:NAME=gpu for the op that cost the most host time,
// which the replay simulates where the run replays: the edit drops the round trip around the op and runs the op's
// host time as a kernel (whatif/move_op_round_trip.h).
#include "analysis/findings/round_trips.h"
#include "analysis/findings/rules/rules.h"
#include "analysis/trace/intervals.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <map>
#include <set>

namespace placescope {
namespace {

class CpuFallbackRule final : public FindingRule
{
public:
    std::string_view id() const override { return "placement.cpu_fallback"; }
    std::string_view description() const override { return "ops that ran on the CPU inside GPU work"; }

    void evaluate(const RuleContext& ctx, std::vector<Finding>& out) const override
    {
        std::map<std::string, std::pair<int64_t, int64_t>> opTime; // name -> count, ns
        Evidence trips { "DtoH -> host op(s) -> HtoD of the same size" };
        std::vector<EvidenceRange> ex;
        int64_t savedNs = 0, hostNs = 0, copyNs = 0, copyBytes = 0;
        // Round trips of one batch overlap (five copies down, the host ops, five copies back): each host op and
        // each stretch of GPU idle time counts once, over the union of the trips' windows.
        std::set<const HostRange*> counted;
        std::map<std::pair<int64_t, int64_t>, std::vector<Interval>> windows; // (pid, device) -> windows in steps
        for (const auto& trip : findRoundTrips(ctx)) {
            if (trip.hostOps.empty())
                continue;
            ++trips.count;
            int64_t c = trip.toHost->durationNs() + trip.toDevice->durationNs();
            trips.totalNs += c;
            trips.totalBytes += trip.toHost->bytes;
            std::string label;
            const bool inSteps = ctx.inSteps(*trip.toHost);
            for (const auto* op : trip.hostOps) {
                if (label.size() < 80)
                    label += (label.empty() ? "" : ", ") + ctx.trace.name(op->nameId);
                if (!counted.insert(op).second)
                    continue;
                auto& t = opTime[ctx.trace.name(op->nameId)];
                ++t.first;
                t.second += op->endNs - op->startNs;
                hostNs += inSteps ? op->endNs - op->startNs : 0;
            }
            ex.push_back({ trip.toHost->startNs, trip.toDevice->endNs, label });
            if (inSteps) {
                savedNs += c;
                copyNs += c;
                copyBytes += trip.toHost->bytes;
                windows[{ trip.toHost->globalPid, trip.toHost->deviceId }].push_back(
                    { trip.toHost->endNs, trip.toDevice->startNs });
            }
        }
        for (auto& [key, list] : windows) {
            const IntervalList merged = mergeIntervals(std::move(list));
            for (const auto& lane : ctx.timeline.lanes)
                if (lane.globalPid == key.first && lane.deviceId == key.second)
                    for (const Interval& w : merged)
                        savedNs += std::max<int64_t>(
                            0, (w.endNs - w.startNs) - overlapLength(lane.busy, w.startNs, w.endNs));
        }
        // ONNX Runtime (the ORT profile importer): each node's device in its extra JSON, from its provider, and the
        // Memcpy nodes ORT inserted between the providers (category ort_memcpy).
        Evidence ortCpu { "ONNX Runtime nodes on a CPU provider in a session whose other nodes ran on the GPU" };
        Evidence ortCopies { "ONNX Runtime MemcpyToHost / MemcpyFromHost nodes around them (host<->device copies)" };
        const auto isOrtNode
            = [](const HostRange& r) { return r.category == "ort_node" || r.category == "ort_layout"; };
        bool anyGpuNode = false;
        for (const auto& r : ctx.trace.hostRanges)
            anyGpuNode = anyGpuNode || (isOrtNode(r) && r.extra.find(R"("device":"GPU")") != std::string::npos);
        for (const auto& r : ctx.trace.hostRanges) {
            const std::string& name = ctx.trace.name(r.nameId);
            bool memcpyNode = anyGpuNode && r.category == "ort_memcpy";
            bool cpuNode = anyGpuNode && isOrtNode(r) && r.extra.find(R"("device":"CPU")") != std::string::npos;
            if (!memcpyNode && !cpuNode)
                continue;
            Evidence& e = memcpyNode ? ortCopies : ortCpu;
            ++e.count;
            e.totalNs += r.endNs - r.startNs;
            if (ctx.inSteps(r.startNs))
                savedNs += r.endNs - r.startNs;
            if (cpuNode) {
                auto& t = opTime[name];
                ++t.first;
                t.second += r.endNs - r.startNs;
                hostNs += ctx.inSteps(r.startNs) ? r.endNs - r.startNs : 0;
            }
        }
        if (trips.count + ortCpu.count + ortCopies.count == 0)
            return;
        Finding f;
        f.ruleId = "placement.cpu_fallback";
        f.title = "Ops ran on the CPU in the middle of GPU work";
        addLongestExamples(trips, std::move(ex));
        for (Evidence* e : { &trips, &ortCpu, &ortCopies })
            if (e->count)
                f.evidence.push_back(std::move(*e));
        std::vector<std::string> names;
        std::string costliest;
        int64_t costliestNs = -1;
        Evidence ops { "host ops involved (name: count)" };
        for (const auto& [name, t] : opTime) {
            names.push_back(name);
            if (t.second > costliestNs) {
                costliest = name;
                costliestNs = t.second;
            }
            ops.count += t.first;
            ops.totalNs += t.second;
            if (ops.examples.size() < 8)
                ops.examples.push_back({ -1, -1,
                    name + ": " + std::to_string(t.first) + " runs, "
                        + formatNanoseconds(static_cast<double>(t.second)) });
        }
        f.evidence.push_back(std::move(ops));
        ctx.setTimeSaving(f, savedNs,
            "copies around the host ops plus the GPU idle time while they ran (and ORT Memcpy/CPU node "
            "time), per step; an upper bound that leaves out the ops' own cost once on the GPU");
        if (ctx.estimator) {
            const int64_t steps = std::max<int64_t>(1, ctx.steps.count());
            FallbackQuery q { ctx.options.modelPath, names, hostNs / steps, copyNs / steps, copyBytes / steps,
                ctx.deviceName() };
            if (auto est = ctx.estimator->estimateFallback(q)) {
                f.saving.perStepMs = est->savingMsPerStep;
                f.saving.percentOfStep = ctx.percent(static_cast<int64_t>(est->savingMsPerStep * 1e6) * steps);
                f.saving.method = ctx.estimator->name() + ": " + est->explanation;
                f.saving.upperBound = false;
            }
        }
        if (!costliest.empty())
            f.saving.proposedEdit = "op:" + costliest + "=gpu";
        f.severity = severityForShare(f.saving.percentOfStep, ctx.options.warnPercent, ctx.options.highPercent);
        f.summary = "Host ops ran between GPU work and forced data to the host and back: "
            + (names.empty() ? std::string("-") : names.front()) + (names.size() > 1 ? " and others" : "") + ".";
        f.fix = { "use the op's CUDA implementation (check the tensor's device: ops on CPU tensors, numpy or Python "
                  "scalars run on the host); replace data-dependent ops (nonzero, unique, .tolist()) with masked "
                  "GPU versions",
            "find the ops without a GPU kernel with soft placement off (tf.config.set_soft_device_placement(False)) "
            "and tf.debugging.set_log_device_placement(True); replace them with GPU variants "
            "(tf.image.combined_non_max_suppression for NonMaxSuppression) or move their neighbours to the CPU "
            "with tf.device so data crosses once",
            "check the op's CUDA support for the model's opset ('CUDA kernel not found in registries' in verbose "
            "logs) and upgrade the opset or replace the node; keep a CPU-side region (pre/post-processing) outside "
            "the GPU graph instead of in its middle; the CPU-preferred shape-subgraph heuristic moves small "
            "tensors on purpose",
            "keep the step inside jax.jit with jnp/lax ops: numpy calls, jax.pure_callback / io_callback and Python "
            "between jitted calls run on the host and copy to and from the device" };
        out.push_back(std::move(f));
    }
};

} // namespace

std::unique_ptr<FindingRule> makeCpuFallbackRule() { return std::make_unique<CpuFallbackRule>(); }

} // namespace placescope
