// SPDX-License-Identifier: MIT
// Regions by union-find over rank-4 data edges between sensitive and agnostic ops; each region costed in
// NCHW and NHWC (transposes where a kernel or the region's border disagrees, plus the tensor-core penalty of
// NCHW convs on the GPU); the cheaper one wins, ties keep the source layout so that a proposal never churns
// a model for nothing. Existing Transpose pairs whose permutations compose to the identity are cancelled.
#include "placement/layout/layout_pass.h"

#include "profiler/base/units.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

namespace placescope {
namespace {

constexpr int kCpu = 0;
constexpr int kGpu = 1;

class UnionFind
{
public:
    explicit UnionFind(size_t n)
        : m_parent(n)
    {
        std::iota(m_parent.begin(), m_parent.end(), 0);
    }
    int find(int x)
    {
        while (m_parent[x] != x) {
            m_parent[x] = m_parent[m_parent[x]];
            x = m_parent[x];
        }
        return x;
    }
    void unite(int a, int b) { m_parent[find(a)] = find(b); }

private:
    std::vector<int> m_parent;
};

std::string lowerType(const std::string& type)
{
    std::string name = type;
    const std::string::size_type colons = name.rfind("::");
    if (colons != std::string::npos)
        name = name.substr(colons + 2);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name;
}

bool isConv(const ModelOp& op)
{
    static const std::set<std::string> kConvs = { "conv", "convtranspose", "conv2d", "convolution", "_convolution",
        "cudnn_convolution", "depthwiseconv2dnative", "fusedconv2dbiasactivation" };
    return kConvs.count(lowerType(op.type)) > 0;
}

bool isTranspose(const ModelOp& op) { return lowerType(op.type) == "transpose" || lowerType(op.type) == "permute"; }

DataLayout other(DataLayout layout) { return layout == DataLayout::Nhwc ? DataLayout::Nchw : DataLayout::Nhwc; }

// Everything the costing of one region needs, computed once.
class LayoutCosting
{
public:
    LayoutCosting(const ModelGraph& model, const std::vector<int>& deviceOfOp, const CapabilityTable& capabilities,
        const LayoutFacts& facts)
        : m_model(model)
        , m_device(deviceOfOp)
        , m_capabilities(capabilities)
        , m_facts(facts)
        , m_consumers(model.values.size())
        , m_constant(model.values.size(), false)
    {
        for (size_t o = 0; o < model.ops.size(); ++o)
            for (int v : model.ops[o].inputs)
                if (v >= 0 && v < static_cast<int>(model.values.size()))
                    m_consumers[v].push_back(static_cast<int>(o));
        markConstants();
    }

    const std::vector<int>& consumers(int value) const { return m_consumers[value]; }

    int device(int op) const { return op < static_cast<int>(m_device.size()) && m_device[op] == kGpu ? kGpu : kCpu; }

    // A rank-4 activation (not a weight): the only tensors a layout applies to.
    bool isLayoutTensor(int value) const
    {
        if (value < 0 || value >= static_cast<int>(m_model.values.size()))
            return false;
        const ModelValue& v = m_model.values[value];
        return !m_constant[value] && v.shapeKnown && v.shape.size() == 4;
    }

    // Scalars and weights broadcast in either layout (their constants are permuted at no run-time cost).
    bool isLayoutFree(int value) const
    {
        if (value < 0 || value >= static_cast<int>(m_model.values.size()))
            return true;
        const ModelValue& v = m_model.values[value];
        if (m_constant[value])
            return true;
        if (!v.shapeKnown)
            return false;
        return std::all_of(v.shape.begin(), v.shape.end(), [](int64_t d) { return d == 1; });
    }

    double transposeUs(int64_t bytes, int device) const
    {
        const double bandwidth = device == kGpu ? m_facts.gpuMemoryBandwidthGBps : m_facts.cpuMemoryBandwidthGBps;
        return bandwidth > 0 ? 2.0 * static_cast<double>(bytes) / (bandwidth * 1e3) : 0.0;
    }

    OpCapability capability(int op) const { return m_capabilities.lookup(m_model.ops[op].type); }

    // The layouts the op's kernel on its device accepts; empty = any.
    std::vector<DataLayout> accepted(int op) const
    {
        const OpCapability cap = capability(op);
        std::vector<DataLayout> layouts;
        for (DataLayout l : device(op) == kGpu ? cap.gpuLayouts : cap.cpuLayouts)
            if (l != DataLayout::None)
                layouts.push_back(l);
        return layouts;
    }

    // Does this GPU conv run on tensor cores, so that NHWC avoids cuDNN's internal conversions?
    bool prefersNhwcOnTensorCores(int op) const
    {
        const ModelOp& o = m_model.ops[op];
        if (device(op) != kGpu || !isConv(o))
            return false;
        std::string dtype;
        for (int v : o.inputs)
            if (isLayoutTensor(v)) {
                dtype = m_model.values[v].dtype;
                break;
            }
        const double cc = m_facts.gpuComputeCapability;
        return (cc >= 7.0 && dtype == "float16") || (cc >= 8.0 && dtype == "bfloat16")
            || (cc >= 8.0 && dtype == "float32" && m_facts.tf32Enabled);
    }

    // Grouped and depthwise convs hit slow NHWC kernels (pytorch#34977): no tensor-core preference for them.
    bool isGroupedConv(int op) const
    {
        const auto group = m_model.ops[op].intAttributes.find("group");
        return group != m_model.ops[op].intAttributes.end() && !group->second.empty() && group->second[0] > 1;
    }

    int64_t layoutBytes(int op, bool inputs) const
    {
        int64_t bytes = 0;
        for (int v : inputs ? m_model.ops[op].inputs : m_model.ops[op].outputs)
            if (isLayoutTensor(v))
                bytes += m_model.values[v].bytes;
        return bytes;
    }

    const ModelGraph& model() const { return m_model; }

private:
    // Weights and what is computed from weights alone (exported models unfold BatchNorm into
    // Unsqueeze(scale) * x + Unsqueeze(bias)): constants that a layout change permutes once, for free.
    void markConstants()
    {
        for (size_t v = 0; v < m_model.values.size(); ++v)
            m_constant[v] = m_model.values[v].isWeight;
        // Model order is topological for ONNX; a second sweep catches the rest of other sources.
        for (int sweep = 0; sweep < 2; ++sweep)
            for (const ModelOp& op : m_model.ops) {
                if (op.inputs.empty() && !op.producesWeight)
                    continue; // a source op (random, shape-less) is not a constant
                const bool allConstant = std::all_of(op.inputs.begin(), op.inputs.end(),
                    [&](int v) { return v >= 0 && v < static_cast<int>(m_constant.size()) && m_constant[v]; });
                if (allConstant || op.producesWeight)
                    for (int v : op.outputs)
                        if (v >= 0 && v < static_cast<int>(m_constant.size()) && !m_model.values[v].isGraphInput)
                            m_constant[v] = true;
            }
    }

    const ModelGraph& m_model;
    const std::vector<int>& m_device;
    const CapabilityTable& m_capabilities;
    const LayoutFacts& m_facts;
    std::vector<std::vector<int>> m_consumers;
    std::vector<bool> m_constant;
};

struct RegionCost
{
    double totalUs = 0;
    double penaltyUs = 0;
    std::vector<LayoutTranspose> transposes;
    int forcedOps = 0; // ops whose kernel rejects the region layout
    std::string forcedExample;
};

RegionCost costRegion(const LayoutCosting& costing, const std::vector<int>& regionOps,
    const std::vector<int>& regionOfOp, int regionId, const std::vector<LayoutOpKind>& kinds, DataLayout source,
    DataLayout layout)
{
    const ModelGraph& model = costing.model();
    RegionCost cost;
    std::map<int, DataLayout> kernelLayout;
    for (int op : regionOps) {
        DataLayout k = layout;
        if (kinds[op] == LayoutOpKind::Sensitive) {
            const std::vector<DataLayout> accepted = costing.accepted(op);
            if (!accepted.empty() && std::find(accepted.begin(), accepted.end(), layout) == accepted.end()) {
                k = accepted.front();
                if (cost.forcedOps++ == 0)
                    cost.forcedExample = model.ops[op].type + " on " + (costing.device(op) == kGpu ? "GPU" : "CPU");
            }
            if (k == DataLayout::Nchw && costing.prefersNhwcOnTensorCores(op) && !costing.isGroupedConv(op)) {
                // cuDNN converts the input and the output itself (nchwToNhwcKernel / nhwcToNchwKernel).
                cost.penaltyUs
                    += costing.transposeUs(costing.layoutBytes(op, true) + costing.layoutBytes(op, false), kGpu);
            }
        }
        kernelLayout[op] = k;
    }

    // Every activation the region touches, once, in a fixed order.
    std::set<int> values;
    for (int op : regionOps) {
        for (int v : model.ops[op].inputs)
            if (costing.isLayoutTensor(v))
                values.insert(v);
        for (int v : model.ops[op].outputs)
            if (costing.isLayoutTensor(v))
                values.insert(v);
    }
    for (int v : values) {
        const ModelValue& value = model.values[v];
        const int producer = value.producer;
        const bool producedInside = producer >= 0 && regionOfOp[producer] == regionId;
        const DataLayout produced = producedInside ? kernelLayout[producer] : source;
        // The layouts the consumers need, each with the first consumer that needs it.
        std::map<DataLayout, int> needed;
        for (int c : costing.consumers(v)) {
            const DataLayout want = regionOfOp[c] == regionId ? kernelLayout[c] : source;
            needed.emplace(want, c);
        }
        if (producedInside && value.isGraphOutput)
            needed.emplace(source, -1);
        for (const auto& [want, consumer] : needed) {
            if (want == produced)
                continue;
            LayoutTranspose t;
            t.region = regionId;
            t.value = v;
            t.from = produced;
            t.to = want;
            t.bytes = value.bytes;
            const bool consumerInside = consumer >= 0 && regionOfOp[consumer] == regionId;
            if (producedInside
                && (!consumerInside || kernelLayout[producer] != layout || kernelLayout[consumer] == layout)) {
                t.op = producer;
                t.beforeOp = false;
                t.device = costing.device(producer);
                t.where = consumerInside
                    ? "after " + model.ops[producer].name + " (output " + value.name + ")"
                    : "at the region's output " + value.name + " (after " + model.ops[producer].name + ")";
            } else {
                t.op = consumer;
                t.beforeOp = true;
                t.device = costing.device(consumer);
                t.where = producedInside
                    ? "before " + model.ops[consumer].name + " (input " + value.name + ")"
                    : "at the region's input " + value.name + " (before " + model.ops[consumer].name + ")";
            }
            t.costUs = costing.transposeUs(t.bytes, t.device);
            cost.totalUs += t.costUs;
            cost.transposes.push_back(std::move(t));
        }
    }
    cost.totalUs += cost.penaltyUs;
    return cost;
}

std::string regionReason(const LayoutRegion& region, const RegionCost& chosen, const RegionCost& rejected)
{
    std::string reason;
    if (region.chosen == region.sourceLayout) {
        if (region.nchwCostUs == region.nhwcCostUs && chosen.transposes.empty() && chosen.penaltyUs == 0)
            return std::string("every kernel accepts ") + layoutName(region.sourceLayout) + ": no change";
        reason = std::string("keeps ") + layoutName(region.sourceLayout);
    } else {
        reason = std::string("switches to ") + layoutName(region.chosen);
    }
    reason += ": " + formatNanoseconds(std::min(region.nchwCostUs, region.nhwcCostUs) * 1e3) + " of conversions vs "
        + formatNanoseconds(std::max(region.nchwCostUs, region.nhwcCostUs) * 1e3) + " in "
        + layoutName(other(region.chosen));
    if (rejected.forcedOps > 0)
        reason += "; in " + std::string(layoutName(other(region.chosen))) + " " + std::to_string(rejected.forcedOps)
            + " kernel(s) (" + rejected.forcedExample + ") would need transposes";
    if (chosen.forcedOps > 0)
        reason += "; " + std::to_string(chosen.forcedOps) + " kernel(s) (" + chosen.forcedExample
            + ") get transposes around them";
    if (rejected.penaltyUs > 0)
        reason += "; " + std::to_string(region.tensorCoreConvs)
            + " GPU conv(s) on tensor cores pay cuDNN's internal NCHW<->NHWC conversions in NCHW";
    return reason;
}

DataLayout regionSourceLayout(const LayoutCosting& costing, const std::vector<int>& ops, const LayoutFacts& facts)
{
    for (int op : ops)
        for (int v : costing.model().ops[op].inputs)
            if (costing.isLayoutTensor(v) && costing.model().values[v].layout != DataLayout::None)
                return costing.model().values[v].layout;
    return facts.sourceLayout == DataLayout::None ? DataLayout::Nchw : facts.sourceLayout;
}

void cancelTransposePairs(const LayoutCosting& costing, LayoutResult& result)
{
    const ModelGraph& model = costing.model();
    for (size_t second = 0; second < model.ops.size(); ++second) {
        const ModelOp& t2 = model.ops[second];
        if (!isTranspose(t2) || t2.inputs.empty())
            continue;
        const int input = t2.inputs.front();
        if (input < 0 || input >= static_cast<int>(model.values.size()))
            continue;
        const int first = model.values[input].producer;
        if (first < 0 || !isTranspose(model.ops[first]))
            continue;
        const auto p1 = model.ops[first].intAttributes.find("perm");
        const auto p2 = t2.intAttributes.find("perm");
        if (p1 == model.ops[first].intAttributes.end() || p2 == t2.intAttributes.end())
            continue;
        if (!permutationsCancel(p1->second, p2->second))
            continue;
        RemovedTransposePair pair;
        pair.first = first;
        pair.second = static_cast<int>(second);
        int64_t secondBytes = 0;
        for (int v : t2.outputs)
            if (v >= 0 && v < static_cast<int>(model.values.size()))
                secondBytes += model.values[v].bytes;
        pair.bytes = secondBytes;
        pair.savingUs = costing.transposeUs(secondBytes, costing.device(static_cast<int>(second)));
        // The first Transpose goes too when the second is its only reader.
        const bool onlyReader = costing.consumers(input).size() == 1 && !model.values[input].isGraphOutput;
        if (onlyReader) {
            pair.firstRemoved = true;
            pair.bytes += model.values[input].bytes;
            pair.savingUs += costing.transposeUs(model.values[input].bytes, costing.device(first));
        }
        result.removed.push_back(pair);
    }
}

} // namespace

LayoutResult runLayoutPass(const ModelGraph& model, const std::vector<int>& deviceOfOp,
    const CapabilityTable& capabilities, const LayoutFacts& facts)
{
    LayoutResult result;
    const LayoutCosting costing(model, deviceOfOp, capabilities, facts);
    const size_t opCount = model.ops.size();
    result.opKinds.assign(opCount, LayoutOpKind::Other);
    result.regionOfOp.assign(opCount, -1);

    bool unknownBytes = false;
    for (size_t o = 0; o < opCount; ++o) {
        const ModelOp& op = model.ops[o];
        LayoutOpKind kind = classifyLayoutOp(op, costing.capability(static_cast<int>(o)));
        const bool hasLayoutInput
            = std::any_of(op.inputs.begin(), op.inputs.end(), [&](int v) { return costing.isLayoutTensor(v); });
        if (kind == LayoutOpKind::Sensitive && !hasLayoutInput)
            kind = LayoutOpKind::Other; // only rank-4 activations carry a layout (Grappler: IsFanoutPortRankN 4)
        if (kind == LayoutOpKind::Agnostic) {
            const bool inputsFit = hasLayoutInput && std::all_of(op.inputs.begin(), op.inputs.end(), [&](int v) {
                return costing.isLayoutTensor(v) || costing.isLayoutFree(v);
            });
            const bool outputsFit = !op.outputs.empty()
                && std::all_of(op.outputs.begin(), op.outputs.end(), [&](int v) { return costing.isLayoutTensor(v); });
            if (!inputsFit || !outputsFit)
                kind = LayoutOpKind::Other;
        }
        result.opKinds[o] = kind;
        if (kind == LayoutOpKind::Sensitive && isConv(op) && costing.device(static_cast<int>(o)) == kGpu) {
            ++result.gpuConvs;
            if (costing.prefersNhwcOnTensorCores(static_cast<int>(o)))
                ++result.gpuConvsPreferringNhwc;
        }
    }
    result.frameworkSwapRuleHolds = result.gpuConvs > 0 && 2 * result.gpuConvsPreferringNhwc >= result.gpuConvs;

    // Regions: sensitive and agnostic ops joined by the rank-4 activations between them.
    UnionFind sets(opCount);
    for (size_t v = 0; v < model.values.size(); ++v) {
        const int producer = model.values[v].producer;
        if (producer < 0 || producer >= static_cast<int>(opCount) || result.opKinds[producer] == LayoutOpKind::Other)
            continue;
        if (!costing.isLayoutTensor(static_cast<int>(v)))
            continue;
        for (int c : costing.consumers(static_cast<int>(v)))
            if (result.opKinds[c] != LayoutOpKind::Other)
                sets.unite(producer, c);
    }
    std::map<int, std::vector<int>> components;
    for (size_t o = 0; o < opCount; ++o)
        if (result.opKinds[o] != LayoutOpKind::Other)
            components[sets.find(static_cast<int>(o))].push_back(static_cast<int>(o));
    std::vector<std::vector<int>> regionOps;
    for (auto& [root, ops] : components) {
        const bool hasSensitive
            = std::any_of(ops.begin(), ops.end(), [&](int o) { return result.opKinds[o] == LayoutOpKind::Sensitive; });
        if (hasSensitive)
            regionOps.push_back(ops);
    }
    std::sort(regionOps.begin(), regionOps.end(),
        [](const std::vector<int>& a, const std::vector<int>& b) { return a.front() < b.front(); });
    for (size_t r = 0; r < regionOps.size(); ++r)
        for (int o : regionOps[r])
            result.regionOfOp[o] = static_cast<int>(r);

    for (size_t r = 0; r < regionOps.size(); ++r) {
        const int id = static_cast<int>(r);
        LayoutRegion region;
        region.id = id;
        region.ops = regionOps[r];
        region.sourceLayout = regionSourceLayout(costing, region.ops, facts);
        for (int o : region.ops) {
            if (result.opKinds[o] != LayoutOpKind::Sensitive)
                continue;
            (costing.device(o) == kGpu ? region.gpuOps : region.cpuOps)++;
            if (costing.prefersNhwcOnTensorCores(o) && !costing.isGroupedConv(o))
                ++region.tensorCoreConvs;
            for (int v : model.ops[o].inputs)
                unknownBytes = unknownBytes || (costing.isLayoutTensor(v) && model.values[v].bytes <= 0);
        }
        RegionCost nchw = costRegion(
            costing, region.ops, result.regionOfOp, id, result.opKinds, region.sourceLayout, DataLayout::Nchw);
        RegionCost nhwc = costRegion(
            costing, region.ops, result.regionOfOp, id, result.opKinds, region.sourceLayout, DataLayout::Nhwc);
        region.nchwCostUs = nchw.totalUs;
        region.nhwcCostUs = nhwc.totalUs;
        const bool sourceIsNchw = region.sourceLayout == DataLayout::Nchw;
        const double sourceCost = sourceIsNchw ? nchw.totalUs : nhwc.totalUs;
        const double otherCost = sourceIsNchw ? nhwc.totalUs : nchw.totalUs;
        // Switch only for a real saving: equal costs computed in a different order must not flip a region.
        const bool cheaper = otherCost < sourceCost - 1e-9 * std::max(1.0, sourceCost);
        region.chosen = cheaper ? other(region.sourceLayout) : region.sourceLayout;
        RegionCost& chosen = region.chosen == DataLayout::Nchw ? nchw : nhwc;
        RegionCost& rejected = region.chosen == DataLayout::Nchw ? nhwc : nchw;
        region.reason = regionReason(region, chosen, rejected);
        result.baselineUs += sourceCost;
        result.chosenUs += chosen.totalUs;
        for (LayoutTranspose& t : chosen.transposes)
            result.added.push_back(std::move(t));
        result.regions.push_back(std::move(region));
    }

    cancelTransposePairs(costing, result);
    for (const RemovedTransposePair& pair : result.removed) {
        result.baselineUs += pair.savingUs;
        result.notes.push_back("Transpose " + model.ops[pair.first].name + " then " + model.ops[pair.second].name
            + " compose to the identity: " + (pair.firstRemoved ? "both removed" : "the second removed") + ", "
            + formatBytes(pair.bytes) + " less to copy");
    }
    result.savingUs = std::max(0.0, result.baselineUs - result.chosenUs);
    if (unknownBytes)
        result.notes.push_back("some activations have no static size: their conversions are costed as free");
    if (facts.gpuComputeCapability <= 0 && result.gpuConvs > 0)
        result.notes.push_back("GPU compute capability unknown: no tensor-core (NHWC) preference applied");
    return result;
}

} // namespace placescope
