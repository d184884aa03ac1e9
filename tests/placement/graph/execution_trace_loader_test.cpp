// SPDX-License-Identifier: MIT
// PyTorch execution trace source on the real HTA benchmark ET (torch.add of two 256x256 CUDA tensors, with
// warmup and measure phases) and on a small ET in the later nested schema with strides.
#include "placement/graph/execution_trace_loader.h"

#include "graph_test_files.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace placescope {
namespace {

using test::TempFile;
using test::tracePath;

std::vector<const ModelOp*> opsOfType(const ModelGraph& graph, const std::string& type)
{
    std::vector<const ModelOp*> ops;
    for (const ModelOp& op : graph.ops)
        if (op.type == type)
            ops.push_back(&op);
    return ops;
}

TEST(ExecutionTraceLoader, RealTraceGivesTheAddOpsWithEdgesFromTensorIds)
{
    auto graph = loadExecutionTrace(tracePath("hta_benchmark_simple_add_et.json.gz"));
    ASSERT_TRUE(graph) << graph.status().message();
    EXPECT_EQ(graph->source, "pytorch-et");

    // Outermost ops only: aten::rand keeps its aten::empty + aten::uniform_ inside it.
    EXPECT_TRUE(opsOfType(*graph, "aten::empty").empty());
    EXPECT_TRUE(opsOfType(*graph, "aten::fill_").empty());
    const auto rands = opsOfType(*graph, "aten::rand");
    const auto adds = opsOfType(*graph, "aten::add");
    ASSERT_EQ(rands.size(), 2u);
    ASSERT_EQ(adds.size(), 2u); // warmup and measure
    for (const ModelOp* add : adds) {
        ASSERT_EQ(add->inputs.size(), 2u);
        for (size_t i = 0; i < 2; ++i) {
            const ModelValue& input = graph->values[add->inputs[i]];
            ASSERT_GE(input.producer, 0) << "edge rebuilt from the tensor id";
            EXPECT_EQ(&graph->ops[input.producer], rands[i]);
            EXPECT_EQ(input.shape, (std::vector<int64_t> { 256, 256 }));
            EXPECT_EQ(input.dtype, "float32");
            EXPECT_EQ(input.bytes, 256 * 256 * 4);
            EXPECT_EQ(input.device, "gpu");
        }
        EXPECT_EQ(add->measuredDevice, "gpu");
        EXPECT_EQ(add->intAttributes.at("arg2"), (std::vector<int64_t> { 1 })); // alpha
        ASSERT_EQ(add->outputs.size(), 1u);
        EXPECT_EQ(graph->values[add->outputs[0]].bytes, 65536 * 4);
    }
    EXPECT_NE(adds[1]->scope.find("measure|forward"), std::string::npos) << adds[1]->scope;
    EXPECT_EQ(adds[1]->scope.find("execution_trace"), std::string::npos) << "process/thread roots are no scope";

    // The CPU side of the benchmark: zeros -> to -> mul, all on the CPU; mul reads what aten::to returned.
    const auto muls = opsOfType(*graph, "aten::mul");
    ASSERT_EQ(muls.size(), 2u);
    for (const ModelOp* mul : muls) {
        EXPECT_EQ(mul->measuredDevice, "cpu");
        const ModelValue& first = graph->values[mul->inputs[0]];
        ASSERT_GE(first.producer, 0);
        EXPECT_EQ(graph->ops[first.producer].type, "aten::to");
        EXPECT_EQ(first.device, "cpu");
        EXPECT_EQ(first.bytes, 10485760LL * 4);
    }
    for (size_t i = 0; i < graph->ops.size(); ++i)
        for (int input : graph->ops[i].inputs)
            EXPECT_LT(graph->values[input].producer, static_cast<int>(i));
    EXPECT_EQ(graph->ops.size(), 10u);
}

TEST(ExecutionTraceLoader, NestedSchemaWithStridesGivesLayouts)
{
    // Schema 1.0.2+: inputs/outputs as objects, ctrl_deps for nesting, strides recorded. A channels_last
    // convolution whose input comes from an in-place relu_ of an earlier op's output.
    const char* et = R"et({"schema": "1.0.3-chakra.0.0.4", "pid": 1, "nodes": [
      {"id": 1, "name": "[pytorch|profiler|execution_trace|process]", "ctrl_deps": 1,
       "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}},
      {"id": 2, "name": "## forward ##", "ctrl_deps": 1,
       "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []}},
      {"id": 3, "name": "aten::relu_", "ctrl_deps": 2,
       "inputs": {"values": [[10,20,0,802816,2,"cuda:0"]], "shapes": [[1,64,112,112]], "types": ["Tensor(c10::Half)"],
                  "strides": [[802816,1,7168,64]]},
       "outputs": {"values": [[10,20,0,802816,2,"cuda:0"]], "shapes": [[1,64,112,112]], "types": ["Tensor(c10::Half)"],
                   "strides": [[802816,1,7168,64]]}},
      {"id": 4, "name": "aten::conv2d", "ctrl_deps": 2,
       "inputs": {"values": [[10,20,0,802816,2,"cuda:0"], [11,21,0,36864,2,"cuda:0"], 1],
                  "shapes": [[1,64,112,112], [64,64,3,3], []], "types": ["Tensor(c10::Half)", "Tensor(c10::Half)", "Int"],
                  "strides": [[802816,1,7168,64], [576,1,192,64], []]},
       "outputs": {"values": [[12,22,0,802816,2,"cuda:0"]], "shapes": [[1,64,112,112]], "types": ["Tensor(c10::Half)"],
                   "strides": [[802816,12544,112,1]]}},
      {"id": 5, "name": "aten::convolution", "ctrl_deps": 4,
       "inputs": {"values": [[10,20,0,802816,2,"cuda:0"]], "shapes": [[1,64,112,112]], "types": ["Tensor(c10::Half)"]},
       "outputs": {"values": [[12,22,0,802816,2,"cuda:0"]], "shapes": [[1,64,112,112]], "types": ["Tensor(c10::Half)"]}}
    ]})et";
    TempFile file(".json");
    file.write(et);
    auto graph = loadExecutionTrace(file.path());
    ASSERT_TRUE(graph) << graph.status().message();
    ASSERT_EQ(graph->ops.size(), 2u); // aten::convolution is nested in aten::conv2d
    const ModelOp& relu = graph->ops[0];
    const ModelOp& conv = graph->ops[1];
    EXPECT_EQ(relu.type, "aten::relu_");
    EXPECT_EQ(conv.type, "aten::conv2d");
    EXPECT_EQ(conv.scope, "## forward ##");
    ASSERT_EQ(conv.inputs.size(), 2u);
    const ModelValue& activation = graph->values[conv.inputs[0]];
    EXPECT_EQ(activation.producer, 0) << "the in-place relu_ wrote the tensor conv2d reads";
    EXPECT_EQ(activation.layout, DataLayout::Nhwc);
    EXPECT_EQ(activation.dtype, "float16");
    EXPECT_EQ(activation.bytes, 802816 * 2);
    EXPECT_EQ(graph->values[conv.outputs[0]].layout, DataLayout::Nchw);
    EXPECT_EQ(conv.intAttributes.at("arg2"), (std::vector<int64_t> { 1 }));
    EXPECT_TRUE(graph->values[relu.inputs[0]].isGraphInput);
}

TEST(ExecutionTraceLoader, BadFilesAreOneLineErrors)
{
    auto expectError = [](const Result<ModelGraph>& result, const std::string& mentions) {
        ASSERT_FALSE(result);
        EXPECT_EQ(result.status().message().find('\n'), std::string::npos) << result.status().message();
        EXPECT_NE(result.status().message().find(mentions), std::string::npos) << result.status().message();
    };
    expectError(loadExecutionTrace(tracePath("no_such_et.json")), "cannot open");
    TempFile empty(".json");
    empty.write("");
    expectError(loadExecutionTrace(empty.path()), "empty");
    TempFile notJson(".json");
    notJson.write("{\"nodes\": [ {\"id\": 1, ");
    expectError(loadExecutionTrace(notJson.path()), "not a PyTorch execution trace");
    TempFile noNodes(".json");
    noNodes.write("{\"schema\": \"1.0.1\"}");
    expectError(loadExecutionTrace(noNodes.path()), "nodes");
    expectError(loadExecutionTrace(tracePath("hta_benchmark_simple_add_trace.json.gz")), "Kineto");
}

} // namespace
} // namespace placescope
