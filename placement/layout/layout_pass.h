// SPDX-License-Identifier: MIT
// The layout pass: choose NCHW or NHWC per region of a placed model so that every op runs in a layout its
// kernel accepts at the least conversion cost, and cancel inverse Transpose pairs already in the graph.
// A region is a maximal connected set of layout-sensitive ops (Conv, pools, BatchNorm, ...) joined through
// layout-agnostic ones (elementwise, Concat, Pad, ...) over rank-4 tensors, as TensorFlow's Grappler layout
// optimizer propagates layouts (reference/placement.md 2.3). This is how "Default MaxPoolingOp only supports
// NHWC on device type CPU" becomes a proposed transpose or data_format change instead of an error.
// Pure function: inputs by const reference, the result by value, no globals.
#pragma once

#include "placement/cost/capability_table.h"
#include "placement/graph/model_graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope {

// Device and dtype facts the pass needs; the caller takes them from the device tables or a trace.
struct LayoutFacts
{
    double cpuMemoryBandwidthGBps = 50; // GB/s = 1e3 bytes/us
    double gpuMemoryBandwidthGBps = 900;
    double gpuComputeCapability = 0; // 7.0 Volta, 8.0 Ampere, 9.0 Hopper; 0 = unknown (no tensor-core rule)
    bool tf32Enabled = true; // fp32 convs use TF32 tensor cores on Ampere+ (TF and PyTorch default)
    DataLayout sourceLayout = DataLayout::Nchw; // the layout of rank-4 values whose own layout is None
};

enum class LayoutOpKind
{
    Other,
    Sensitive,
    Agnostic
};

struct LayoutRegion
{
    int id = 0;
    DataLayout sourceLayout = DataLayout::Nchw;
    DataLayout chosen = DataLayout::Nchw;
    std::vector<int> ops; // model op indices, in model order
    double nchwCostUs = 0; // conversions + per-layout op penalties if the region runs in NCHW
    double nhwcCostUs = 0;
    int cpuOps = 0; // sensitive ops of the region on each device
    int gpuOps = 0;
    int tensorCoreConvs = 0; // GPU convs whose dtype runs on tensor cores (prefer NHWC)
    std::string reason; // one line: why this layout
};

struct LayoutTranspose
{
    int region = -1;
    int value = -1; // model value index that gets converted
    int op = -1; // the op it is placed next to
    bool beforeOp = true; // before `op` (on its input) or after it (on its output)
    int device = 0; // 0 = CPU, 1 = GPU: where the transpose runs
    DataLayout from = DataLayout::Nchw;
    DataLayout to = DataLayout::Nhwc;
    int64_t bytes = 0;
    double costUs = 0;
    std::string where; // readable: "before MaxPool_3 (input x)", "at the region's output y"
};

struct RemovedTransposePair
{
    int first = -1; // model op indices of the two Transposes
    int second = -1;
    bool firstRemoved = false; // false when the first Transpose has other consumers and stays
    int64_t bytes = 0;
    double savingUs = 0;
};

struct LayoutResult
{
    std::vector<LayoutOpKind> opKinds; // per model op
    std::vector<int> regionOfOp; // per model op, -1 outside every region
    std::vector<LayoutRegion> regions;
    std::vector<LayoutTranspose> added; // for the chosen layouts
    std::vector<RemovedTransposePair> removed;
    double baselineUs = 0; // every region in its source layout, transposes only where a kernel demands them
    double chosenUs = 0; // the chosen layouts, minus the cancelled transposes
    double savingUs = 0; // baselineUs - chosenUs (>= 0)
    // TensorFlow's own swap rule (Grappler): NHWC on GPU when >= 50% of GPU convs prefer it.
    int gpuConvs = 0;
    int gpuConvsPreferringNhwc = 0;
    bool frameworkSwapRuleHolds = false;
    std::vector<std::string> notes;
};

// deviceOfOp: 0 = CPU, 1 = GPU per model op (any value for weight producers, which the pass ignores).
// costUs of an op never depends on the layout except through the two rules above: a kernel that does not
// accept the layout needs a transpose before and after it (2 * bytes / memory bandwidth of its device), and a
// tensor-core conv on the GPU in NCHW pays cuDNN's internal nchwToNhwc/nhwcToNchw conversions.
LayoutResult runLayoutPass(const ModelGraph& model, const std::vector<int>& deviceOfOp,
    const CapabilityTable& capabilities, const LayoutFacts& facts);

// Helpers shared with the tests and the proposal text.
LayoutOpKind classifyLayoutOp(const ModelOp& op, const OpCapability& capability);
// True when perm b applied after perm a gives back the original order (Grappler: b[a[i]] == i).
bool permutationsCancel(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

} // namespace placescope
