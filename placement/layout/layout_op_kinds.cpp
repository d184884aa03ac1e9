// SPDX-License-Identifier: MIT
// Which ops fix a layout (sensitive), which pass it through (agnostic), and which need the source layout
// (everything else: Reshape, Gemm, Transpose, custom ops). The lists follow Grappler's transposer factory
// (reference/placement.md 2.3) with the ONNX and aten spellings of the same ops; the capability table may
// mark further ops sensitive.
#include "placement/layout/layout_pass.h"

#include <algorithm>
#include <cctype>
#include <unordered_set>

namespace placescope {
namespace {

// "aten::relu_" -> "relu", "MaxPool" -> "maxpool": one spelling per op across ONNX, TF and aten.
std::string normalizedType(const std::string& type)
{
    std::string name = type;
    const std::string::size_type colons = name.rfind("::");
    if (colons != std::string::npos)
        name = name.substr(colons + 2);
    while (name.size() > 1 && name.back() == '_')
        name.pop_back();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name;
}

const std::unordered_set<std::string>& sensitiveTypes()
{
    static const std::unordered_set<std::string> kTypes = {
        "conv",
        "convtranspose",
        "conv2d",
        "convolution",
        "_convolution",
        "cudnn_convolution",
        "depthwiseconv2dnative",
        "fusedconv2dbiasactivation",
        "maxpool",
        "maxpoolv2",
        "max_pool2d",
        "max_pool2d_with_indices",
        "averagepool",
        "avgpool",
        "avg_pool2d",
        "globalaveragepool",
        "globalmaxpool",
        "adaptive_avg_pool2d",
        "batchnormalization",
        "fusedbatchnorm",
        "fusedbatchnormv2",
        "fusedbatchnormv3",
        "batch_norm",
        "native_batch_norm",
        "cudnn_batch_norm",
        "_batch_norm_impl_index",
        "instancenormalization",
        "instance_norm",
        "lrn",
        "depthtospace",
        "spacetodepth",
        "biasadd",
        "pixel_shuffle",
    };
    return kTypes;
}

const std::unordered_set<std::string>& agnosticTypes()
{
    static const std::unordered_set<std::string> kTypes = {
        // unary elementwise
        "relu",
        "relu6",
        "leakyrelu",
        "leaky_relu",
        "prelu",
        "sigmoid",
        "tanh",
        "clip",
        "clamp",
        "hardtanh",
        "elu",
        "selu",
        "hardsigmoid",
        "hardswish",
        "softplus",
        "softsign",
        "exp",
        "log",
        "abs",
        "neg",
        "sqrt",
        "reciprocal",
        "floor",
        "ceil",
        "round",
        "sign",
        "erf",
        "gelu",
        "silu",
        "mish",
        "cast",
        "identity",
        "snapshot",
        "dropout",
        "not",
        "zeroslike",
        "oneslike",
        // binary and n-ary elementwise
        "add",
        "addv2",
        "addn",
        "sub",
        "mul",
        "div",
        "realdiv",
        "pow",
        "max",
        "min",
        "sum",
        "mean",
        "maximum",
        "minimum",
        "equal",
        "less",
        "greater",
        "where",
        "select",
        "squareddifference",
        // structural ops Grappler remaps (axis or paddings permuted)
        "concat",
        "concatv2",
        "cat",
        "split",
        "splitv",
        "pad",
        "mirrorpad",
        "slice",
        "stridedslice",
        "reducemean",
        "reducesum",
        "reducemax",
        "reducemin",
        "globalaveragepool",
        "globalmaxpool",
    };
    return kTypes;
}

} // namespace

LayoutOpKind classifyLayoutOp(const ModelOp& op, const OpCapability& capability)
{
    if (op.producesWeight)
        return LayoutOpKind::Other;
    const bool customDomain = !op.domain.empty() && op.domain != "ai.onnx";
    if (capability.layoutSensitive)
        return LayoutOpKind::Sensitive;
    if (customDomain)
        return LayoutOpKind::Other; // opaque: nobody knows which axis it reads
    const std::string name = normalizedType(op.type);
    // The framework's table has the last word on ops it knows (TF runs GlobalAveragePool as a Mean).
    if (!capability.known && sensitiveTypes().count(name))
        return LayoutOpKind::Sensitive;
    if (agnosticTypes().count(name))
        return LayoutOpKind::Agnostic;
    return LayoutOpKind::Other;
}

bool permutationsCancel(const std::vector<int64_t>& a, const std::vector<int64_t>& b)
{
    if (a.empty() || a.size() != b.size())
        return false;
    const int64_t n = static_cast<int64_t>(a.size());
    for (int64_t i = 0; i < n; ++i) {
        if (a[i] < 0 || a[i] >= n || b[i] < 0 || b[i] >= n)
            return false;
    }
    for (int64_t i = 0; i < n; ++i)
        if (b[a[i]] != i)
            return false;
    return true;
}

} // namespace placescope
