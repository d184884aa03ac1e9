// SPDX-License-Identifier: MIT
// OpWork: what one op does, independent of the device: floating-point operations and bytes moved, from its
// type, attributes and the shapes of its values. The roofline turns it into time per device.
#pragma once

#include "placement/graph/model_graph.h"

#include <string>

namespace placescope {

enum class WorkKind
{
    Compute, // FLOP formula known (Conv, Gemm, pooling, elementwise, ...)
    Memory, // moves data, no math (Transpose, Concat, Gather, Cast, ...)
    View, // metadata only, no kernel (Reshape, Shape, Squeeze, Identity, ...): costs nothing
    Unknown, // op type the model does not know: bytes in + out, memory-bound (an assumption)
};

struct OpWork
{
    double flops = 0;
    double bytes = 0; // bytes read + written (inputs including weights, outputs)
    WorkKind kind = WorkKind::Unknown;
    bool tensorCoreEligible = false; // fp16/bf16 Conv/ConvTranspose/MatMul/Gemm: priced at the tensor-core peak
    bool shapesKnown = true; // false: some value had no static size, so the figures are lower bounds
    std::string canonicalType; // the ONNX op type the formula used ("aten::conv2d" -> "Conv")
};

// The ONNX op type an aten/TensorFlow name computes like ("aten::addmm" -> "Gemm"); the input if none.
std::string canonicalOpType(const std::string& type);
// Number of elements of a value's shape; -1 when a dimension or the rank is unknown.
int64_t elementCount(const ModelValue& value);
// Work of model op `opIndex`. Conv: 2 * N*Cout*Hout*Wout * Cin/group*kh*kw (from the output and the weight
// shape [Cout, Cin/group, kh, kw]); Gemm/MatMul: 2*M*N*K; pooling: output elements x window; elementwise:
// a few FLOP per output element; normalizations and reductions: a few FLOP per input element.
OpWork opWork(const ModelGraph& graph, int opIndex);

} // namespace placescope
