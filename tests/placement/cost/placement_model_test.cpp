// SPDX-License-Identifier: MIT
#include "placement/cost/placement_model.h"

#include "graph_builder.h"
#include "placement/cost/device_table.h"
#include "placement/cost/op_work.h"
#include "placement/cost/roofline.h"
#include "placement/engine/planner.h"
#include "placement/graph/onnx_model_loader.h"

#include <gtest/gtest.h>

#include <cmath>

namespace placescope {
namespace {

using testing::GraphBuilder;

// image bytes -> DecodeImage -> Conv(weight from a ConstantOfShape) -> Relu -> MyVendorOp -> output.
struct Pipeline
{
    GraphBuilder b;
    int decode, constant, conv, relu, custom;
    int image, weight, shape;

    Pipeline()
    {
        image = b.input("image", { 50000 }, "uint8");
        int pixels = b.value("pixels", { 1, 3, 64, 64 });
        shape = b.weight("w_shape", { 4 }, "int64");
        weight = b.value("w", { 16, 3, 3, 3 });
        b.graph.values[weight].isWeight = true;
        int features = b.value("features", { 1, 16, 64, 64 });
        int activated = b.value("activated", { 1, 16, 64, 64 });
        int result = b.value("result", { 1, 16, 64, 64 });
        decode = b.op("decode", "DecodeImage", { image }, { pixels });
        b.graph.ops[decode].domain = "com.microsoft.extensions";
        constant = b.op("w_producer", "ConstantOfShape", { shape }, { weight });
        b.graph.ops[constant].producesWeight = true;
        conv = b.op("conv", "Conv", { pixels, weight }, { features });
        relu = b.op("relu", "Relu", { features }, { activated });
        custom = b.op("custom", "MyVendorOp", { activated, activated }, { result });
        b.output(result);
    }
};

PlacementModel build(const ModelGraph& graph, CostOptions options = {})
{
    auto model = buildPlacementModel(graph, options);
    EXPECT_TRUE(model.isOk()) << model.status().message();
    return model.isOk() ? std::move(model.value()) : PlacementModel {};
}

bool mentions(const std::vector<std::string>& lines, const std::string& text)
{
    for (const std::string& line : lines)
        if (line.find(text) != std::string::npos)
            return true;
    return false;
}

TEST(PlacementModel, FoldsWeightsAndAddsHostEnds)
{
    Pipeline p;
    PlacementModel model = build(p.b.graph);
    const OpGraph& g = model.graph;
    ASSERT_EQ(g.devices.size(), 2u);
    EXPECT_EQ(g.devices[0].name, "cpu");
    EXPECT_EQ(g.devices[1].kind, DeviceKind::Gpu);
    EXPECT_EQ(g.devices[1].memoryBytes, 85899345920); // h100 from the table

    // 4 compute ops + 1 input source + 1 output sink; the weight producer is folded.
    ASSERT_EQ(g.ops.size(), 6u);
    EXPECT_EQ(model.graphOpOfModelOp[p.constant], -1);
    for (int op : { p.decode, p.conv, p.relu, p.custom })
        EXPECT_GE(model.graphOpOfModelOp[op], 0);
    const PlacementOp& conv = g.ops[model.graphOpOfModelOp[p.conv]];
    EXPECT_EQ(conv.memoryBytes, 4 * 16 * 64 * 64 + 4 * 16 * 3 * 3 * 3); // output + folded weight

    // No edge touches the weight; one edge per producer->consumer value (the custom op reads 'activated'
    // twice: one edge).
    ASSERT_EQ(g.edges.size(), 5u);
    int source = -1, sink = -1;
    for (size_t i = 0; i < g.ops.size(); ++i) {
        if (g.ops[i].type == "Input")
            source = static_cast<int>(i);
        if (g.ops[i].type == "Output")
            sink = static_cast<int>(i);
    }
    ASSERT_GE(source, 0);
    ASSERT_GE(sink, 0);
    EXPECT_EQ(g.ops[source].id, "input:image");
    EXPECT_EQ(g.ops[source].pin, std::optional<int>(0));
    EXPECT_EQ(g.ops[source].costUs[0], 0);
    EXPECT_TRUE(std::isinf(g.ops[source].costUs[1]));
    EXPECT_EQ(g.ops[sink].pin, std::optional<int>(0));
    EXPECT_EQ(model.modelOpOfGraphOp[source], -1);
    bool inputEdge = false;
    for (const PlacementEdge& e : g.edges) {
        if (e.from == source) {
            inputEdge = true;
            EXPECT_EQ(e.to, model.graphOpOfModelOp[p.decode]);
            EXPECT_EQ(e.bytes, 50000);
        }
        EXPECT_NE(e.to, source);
    }
    EXPECT_TRUE(inputEdge);
}

TEST(PlacementModel, CapabilityLimitsAndFrameworkDefault)
{
    Pipeline p;
    PlacementModel model = build(p.b.graph);
    int decode = model.graphOpOfModelOp[p.decode];
    int conv = model.graphOpOfModelOp[p.conv];
    EXPECT_EQ(model.graph.ops[decode].costUs[1], kNoKernel);
    EXPECT_TRUE(std::isfinite(model.graph.ops[decode].costUs[0]));
    EXPECT_EQ(model.frameworkDefault[decode], 0);
    EXPECT_EQ(model.frameworkDefault[conv], 1);
    EXPECT_TRUE(mentions(model.assumptions, "MyVendorOp"));
    EXPECT_TRUE(mentions(model.assumptions, "pageable")); // torch copies from pageable memory

    // The engine accepts the graph, and the sum solver keeps the decode on the CPU.
    auto proposal = plan(model.graph, PlanOptions {});
    ASSERT_TRUE(proposal.isOk()) << proposal.status().message();
    EXPECT_EQ(proposal->assignment[decode], 0);

    CostOptions tf;
    tf.framework = "tf";
    PlacementModel tfModel = build(p.b.graph, tf);
    EXPECT_TRUE(mentions(tfModel.assumptions, "pinned copies"));
    EXPECT_GT(tfModel.graph.links[0].bandwidthGBps, model.graph.links[0].bandwidthGBps);
}

TEST(PlacementModel, MeasuredCostsWinAndCalibrateTheRest)
{
    Pipeline p;
    p.b.graph.ops[p.conv].measuredGpuUs = 70.0;
    p.b.graph.ops[p.conv].measuredCpuUs = 900.0;
    CostOptions options;
    options.gpu = "a100";
    options.gpuMemoryBytes = int64_t(16) << 30;
    PlacementModel model = build(p.b.graph, options);
    EXPECT_EQ(model.graph.devices[1].memoryBytes, int64_t(16) << 30);
    const PlacementOp& conv = model.graph.ops[model.graphOpOfModelOp[p.conv]];
    EXPECT_DOUBLE_EQ(conv.costUs[0], 900.0);
    EXPECT_DOUBLE_EQ(conv.costUs[1], 70.0);

    // The measured conv (a compute op with known shapes) scales the estimate of the unmeasured relu.
    auto table = DeviceTable::builtin();
    ASSERT_TRUE(table.isOk());
    DeviceSpec a100 = table->device("a100").value();
    double convEstimate = rooflineUs(opWork(p.b.graph, p.conv), a100);
    double scale = std::clamp(70.0 / convEstimate, Calibration::kMinScale, Calibration::kMaxScale);
    double reluEstimate = rooflineUs(opWork(p.b.graph, p.relu), a100);
    EXPECT_NEAR(model.graph.ops[model.graphOpOfModelOp[p.relu]].costUs[1], reluEstimate * scale, 1e-9);
    EXPECT_TRUE(mentions(model.assumptions, "GPU estimates scaled"));
}

TEST(PlacementModel, HostTimeOfAMemoryOpDoesNotCalibrate)
{
    Pipeline p;
    p.b.graph.ops[p.relu].measuredCpuUs = 900.0; // dispatch-dominated or shape-guessed: not a roofline sample
    PlacementModel model = build(p.b.graph, CostOptions {});
    EXPECT_DOUBLE_EQ(model.graph.ops[model.graphOpOfModelOp[p.relu]].costUs[0], 900.0);
    EXPECT_FALSE(mentions(model.assumptions, "CPU estimates scaled"));
}

TEST(PlacementModel, ErrorsAreOneLine)
{
    Pipeline p;
    auto expectError = [&](CostOptions options, const std::string& mentions) {
        auto model = buildPlacementModel(p.b.graph, options);
        ASSERT_FALSE(model.isOk());
        EXPECT_EQ(model.status().message().find('\n'), std::string::npos) << model.status().message();
        EXPECT_NE(model.status().message().find(mentions), std::string::npos) << model.status().message();
    };
    CostOptions badGpu;
    badGpu.gpu = "h900";
    expectError(badGpu, "h900");
    CostOptions badFramework;
    badFramework.framework = "mxnet";
    expectError(badFramework, "mxnet");
    CostOptions noTrace;
    noTrace.gpu = "from-trace";
    expectError(noTrace, "--trace");
    CostOptions cpuAsGpu;
    cpuAsGpu.gpu = "host";
    expectError(cpuAsGpu, "not a GPU");
}

TEST(PlacementModel, GpuAndLinksFromARealTrace)
{
    Pipeline p;
    CostOptions options;
    options.gpu = "from-trace";
    options.tracePath = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
    PlacementModel model = build(p.b.graph, options);
    EXPECT_EQ(model.graph.devices[1].name, "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(model.graph.devices[1].memoryBytes, 84990623744);
    EXPECT_TRUE(mentions(model.assumptions, "GPU from the trace"));
    // torch prices pageable copies: the HtoD link is the one fitted from the trace's pageable copies.
    EXPECT_TRUE(mentions(model.assumptions, "HtoD pageable fitted"));
    EXPECT_LT(model.graph.links[0].bandwidthGBps, 31.5);
    EXPECT_NE(model.graph.links[0].bandwidthGBps, 10.0); // not the gen4 default
}

TEST(PlacementModel, RealResNet50)
{
    auto loaded = loadOnnxModel(std::string(PLACESCOPE_DATA_DIR) + "/models/light_resnet50.onnx");
    ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
    const ModelGraph& graph = loaded.value();
    for (const char* framework : { "torch", "tf", "ort" }) {
        CostOptions options;
        options.framework = framework;
        PlacementModel model = build(graph, options);
        int computeOps = 0;
        for (size_t i = 0; i < graph.ops.size(); ++i)
            computeOps += model.graphOpOfModelOp[i] >= 0;
        EXPECT_GT(computeOps, 150) << framework; // 415 nodes, 239 of them weight producers
        EXPECT_LT(computeOps, 200) << framework;
        // Every op type of ResNet-50 is in every table and has a formula.
        EXPECT_FALSE(mentions(model.assumptions, "not in the")) << framework;
        EXPECT_FALSE(mentions(model.assumptions, "no cost formula")) << framework;
        for (const PlacementOp& op : model.graph.ops) {
            if (op.type == "Conv") {
                EXPECT_LT(op.costUs[1], op.costUs[0]) << op.id; // GPU beats the host on every conv
            }
        }
        auto proposal = plan(model.graph, PlanOptions {});
        ASSERT_TRUE(proposal.isOk()) << proposal.status().message();
    }
}

} // namespace
} // namespace placescope
