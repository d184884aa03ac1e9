// SPDX-License-Identifier: MIT
// ModelGraph: a model's op graph as its sources give it (ONNX model, PyTorch execution trace, the framework
// ops of a trace), before any costing. Values carry shape, dtype, bytes and layout; ops refer to values by
// index. The cost model turns a ModelGraph into the solvers' OpGraph (placement/cost/placement_model.h).
// Plain value type: no globals, safe to copy to a worker thread.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace placescope {

enum class DataLayout
{
    None,
    Nchw,
    Nhwc
};

const char* layoutName(DataLayout layout);

// Bytes of one element of a dtype as the graph sources name them ("float32", "int64", "bool", ...); 0 when
// the dtype is unknown or has no fixed size ("string").
int64_t dtypeElementBytes(const std::string& dtype);

// Bytes of a tensor with a static shape (every dimension >= 0; an empty shape is a scalar), 0 when the rank
// or a dimension is unknown, the dtype has no fixed size, or the product overflows.
int64_t staticTensorBytes(const std::vector<int64_t>& shape, bool shapeKnown, const std::string& dtype);

struct ModelValue
{
    std::string name;
    std::vector<int64_t> shape; // -1 for a dimension nobody could infer; empty for a scalar or unknown rank
    bool shapeKnown = false; // false when even the rank is unknown
    std::string dtype; // "float32", "float16", "int64", ... ("" when unknown)
    int64_t bytes = 0; // 0 when the shape is not static
    DataLayout layout = DataLayout::None;
    bool isWeight = false; // initializer, Constant, or ConstantOfShape fed by a shape initializer
    bool isGraphInput = false; // fed by the caller (not a weight)
    bool isGraphOutput = false;
    int producer = -1; // op index, or -1 for graph inputs and initializers
    std::string device; // "cpu", "gpu" or "": where the source says the value lives (execution trace)
};

struct ModelOp
{
    std::string name; // unique within the graph
    std::string type; // "Conv", "aten::conv2d", ...
    std::string domain; // "" / "ai.onnx", "com.microsoft", ... (custom domains stay opaque ops)
    std::string scope; // where it sits: subgraph path ("If_3/then_branch") or a name prefix; for collapsing
    std::vector<int> inputs; // value indices ("" optional inputs are left out)
    std::vector<int> outputs;
    std::unordered_map<std::string, std::vector<int64_t>> intAttributes; // kernel_shape, strides, group, ...
    std::unordered_map<std::string, std::string> stringAttributes; // auto_pad, data_format, ...
    bool producesWeight = false; // Constant / ConstantOfShape weight: not compute, placed with its consumer
    // From a trace, when the op is linked to what it ran: measured time per step (-1 = not measured) and
    // the device the framework put it on ("cpu", "gpu" or ""); for an ONNX model beside an ONNX Runtime profile
    // also the execution provider that ran it ("CPUExecutionProvider"; placement/cost/ort_node_times.h).
    double measuredGpuUs = -1;
    double measuredCpuUs = -1;
    std::string measuredDevice;
    std::string measuredProvider;
    // Which framework-op occurrence of the trace this op is ("trace-ops" graphs; -1 otherwise): its start and
    // thread as the trace records them, so a viewer can go from the node to the event and back.
    int64_t traceStartNs = -1;
    int64_t traceGlobalTid = -1;
};

struct ModelGraph
{
    std::string source; // "onnx", "pytorch-et", "trace-ops"
    std::string path;
    std::vector<ModelValue> values;
    std::vector<ModelOp> ops; // in the source's order (a valid topological order for ONNX)
    std::vector<std::string> notes; // what the loader assumed or could not read, one line each
};

} // namespace placescope
