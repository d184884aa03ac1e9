// SPDX-License-Identifier: MIT
#include "placement/cost/placement_model.h"

#include "placement/cost/capability_table.h"
#include "placement/cost/device_table.h"
#include "placement/cost/link_model.h"
#include "placement/cost/measured_scaling.h"
#include "placement/cost/op_work.h"
#include "placement/cost/roofline.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace placescope {
namespace {

constexpr int kCpu = 0;
constexpr int kGpu = 1;

std::string format(const char* pattern, double a, double b = 0, double c = 0)
{
    char line[160];
    std::snprintf(line, sizeof line, pattern, a, b, c);
    return line;
}

// Which host memory the framework copies activations from and into when an op's neighbour is on the other
// device. The OpGraph has one link per direction, so this choice prices every CPU<->GPU edge:
// - torch: CPU tensors are pageable unless the program calls pin_memory(); `.to("cuda")`/`.cpu()` of an
//   ordinary tensor is a pageable copy.
// - ort: the CPU execution provider's allocator is ordinary (pageable) memory, and MemcpyFromHost/ToHost
//   copy from and into it.
// - tf: host tensors that feed a GPU op are allocated `gpu_compatible`, i.e. from the pinned host allocator.
bool frameworkCopiesPinned(const std::string& framework) { return framework == "tf"; }

struct Specs
{
    DeviceSpec cpu;
    DeviceSpec gpu;
    PcieModel pcie;
};

Result<Specs> resolveSpecs(const CostOptions& options, std::vector<std::string>& assumptions)
{
    PLACESCOPE_ASSIGN_OR_RETURN(DeviceTable table, DeviceTable::builtin());
    Specs specs;
    PLACESCOPE_ASSIGN_OR_RETURN(specs.cpu, table.device(options.cpu));
    if (specs.cpu.isGpu)
        return Status::error("--cpu '" + options.cpu + "' is a GPU in the device table");
    if (options.gpu == "from-trace") {
        if (options.tracePath.empty())
            return Status::error("--gpu from-trace needs --trace");
        PLACESCOPE_ASSIGN_OR_RETURN(specs.gpu, gpuSpecFromTrace(options.tracePath, table, &assumptions));
    } else {
        PLACESCOPE_ASSIGN_OR_RETURN(specs.gpu, table.device(options.gpu));
        if (!specs.gpu.isGpu)
            return Status::error("--gpu '" + options.gpu + "' is not a GPU in the device table");
    }
    PLACESCOPE_ASSIGN_OR_RETURN(LinkSpec link, table.link(specs.gpu.pcie));
    specs.pcie = PcieModel::fromSpec(link);
    if (!options.tracePath.empty()) {
        PLACESCOPE_ASSIGN_OR_RETURN(specs.pcie, fitPcieFromTrace(options.tracePath, specs.pcie, &assumptions));
    } else {
        assumptions.push_back("PCIe: no trace, the device table's " + link.key + " figures (estimates): pinned "
            + formatNanoseconds(link.pinnedLatencyUs * 1e3) + " + bytes / " + formatRate(link.pinnedGBps * 1e9)
            + ", pageable " + formatNanoseconds(link.pageableLatencyUs * 1e3) + " + bytes / "
            + formatRate(link.pageableGBps * 1e9));
    }
    return specs;
}

bool isFoldedWeightProducer(const ModelGraph& model, const ModelOp& op)
{
    if (op.producesWeight)
        return true;
    if (op.outputs.empty())
        return false;
    for (int v : op.outputs)
        if (!model.values[v].isWeight)
            return false;
    return true;
}

int64_t knownBytes(const ModelValue& value) { return value.bytes > 0 ? value.bytes : 0; }

// How much faster the GPU runs this kind of work than the CPU, by the two devices' peaks: FLOP/s for compute,
// memory bandwidth for everything else.
double gpuSpeedup(const OpWork& work, const DeviceSpec& cpu, const DeviceSpec& gpu)
{
    if (work.kind == WorkKind::Compute && cpu.fp32FlopsPerSecond > 0)
        return gpu.fp32FlopsPerSecond / cpu.fp32FlopsPerSecond;
    return cpu.memoryBytesPerSecond > 0 ? gpu.memoryBytesPerSecond / cpu.memoryBytesPerSecond : 1.0;
}

// The GPU the model's GPU measurements come from; the target GPU (with a line saying so) when no trace records
// one, which keeps the measurements as they are.
DeviceSpec gpuOfMeasurements(const ModelGraph& model, const CostOptions& options, const DeviceSpec& target,
    std::vector<std::string>& assumptions)
{
    bool measured = false;
    for (const ModelOp& op : model.ops)
        measured = measured || op.measuredGpuUs >= 0;
    if (!measured)
        return target;
    auto table = DeviceTable::builtin();
    auto spec
        = table.isOk() ? measuringGpu(model, options.tracePath, table.value()) : Result<DeviceSpec>(table.status());
    if (!spec.isOk()) {
        assumptions.push_back(
            "measured GPU times used as they are for " + target.name + " (" + spec.status().message() + ")");
        return target;
    }
    if (spec->name != target.name)
        assumptions.push_back("measured GPU times are from " + spec->name + ", scaled to " + target.name
            + " by each op's roofline ratio (peak ratio where shapes are missing); CPU costs derived from them use "
              "the measuring GPU, not the target");
    return *spec;
}

// Collects "the same thing happened to N ops" lines so the assumptions stay short.
struct Tally
{
    std::map<std::string, int> countByType;
    void add(const std::string& type) { ++countByType[type]; }
    std::string list() const
    {
        std::string text;
        for (const auto& [type, count] : countByType)
            text += (text.empty() ? "" : ", ") + type + (count > 1 ? " x" + std::to_string(count) : "");
        return text;
    }
};

} // namespace

Result<PlacementModel> buildPlacementModel(const ModelGraph& model, const CostOptions& options)
{
    PlacementModel result;
    std::vector<std::string>& assumptions = result.assumptions;
    PLACESCOPE_ASSIGN_OR_RETURN(CapabilityTable capabilities, CapabilityTable::forFramework(options.framework));
    PLACESCOPE_ASSIGN_OR_RETURN(Specs specs, resolveSpecs(options, assumptions));
    result.cpu = specs.cpu;
    result.gpu = specs.gpu;
    // Measured GPU times are the trace's GPU's, not necessarily the target's: calibration compares them with
    // that GPU's roofline, and they reach the target (and the CPU) through deviceTimeRatio.
    const DeviceSpec measuredOn = gpuOfMeasurements(model, options, specs.gpu, assumptions);
    for (size_t i = 0; i < model.ops.size(); ++i)
        for (const auto* list : { &model.ops[i].inputs, &model.ops[i].outputs })
            for (int v : *list)
                if (v < 0 || v >= static_cast<int>(model.values.size()))
                    return Status::error(
                        "model op '" + model.ops[i].name + "' refers to a missing value " + std::to_string(v));

    OpGraph& graph = result.graph;
    graph.devices.push_back({ "cpu", DeviceKind::Cpu, specs.cpu.memoryBytes });
    graph.devices.push_back({ specs.gpu.name, DeviceKind::Gpu,
        options.gpuMemoryBytes > 0 ? options.gpuMemoryBytes : specs.gpu.memoryBytes });
    const bool pinned = frameworkCopiesPinned(options.framework);
    const LinkFit& htod = specs.pcie.link(true, pinned);
    const LinkFit& dtoh = specs.pcie.link(false, pinned);
    result.htodFittedToTrace = htod.fitted;
    result.dtohFittedToTrace = dtoh.fitted;
    graph.links.push_back({ kCpu, kGpu, htod.latencyUs, htod.bandwidthGBps });
    graph.links.push_back({ kGpu, kCpu, dtoh.latencyUs, dtoh.bandwidthGBps });
    assumptions.push_back(std::string("transfers priced as ") + (pinned ? "pinned" : "pageable") + " copies ("
        + options.framework
        + (pinned ? " stages host tensors for the GPU in pinned memory" : " copies from ordinary pageable host memory")
        + "): HtoD " + formatNanoseconds(htod.latencyUs * 1e3) + " + bytes / " + formatRate(htod.bandwidthGBps * 1e9)
        + ", DtoH " + formatNanoseconds(dtoh.latencyUs * 1e3) + " + bytes / " + formatRate(dtoh.bandwidthGBps * 1e9));
    assumptions.push_back("CPU: " + specs.cpu.name
        + format(" (%.2f TFLOP/s FP32, ", specs.cpu.fp32FlopsPerSecond / 1e12)
        + formatRate(specs.cpu.memoryBytesPerSecond) + ")");
    assumptions.push_back("GPU: " + specs.gpu.name
        + format(" (%.1f TFLOP/s FP32, %.0f TFLOP/s FP16 tensor, ", specs.gpu.fp32FlopsPerSecond / 1e12,
            specs.gpu.tensorFp16FlopsPerSecond / 1e12)
        + formatRate(specs.gpu.memoryBytesPerSecond) + ")");

    // Pass 1: work and roofline estimates of every compute op, and the calibration they and the trace's
    // measurements give.
    const size_t opCount = model.ops.size();
    std::vector<bool> folded(opCount);
    std::vector<OpWork> work(opCount);
    std::vector<std::pair<double, double>> cpuPairs, gpuPairs;
    for (size_t i = 0; i < opCount; ++i) {
        folded[i] = isFoldedWeightProducer(model, model.ops[i]);
        if (folded[i])
            continue;
        work[i] = opWork(model, static_cast<int>(i));
        const ModelOp& op = model.ops[i];
        // Only compute-bound ops with known shapes say how far the roofline is off: the host time of a scalar or
        // elementwise op (or of one whose output shape a trace only guessed) is mostly dispatch overhead and
        // would scale every estimate by it.
        const bool calibrates = work[i].shapesKnown && work[i].kind == WorkKind::Compute;
        if (calibrates && op.measuredCpuUs >= 0 && isComputeBound(work[i], specs.cpu))
            cpuPairs.emplace_back(op.measuredCpuUs, rooflineUs(work[i], specs.cpu));
        if (calibrates && op.measuredGpuUs >= 0 && isComputeBound(work[i], measuredOn))
            gpuPairs.emplace_back(op.measuredGpuUs, rooflineUs(work[i], measuredOn));
    }
    const Calibration cpuCalibration = Calibration::fromPairs(cpuPairs);
    const Calibration gpuCalibration = Calibration::fromPairs(gpuPairs);
    for (const auto& [label, calibration] :
        { std::pair { "CPU", &cpuCalibration }, std::pair { "GPU", &gpuCalibration } }) {
        if (calibration->samples == 0)
            continue;
        assumptions.push_back(std::string(label) + " estimates scaled by " + format("%.3g", calibration->scale)
            + " = the median measured/estimated ratio of " + std::to_string(calibration->samples) + " measured ops"
            + (calibration->clamped
                    ? format(" (clamped to [%.1f, %.0f])", Calibration::kMinScale, Calibration::kMaxScale)
                    : ""));
    }

    // Pass 2: one graph op per compute op.
    result.graphOpOfModelOp.assign(opCount, -1);
    Tally unknownCapability, unknownWork, noGpuKernel, missingShapes, measuredDespiteTable, scaledFromOtherDevice;
    Tally ranOnProvider; // ops an ONNX Runtime profile measured, by the provider that ran them
    int measuredCpu = 0, measuredGpu = 0, compute = 0;
    std::set<int> weightsCounted;
    for (size_t i = 0; i < opCount; ++i) {
        if (folded[i])
            continue;
        const ModelOp& op = model.ops[i];
        ++compute;
        const std::string dtype = op.inputs.empty() ? std::string() : model.values[op.inputs.front()].dtype;
        OpCapability cap = capabilities.lookup(op.type);
        if (!cap.known)
            cap = capabilities.lookup(work[i].canonicalType);
        if (!cap.known)
            unknownCapability.add(op.type);
        if (work[i].kind == WorkKind::Unknown)
            unknownWork.add(op.type);
        if (!work[i].shapesKnown)
            missingShapes.add(op.type);

        PlacementOp placed;
        placed.id = op.name.empty() ? op.type + "_" + std::to_string(i) : op.name;
        placed.type = op.type;
        double cpuUs = cpuCalibration.costUs(op.measuredCpuUs, rooflineUs(work[i], specs.cpu));
        double gpuUs = op.measuredGpuUs >= 0 ? op.measuredGpuUs * deviceTimeRatio(work[i], measuredOn, specs.gpu)
                                             : gpuCalibration.costUs(-1, rooflineUs(work[i], specs.gpu));
        // Without shapes the roofline knows nothing of the op; measured on one device, its cost on the other is the
        // measurement scaled by the devices' peak ratio (a trace recorded without record_shapes). A GPU
        // measurement is scaled from the GPU that made it, so the CPU cost does not depend on the target GPU.
        if (!work[i].shapesKnown || work[i].kind == WorkKind::Unknown) {
            if (op.measuredGpuUs >= 0 && op.measuredCpuUs < 0) {
                cpuUs = std::max(
                    specs.cpu.launchOverheadUs, op.measuredGpuUs * gpuSpeedup(work[i], specs.cpu, measuredOn));
                scaledFromOtherDevice.add(op.type);
            } else if (op.measuredCpuUs >= 0 && op.measuredGpuUs < 0) {
                gpuUs = std::max(
                    specs.gpu.launchOverheadUs, op.measuredCpuUs / gpuSpeedup(work[i], specs.cpu, specs.gpu));
                scaledFromOtherDevice.add(op.type);
            }
        }
        measuredCpu += op.measuredCpuUs >= 0;
        measuredGpu += op.measuredGpuUs >= 0;
        if (!op.measuredProvider.empty())
            ranOnProvider.add(op.measuredProvider);
        // A measurement proves a kernel exists, whatever the table says (a newer framework version).
        bool gpuAllowed = cap.gpuKernelFor(dtype) || op.measuredGpuUs >= 0;
        bool cpuAllowed = cap.cpuKernel || op.measuredCpuUs >= 0;
        if ((!cap.gpuKernelFor(dtype) && op.measuredGpuUs >= 0) || (!cap.cpuKernel && op.measuredCpuUs >= 0))
            measuredDespiteTable.add(op.type);
        if (!gpuAllowed)
            noGpuKernel.add(op.type + (cap.gpuKernel ? " (" + dtype + ")" : ""));
        placed.costUs = { cpuAllowed ? cpuUs : kNoKernel, gpuAllowed ? gpuUs : kNoKernel };
        for (int v : op.outputs)
            placed.memoryBytes += knownBytes(model.values[v]);
        // Weights are folded into their consumer: their bytes count in its memory (once, at the first
        // consumer, so a shared weight is not counted twice) and they add no edge.
        for (int v : op.inputs)
            if (model.values[v].isWeight && weightsCounted.insert(v).second)
                placed.memoryBytes += knownBytes(model.values[v]);
        result.graphOpOfModelOp[i] = static_cast<int>(graph.ops.size());
        result.modelOpOfGraphOp.push_back(static_cast<int>(i));
        result.frameworkDefault.push_back(gpuAllowed ? kGpu : kCpu);
        graph.ops.push_back(std::move(placed));
    }

    // Pass 3: edges. The graph's inputs are fed by the caller from host memory and its outputs go back to
    // the host, so both ends are ops pinned to the CPU with no cost ("input:<value>", "output:<value>"): the
    // solver then pays the HtoD copy of an input consumed on the GPU and the DtoH copy of an output produced
    // there, as the real run does. They have no kernel on the GPU and no model op (modelOpOfGraphOp -1).
    std::map<int, int> inputSourceOfValue;
    auto addHostEnd = [&](const std::string& id, const std::string& type, int64_t bytes) {
        PlacementOp end;
        end.id = id;
        end.type = type;
        end.costUs = { 0.0, kNoKernel };
        end.pin = kCpu;
        end.memoryBytes = bytes;
        graph.ops.push_back(end);
        result.modelOpOfGraphOp.push_back(-1);
        result.frameworkDefault.push_back(kCpu);
        return static_cast<int>(graph.ops.size()) - 1;
    };
    int unknownEdgeBytes = 0;
    for (size_t i = 0; i < opCount; ++i) {
        int consumer = result.graphOpOfModelOp[i];
        if (consumer < 0)
            continue;
        std::set<int> seenValues;
        for (int v : model.ops[i].inputs) {
            const ModelValue& value = model.values[v];
            if (value.isWeight || !seenValues.insert(v).second)
                continue;
            int producer = -1;
            if (value.producer >= 0 && value.producer < static_cast<int>(opCount)) {
                producer = result.graphOpOfModelOp[value.producer];
                if (producer < 0)
                    continue; // produced by a folded weight producer: a weight in all but the flag
            } else {
                auto it = inputSourceOfValue.find(v);
                if (it == inputSourceOfValue.end())
                    it = inputSourceOfValue.emplace(v, addHostEnd("input:" + value.name, "Input", knownBytes(value)))
                             .first;
                producer = it->second;
            }
            unknownEdgeBytes += value.bytes <= 0;
            graph.edges.push_back({ producer, consumer, knownBytes(value) });
        }
    }
    for (size_t v = 0; v < model.values.size(); ++v) {
        const ModelValue& value = model.values[v];
        if (!value.isGraphOutput || value.producer < 0 || value.producer >= static_cast<int>(opCount))
            continue;
        int producer = result.graphOpOfModelOp[value.producer];
        if (producer < 0)
            continue;
        int sink = addHostEnd("output:" + value.name, "Output", 0);
        unknownEdgeBytes += value.bytes <= 0;
        graph.edges.push_back({ producer, sink, knownBytes(value) });
    }

    // What the numbers rest on, one line each.
    int estimatedCpu = compute - measuredCpu, estimatedGpu = compute - measuredGpu;
    if (!ranOnProvider.countByType.empty()) {
        int ran = 0;
        for (const auto& [provider, count] : ranOnProvider.countByType)
            ran += count;
        result.measuredPlacementNote = "measured by ONNX Runtime: " + std::to_string(ran) + " of "
            + std::to_string(compute) + " ops ran under their own name in the profile (" + ranOnProvider.list()
            + "); their times there are the profile's mean per run, the others' are estimates";
        assumptions.push_back(result.measuredPlacementNote);
    }
    if (estimatedCpu > 0 || estimatedGpu > 0)
        assumptions.push_back("roofline estimates for " + std::to_string(estimatedCpu) + " of "
            + std::to_string(compute) + " ops on the CPU and " + std::to_string(estimatedGpu)
            + " on the GPU (no measurement)");
    if (!unknownCapability.countByType.empty())
        assumptions.push_back("not in the " + options.framework
            + " capability table, allowed on CPU and GPU in any layout: " + unknownCapability.list());
    if (!unknownWork.countByType.empty())
        assumptions.push_back("no cost formula, priced as memory-bound on bytes in + out: " + unknownWork.list());
    if (!missingShapes.countByType.empty())
        assumptions.push_back("values without static shapes, estimates are lower bounds: " + missingShapes.list());
    if (!scaledFromOtherDevice.countByType.empty())
        assumptions.push_back("no shapes, cost on the other device = measured time x the devices' peak ratio: "
            + scaledFromOtherDevice.list());
    if (!noGpuKernel.countByType.empty())
        assumptions.push_back("no " + options.framework + " GPU kernel, CPU only: " + noGpuKernel.list());
    if (!measuredDespiteTable.countByType.empty())
        assumptions.push_back(
            "measured on a device the capability table has no kernel for (kept): " + measuredDespiteTable.list());
    if (unknownEdgeBytes > 0)
        assumptions.push_back(
            std::to_string(unknownEdgeBytes) + " edges carry values of unknown size, priced as 0 bytes");
    return result;
}

} // namespace placescope
