// SPDX-License-Identifier: MIT
#include "placement/cost/op_work.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace placescope {
namespace {

const std::unordered_map<std::string, std::string>& canonicalNames()
{
    // aten (PyTorch execution traces, profiler ops) and TensorFlow names -> the ONNX type with the same math.
    static const std::unordered_map<std::string, std::string> kNames = {
        { "aten::conv1d", "Conv" },
        { "aten::conv2d", "Conv" },
        { "aten::conv3d", "Conv" },
        { "aten::convolution", "Conv" },
        { "aten::_convolution", "Conv" },
        { "aten::cudnn_convolution", "Conv" },
        { "aten::mkldnn_convolution", "Conv" },
        { "Conv2D", "Conv" },
        { "Conv3D", "Conv" },
        { "DepthwiseConv2dNative", "Conv" },
        { "aten::conv_transpose2d", "ConvTranspose" },
        { "aten::cudnn_convolution_transpose", "ConvTranspose" },
        { "Conv2DBackpropInput", "ConvTranspose" },
        { "aten::max_pool2d", "MaxPool" },
        { "aten::max_pool2d_with_indices", "MaxPool" },
        { "aten::avg_pool2d", "AveragePool" },
        { "AvgPool", "AveragePool" },
        { "aten::adaptive_avg_pool2d", "GlobalAveragePool" },
        { "aten::_adaptive_avg_pool2d", "GlobalAveragePool" },
        { "aten::batch_norm", "BatchNormalization" },
        { "aten::_batch_norm_impl_index", "BatchNormalization" },
        { "aten::native_batch_norm", "BatchNormalization" },
        { "aten::cudnn_batch_norm", "BatchNormalization" },
        { "FusedBatchNorm", "BatchNormalization" },
        { "FusedBatchNormV3", "BatchNormalization" },
        { "aten::layer_norm", "LayerNormalization" },
        { "aten::native_layer_norm", "LayerNormalization" },
        { "aten::addmm", "Gemm" },
        { "aten::linear", "Gemm" },
        { "aten::matmul", "MatMul" },
        { "aten::mm", "MatMul" },
        { "aten::bmm", "MatMul" },
        { "aten::baddbmm", "MatMul" },
        { "BatchMatMulV2", "MatMul" },
        { "aten::relu", "Relu" },
        { "aten::relu_", "Relu" },
        { "aten::threshold", "Relu" },
        { "Relu6", "Clip" },
        { "aten::sigmoid", "Sigmoid" },
        { "aten::tanh", "Tanh" },
        { "aten::exp", "Exp" },
        { "aten::gelu", "Gelu" },
        { "aten::clamp", "Clip" },
        { "aten::hardtanh", "Clip" },
        { "aten::hardtanh_", "Clip" },
        { "aten::add", "Add" },
        { "aten::add_", "Add" },
        { "AddV2", "Add" },
        { "BiasAdd", "Add" },
        { "aten::sub", "Sub" },
        { "aten::rsub", "Sub" },
        { "aten::mul", "Mul" },
        { "aten::mul_", "Mul" },
        { "aten::div", "Div" },
        { "aten::div_", "Div" },
        { "RealDiv", "Div" },
        { "AddN", "Sum" },
        { "aten::softmax", "Softmax" },
        { "aten::_softmax", "Softmax" },
        { "aten::log_softmax", "LogSoftmax" },
        { "aten::mean", "ReduceMean" },
        { "aten::sum", "ReduceSum" },
        { "aten::amax", "ReduceMax" },
        { "Mean", "ReduceMean" },
        { "aten::view", "Reshape" },
        { "aten::reshape", "Reshape" },
        { "aten::_unsafe_view", "Reshape" },
        { "aten::flatten", "Flatten" },
        { "aten::squeeze", "Squeeze" },
        { "aten::unsqueeze", "Unsqueeze" },
        { "ExpandDims", "Unsqueeze" },
        { "aten::size", "Shape" },
        { "aten::detach", "Identity" },
        { "aten::dropout", "Identity" },
        { "aten::alias", "Identity" },
        { "aten::t", "Transpose" },
        { "aten::permute", "Reshape" },
        { "aten::transpose", "Reshape" },
        { "aten::contiguous", "Copy" },
        { "aten::clone", "Copy" },
        { "aten::copy_", "Copy" },
        { "aten::to", "Cast" },
        { "aten::_to_copy", "Cast" },
        { "aten::cat", "Concat" },
        { "ConcatV2", "Concat" },
        { "aten::stack", "Concat" },
        { "aten::split", "Split" },
        { "aten::chunk", "Split" },
        { "aten::slice", "Slice" },
        { "aten::narrow", "Slice" },
        { "StridedSlice", "Slice" },
        { "aten::index_select", "Gather" },
        { "aten::embedding", "Gather" },
        { "aten::gather", "Gather" },
        { "GatherV2", "Gather" },
        { "aten::constant_pad_nd", "Pad" },
        { "aten::upsample_nearest2d", "Resize" },
        { "aten::upsample_bilinear2d", "Resize" },
        { "ResizeBilinear", "Resize" },
        { "ResizeNearestNeighbor", "Resize" },
        { "aten::topk", "TopK" },
        { "TopKV2", "TopK" },
        { "aten::nonzero", "NonZero" },
        { "torchvision::nms", "NonMaxSuppression" },
        { "NonMaxSuppressionV3", "NonMaxSuppression" },
        { "NonMaxSuppressionV4", "NonMaxSuppression" },
        { "NonMaxSuppressionV5", "NonMaxSuppression" },
        { "aten::zeros", "ConstantOfShape" },
        { "aten::ones", "ConstantOfShape" },
        { "aten::full", "ConstantOfShape" },
    };
    // aten::permute/transpose are views in PyTorch (strides change, no copy): priced as free; the copy happens
    // in the aten::contiguous that follows, priced as a memory op.
    return kNames;
}

enum class Formula
{
    Conv,
    ConvTranspose,
    Gemm,
    MatMul,
    Pool,
    GlobalPool,
    Elementwise,
    Transcendental,
    Normalization,
    Softmax,
    Reduction,
    Resize,
    TopK,
    Nms,
    Memory,
    WriteOnly,
    View
};

const std::unordered_map<std::string, Formula>& formulas()
{
    static const std::unordered_map<std::string, Formula> kFormulas = [] {
        std::unordered_map<std::string, Formula> f;
        f["Conv"] = Formula::Conv;
        f["ConvTranspose"] = Formula::ConvTranspose;
        f["Gemm"] = Formula::Gemm;
        f["MatMul"] = Formula::MatMul;
        for (const char* t : { "MaxPool", "AveragePool", "LpPool" })
            f[t] = Formula::Pool;
        for (const char* t : { "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool" })
            f[t] = Formula::GlobalPool;
        for (const char* t : { "Relu", "LeakyRelu", "PRelu", "Clip", "Add", "Sub", "Mul", "Div", "Sum", "Max", "Min",
                 "Mean", "Neg", "Abs", "Round", "Floor", "Ceil", "Sign", "Sqrt", "Reciprocal", "Pow", "Equal", "Less",
                 "Greater", "LessOrEqual", "GreaterOrEqual", "Not", "And", "Or", "Xor", "Where", "Mod", "HardSigmoid",
                 "HardSwish", "Selu", "Elu", "ThresholdedRelu" })
            f[t] = Formula::Elementwise;
        for (const char* t :
            { "Sigmoid", "Tanh", "Exp", "Log", "Erf", "Gelu", "Softplus", "Softsign", "Sin", "Cos", "Mish", "Swish" })
            f[t] = Formula::Transcendental;
        for (const char* t :
            { "BatchNormalization", "InstanceNormalization", "LayerNormalization", "LRN", "GroupNormalization" })
            f[t] = Formula::Normalization;
        for (const char* t : { "Softmax", "LogSoftmax" })
            f[t] = Formula::Softmax;
        for (const char* t : { "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                 "ReduceL2", "ReduceSumSquare", "ReduceLogSumExp", "ArgMax", "ArgMin", "CumSum" })
            f[t] = Formula::Reduction;
        for (const char* t : { "Resize", "Upsample" })
            f[t] = Formula::Resize;
        f["TopK"] = Formula::TopK;
        f["NonMaxSuppression"] = Formula::Nms;
        for (const char* t : { "Transpose", "Concat", "Split", "Slice", "Gather", "GatherElements", "GatherND", "Cast",
                 "Pad", "Tile", "Expand", "DepthToSpace", "SpaceToDepth", "ScatterND", "ScatterElements", "NonZero",
                 "Copy", "Compress", "OneHot", "ReverseSequence" })
            f[t] = Formula::Memory;
        for (const char* t : { "ConstantOfShape", "Range", "RandomNormal", "RandomUniform", "EyeLike" })
            f[t] = Formula::WriteOnly;
        for (const char* t :
            { "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Dropout", "Shape", "Size", "Constant" })
            f[t] = Formula::View;
        return f;
    }();
    return kFormulas;
}

int64_t dtypeSize(const std::string& dtype)
{
    static const std::unordered_map<std::string, int64_t> kSizes = {
        { "float32", 4 },
        { "float", 4 },
        { "float16", 2 },
        { "bfloat16", 2 },
        { "float64", 8 },
        { "double", 8 },
        { "int8", 1 },
        { "uint8", 1 },
        { "bool", 1 },
        { "int16", 2 },
        { "uint16", 2 },
        { "int32", 4 },
        { "uint32", 4 },
        { "int64", 8 },
        { "uint64", 8 },
        { "float8e4m3fn", 1 },
        { "float8e5m2", 1 },
    };
    auto it = kSizes.find(dtype);
    return it == kSizes.end() ? 0 : it->second;
}

// Bytes of a value, from the loader's figure or shape x element size; -1 when neither is known.
int64_t valueBytes(const ModelValue& value)
{
    if (value.bytes > 0)
        return value.bytes;
    int64_t count = elementCount(value);
    int64_t size = dtypeSize(value.dtype);
    if (count >= 0 && size > 0)
        return count * size;
    return -1;
}

int64_t product(const std::vector<int64_t>& dims, size_t from)
{
    int64_t p = 1;
    for (size_t i = from; i < dims.size(); ++i)
        p *= dims[i];
    return p;
}

bool staticShape(const ModelValue& value)
{
    return value.shapeKnown && std::all_of(value.shape.begin(), value.shape.end(), [](int64_t d) { return d >= 0; });
}

int64_t intAttribute(const ModelOp& op, const char* name, int64_t fallback)
{
    auto it = op.intAttributes.find(name);
    return it == op.intAttributes.end() || it->second.empty() ? fallback : it->second.front();
}

} // namespace

std::string canonicalOpType(const std::string& type)
{
    auto it = canonicalNames().find(type);
    return it == canonicalNames().end() ? type : it->second;
}

int64_t elementCount(const ModelValue& value)
{
    if (!staticShape(value))
        return -1;
    return product(value.shape, 0);
}

OpWork opWork(const ModelGraph& graph, int opIndex)
{
    const ModelOp& op = graph.ops[opIndex];
    OpWork work;
    work.canonicalType = canonicalOpType(op.type);
    auto formulaIt = formulas().find(work.canonicalType);

    auto value = [&](int index) -> const ModelValue* {
        return index >= 0 && index < static_cast<int>(graph.values.size()) ? &graph.values[index] : nullptr;
    };
    const ModelValue* in0 = op.inputs.empty() ? nullptr : value(op.inputs[0]);
    const ModelValue* in1 = op.inputs.size() < 2 ? nullptr : value(op.inputs[1]);
    const ModelValue* out0 = op.outputs.empty() ? nullptr : value(op.outputs[0]);

    // Bytes: every distinct input (weights included: they are read from the device's memory) and output.
    double inBytes = 0, outBytes = 0;
    std::unordered_set<int> seen;
    for (int index : op.inputs) {
        const ModelValue* v = value(index);
        if (!v || !seen.insert(index).second)
            continue;
        int64_t b = valueBytes(*v);
        if (b < 0)
            work.shapesKnown = false;
        else
            inBytes += double(b);
    }
    for (int index : op.outputs) {
        const ModelValue* v = value(index);
        if (!v)
            continue;
        int64_t b = valueBytes(*v);
        if (b < 0)
            work.shapesKnown = false;
        else
            outBytes += double(b);
    }

    if (formulaIt == formulas().end()) {
        work.kind = WorkKind::Unknown;
        work.bytes = inBytes + outBytes;
        return work;
    }

    const Formula formula = formulaIt->second;
    const int64_t outCount = out0 ? elementCount(*out0) : -1;
    const int64_t inCount = in0 ? elementCount(*in0) : -1;
    const std::string dtype = in0 && !in0->dtype.empty() ? in0->dtype : (out0 ? out0->dtype : std::string());
    const bool halfPrecision = dtype == "float16" || dtype == "bfloat16";
    double flops = -1; // -1: the formula lacked a shape
    work.kind = WorkKind::Compute;
    work.bytes = inBytes + outBytes;

    switch (formula) {
    case Formula::Conv:
        // 2 * N*Cout*Hout*Wout * Cin/group*kh*kw; the weight is [Cout, Cin/group, kh, kw].
        if (outCount >= 0 && in1 && staticShape(*in1) && in1->shape.size() >= 2)
            flops = 2.0 * double(outCount) * double(product(in1->shape, 1));
        work.tensorCoreEligible = halfPrecision;
        break;
    case Formula::ConvTranspose:
        // Each input element scatters into Cout/group*kh*kw outputs; the weight is [Cin, Cout/group, kh, kw].
        if (inCount >= 0 && in1 && staticShape(*in1) && in1->shape.size() >= 2)
            flops = 2.0 * double(inCount) * double(product(in1->shape, 1));
        work.tensorCoreEligible = halfPrecision;
        break;
    case Formula::Gemm:
    case Formula::MatMul: {
        // 2*M*N*K = 2 * output elements * K. K is A's last dimension (its first with Gemm's transA);
        // aten::addmm/baddbmm take the bias first.
        bool biasFirst = op.type == "aten::addmm" || op.type == "aten::baddbmm";
        const ModelValue* a = biasFirst ? in1 : in0;
        bool transA = intAttribute(op, "transA", 0) != 0 || intAttribute(op, "transpose_a", 0) != 0;
        if (outCount >= 0 && a && staticShape(*a) && !a->shape.empty()) {
            int64_t k = transA && a->shape.size() >= 2 ? a->shape[a->shape.size() - 2] : a->shape.back();
            flops = 2.0 * double(outCount) * double(k);
            if (formula == Formula::Gemm && !biasFirst && op.inputs.size() >= 3)
                flops += double(outCount); // + C
        }
        work.tensorCoreEligible = halfPrecision;
        break;
    }
    case Formula::Pool: {
        auto kernel = op.intAttributes.find("kernel_shape");
        if (outCount >= 0 && kernel != op.intAttributes.end() && !kernel->second.empty())
            flops = double(outCount) * double(product(kernel->second, 0));
        else if (inCount >= 0 && outCount >= 0)
            flops = double(std::max(inCount, outCount)); // window unknown (aten passes it as a value)
        break;
    }
    case Formula::GlobalPool:
    case Formula::Reduction:
        if (inCount >= 0)
            flops = double(inCount);
        break;
    case Formula::Elementwise:
        if (outCount >= 0)
            flops = double(outCount) * std::max<double>(1.0, double(op.inputs.size()) - 1.0);
        break;
    case Formula::Transcendental:
        // A transcendental is several instructions; 4 FLOP-equivalents per element (assumed).
        if (outCount >= 0)
            flops = 4.0 * double(outCount);
        break;
    case Formula::Normalization:
        // Inference batch norm folds to scale + shift (2 per element); layer/instance norm also compute
        // mean and variance (about 5).
        if (outCount >= 0)
            flops = (work.canonicalType == "BatchNormalization" ? 2.0 : 5.0) * double(outCount);
        break;
    case Formula::Softmax:
        if (outCount >= 0)
            flops = 5.0 * double(outCount); // max, subtract, exp, sum, divide
        break;
    case Formula::Resize: {
        auto mode = op.stringAttributes.find("mode");
        bool nearest = mode == op.stringAttributes.end() || mode->second == "nearest";
        if (outCount >= 0)
            flops = (nearest ? 1.0 : 8.0) * double(outCount);
        break;
    }
    case Formula::TopK:
        if (inCount >= 0)
            flops = 2.0 * double(inCount) * std::log2(std::max<double>(2.0, double(outCount > 0 ? outCount : 2)));
        break;
    case Formula::Nms:
        // Greedy NMS compares every box with every kept box: batches x classes x boxes^2 IoU tests
        // (boxes [N, B, 4], scores [N, C, B]); about 10 FLOP per IoU.
        if (in0 && in1 && staticShape(*in0) && staticShape(*in1) && in0->shape.size() == 3 && in1->shape.size() == 3) {
            double boxes = double(in0->shape[1]);
            flops = 10.0 * double(in1->shape[0]) * double(in1->shape[1]) * boxes * boxes;
        }
        break;
    case Formula::Memory:
        work.kind = WorkKind::Memory;
        flops = 0;
        break;
    case Formula::WriteOnly:
        work.kind = WorkKind::Memory;
        work.bytes = outBytes;
        flops = 0;
        break;
    case Formula::View:
        work.kind = WorkKind::View;
        work.bytes = 0;
        flops = 0;
        break;
    }
    if (flops < 0) {
        work.shapesKnown = false;
        flops = 0;
    }
    work.flops = flops;
    return work;
}

} // namespace placescope
