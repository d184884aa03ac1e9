// SPDX-License-Identifier: MIT
#include "placement/graph/model_loader.h"
#include "placement/layout/layout_pass.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace placescope {
namespace {

constexpr int kCpu = 0;
constexpr int kGpu = 1;

// Builds small ModelGraphs by hand: values with shapes and dtypes, ops wired by value name.
class GraphBuilder
{
public:
    int value(
        const std::string& name, std::vector<int64_t> shape, const std::string& dtype = "float32", bool weight = false)
    {
        ModelValue v;
        v.name = name;
        v.shape = shape;
        v.shapeKnown = true;
        v.dtype = dtype;
        int64_t elements = 1;
        for (int64_t d : shape)
            elements *= d;
        v.bytes = elements * (dtype == "float16" || dtype == "bfloat16" ? 2 : 4);
        v.isWeight = weight;
        v.isGraphInput = !weight;
        graph.values.push_back(v);
        return static_cast<int>(graph.values.size()) - 1;
    }
    int op(
        const std::string& name, const std::string& type, std::vector<int> inputs, std::vector<int> outputs, int device)
    {
        ModelOp o;
        o.name = name;
        o.type = type;
        o.inputs = inputs;
        o.outputs = outputs;
        const int index = static_cast<int>(graph.ops.size());
        for (int v : outputs) {
            graph.values[v].producer = index;
            graph.values[v].isGraphInput = false;
        }
        graph.ops.push_back(o);
        devices.push_back(device);
        return index;
    }
    void output(int v) { graph.values[v].isGraphOutput = true; }

    ModelGraph graph;
    std::vector<int> devices;
};

CapabilityTable tfLikeTable()
{
    auto table = CapabilityTable::fromJson("tf", R"({"ops": {
        "Conv": {"cpu_layouts": ["NHWC"], "gpu_layouts": ["NCHW", "NHWC"], "layout_sensitive": true},
        "MaxPool": {"cpu_layouts": ["NHWC"], "gpu_layouts": ["NCHW", "NHWC"], "layout_sensitive": true},
        "Relu": {}, "Reshape": {}, "Transpose": {}}})");
    EXPECT_TRUE(table.isOk()) << table.status().message();
    return *table;
}

LayoutFacts facts(double computeCapability = 0)
{
    LayoutFacts f;
    f.cpuMemoryBandwidthGBps = 50;
    f.gpuMemoryBandwidthGBps = 900;
    f.gpuComputeCapability = computeCapability;
    f.tf32Enabled = false;
    return f;
}

double transposeUs(int64_t bytes, double bandwidthGBps)
{
    return 2.0 * static_cast<double>(bytes) / (bandwidthGBps * 1e3);
}

// GPU conv -> GPU relu -> CPU MaxPool -> GPU conv, with a huge region input and output and small
// activations around the pool: transposes around the pool are cheaper than flipping the region.
TEST(LayoutPassTest, CpuMaxPoolInNchwRegionGetsTransposesWhenTheyAreCheaper)
{
    GraphBuilder b;
    int x = b.value("x", { 1, 3, 1024, 1024 });
    int w0 = b.value("w0", { 8, 3, 3, 3 }, "float32", true);
    int c0 = b.value("c0", { 1, 8, 32, 32 });
    int r0 = b.value("r0", { 1, 8, 32, 32 });
    int p0 = b.value("p0", { 1, 8, 16, 16 });
    int w1 = b.value("w1", { 64, 8, 3, 3 }, "float32", true);
    int y = b.value("y", { 1, 64, 256, 256 });
    b.op("conv0", "Conv", { x, w0 }, { c0 }, kGpu);
    b.op("relu0", "Relu", { c0 }, { r0 }, kGpu);
    int pool = b.op("pool0", "MaxPool", { r0 }, { p0 }, kCpu);
    b.op("conv1", "Conv", { p0, w1 }, { y }, kGpu);
    b.output(y);

    LayoutResult result = runLayoutPass(b.graph, b.devices, tfLikeTable(), facts());
    ASSERT_EQ(result.regions.size(), 1u);
    EXPECT_EQ(result.regions[0].ops.size(), 4u);
    EXPECT_EQ(result.regions[0].chosen, DataLayout::Nchw);
    ASSERT_EQ(result.added.size(), 2u);
    for (const LayoutTranspose& t : result.added) {
        EXPECT_EQ(t.op, pool);
        EXPECT_EQ(t.device, kCpu);
    }
    EXPECT_TRUE(result.added[0].beforeOp != result.added[1].beforeOp);
    const double expected = transposeUs(b.graph.values[r0].bytes, 50) + transposeUs(b.graph.values[p0].bytes, 50);
    EXPECT_NEAR(result.chosenUs, expected, 1e-9);
    // Flipping would convert x and y on the GPU instead, which costs more here.
    EXPECT_GT(result.regions[0].nhwcCostUs, result.regions[0].nchwCostUs);
    EXPECT_NEAR(result.regions[0].nhwcCostUs,
        transposeUs(b.graph.values[x].bytes, 900) + transposeUs(b.graph.values[y].bytes, 900), 1e-9);
    EXPECT_DOUBLE_EQ(result.savingUs, 0.0);
}

// Two CPU pools joined by a relu: four transposes in NCHW, two at the region's borders in NHWC.
TEST(LayoutPassTest, CpuPoolRegionFlipsToNhwcWhenThatIsCheaper)
{
    GraphBuilder b;
    int x = b.value("x", { 1, 16, 64, 64 });
    int p0 = b.value("p0", { 1, 16, 32, 32 });
    int r0 = b.value("r0", { 1, 16, 32, 32 });
    int p1 = b.value("p1", { 1, 16, 16, 16 });
    b.op("pool0", "MaxPool", { x }, { p0 }, kCpu);
    b.op("relu0", "Relu", { p0 }, { r0 }, kCpu);
    b.op("pool1", "MaxPool", { r0 }, { p1 }, kCpu);
    b.output(p1);

    LayoutResult result = runLayoutPass(b.graph, b.devices, tfLikeTable(), facts());
    ASSERT_EQ(result.regions.size(), 1u);
    EXPECT_EQ(result.regions[0].chosen, DataLayout::Nhwc);
    EXPECT_EQ(result.regions[0].cpuOps, 2);
    ASSERT_EQ(result.added.size(), 2u);
    EXPECT_EQ(result.added[0].value, x);
    EXPECT_EQ(result.added[0].to, DataLayout::Nhwc);
    EXPECT_EQ(result.added[1].value, p1);
    EXPECT_EQ(result.added[1].to, DataLayout::Nchw);
    EXPECT_NEAR(result.baselineUs,
        transposeUs(b.graph.values[x].bytes + 2 * b.graph.values[p0].bytes + b.graph.values[p1].bytes, 50), 1e-9);
    EXPECT_GT(result.savingUs, 0.0);
    EXPECT_NE(result.regions[0].reason.find("MaxPool on CPU"), std::string::npos) << result.regions[0].reason;
}

GraphBuilder convChain(const std::string& dtype, int convs)
{
    GraphBuilder b;
    int current = b.value("x", { 8, 64, 56, 56 }, dtype);
    // Names built with append: GCC 12 warns falsely (-Wrestrict, PR105651) on "literal" + std::string.
    auto named = [](const char* prefix, int i) { return std::string(prefix).append(std::to_string(i)); };
    for (int i = 0; i < convs; ++i) {
        int w = b.value(named("w", i), { 64, 64, 3, 3 }, dtype, true);
        int c = b.value(named("c", i), { 8, 64, 56, 56 }, dtype);
        int r = b.value(named("r", i), { 8, 64, 56, 56 }, dtype);
        b.op(named("conv", i), "Conv", { current, w }, { c }, kGpu);
        b.op(named("relu", i), "Relu", { c }, { r }, kGpu);
        current = r;
    }
    b.output(current);
    return b;
}

TEST(LayoutPassTest, Fp16ConvChainOnVoltaFlipsToNhwc)
{
    GraphBuilder b = convChain("float16", 4);
    LayoutResult result = runLayoutPass(b.graph, b.devices, tfLikeTable(), facts(7.0));
    ASSERT_EQ(result.regions.size(), 1u);
    EXPECT_EQ(result.regions[0].chosen, DataLayout::Nhwc);
    EXPECT_EQ(result.regions[0].tensorCoreConvs, 4);
    EXPECT_EQ(result.gpuConvs, 4);
    EXPECT_TRUE(result.frameworkSwapRuleHolds);
    EXPECT_GT(result.savingUs, 0.0);
    // Only the region's input and output are converted.
    EXPECT_EQ(result.added.size(), 2u);
    EXPECT_LT(result.chosenUs, result.baselineUs);
}

TEST(LayoutPassTest, Fp32ConvChainWithoutTensorCoresKeepsNchw)
{
    GraphBuilder b = convChain("float32", 4);
    LayoutResult result = runLayoutPass(b.graph, b.devices, tfLikeTable(), facts(7.0));
    ASSERT_EQ(result.regions.size(), 1u);
    EXPECT_EQ(result.regions[0].chosen, DataLayout::Nchw);
    EXPECT_TRUE(result.added.empty());
    EXPECT_FALSE(result.frameworkSwapRuleHolds);
    EXPECT_DOUBLE_EQ(result.savingUs, 0.0);

    // The same chain on Ampere with TF32 on prefers NHWC (Grappler's ampere_ready && TF32 rule).
    LayoutFacts ampere = facts(8.0);
    ampere.tf32Enabled = true;
    LayoutResult tf32 = runLayoutPass(b.graph, b.devices, tfLikeTable(), ampere);
    EXPECT_EQ(tf32.regions[0].chosen, DataLayout::Nhwc);
}

TEST(LayoutPassTest, ReshapeSplitsRegions)
{
    GraphBuilder b;
    int x = b.value("x", { 1, 8, 8, 8 });
    int c0 = b.value("c0", { 1, 8, 8, 8 });
    int s = b.value("shape", { 4 }, "int64", true);
    int r = b.value("r", { 1, 8, 8, 8 });
    int c1 = b.value("c1", { 1, 8, 8, 8 });
    b.op("conv0", "Conv", { x }, { c0 }, kGpu);
    b.op("reshape", "Reshape", { c0, s }, { r }, kGpu);
    b.op("conv1", "Conv", { r }, { c1 }, kGpu);
    LayoutResult result = runLayoutPass(b.graph, b.devices, tfLikeTable(), facts());
    EXPECT_EQ(result.regions.size(), 2u);
    EXPECT_EQ(result.regionOfOp[1], -1);
    EXPECT_EQ(result.opKinds[1], LayoutOpKind::Other);
}

TEST(LayoutPassTest, PermutationComposition)
{
    EXPECT_TRUE(permutationsCancel({ 0, 2, 3, 1 }, { 0, 3, 1, 2 }));
    EXPECT_TRUE(permutationsCancel({ 0, 3, 1, 2 }, { 0, 2, 3, 1 }));
    EXPECT_FALSE(permutationsCancel({ 0, 2, 3, 1 }, { 0, 2, 3, 1 }));
    EXPECT_FALSE(permutationsCancel({ 0, 2, 1, 3, 4 }, { 0, 2, 1, 3 }));
    EXPECT_FALSE(permutationsCancel({}, {}));
}

TEST(LayoutPassTest, InverseTransposePairIsRemoved)
{
    GraphBuilder b;
    int x = b.value("x", { 1, 32, 28, 28 });
    int t0 = b.value("t0", { 1, 28, 28, 32 });
    int t1 = b.value("t1", { 1, 32, 28, 28 });
    int y = b.value("y", { 1, 32, 28, 28 });
    int first = b.op("to_nhwc", "Transpose", { x }, { t0 }, kGpu);
    b.graph.ops[first].intAttributes["perm"] = { 0, 2, 3, 1 };
    int second = b.op("to_nchw", "Transpose", { t0 }, { t1 }, kGpu);
    b.graph.ops[second].intAttributes["perm"] = { 0, 3, 1, 2 };
    b.op("relu", "Relu", { t1 }, { y }, kGpu);
    LayoutResult result = runLayoutPass(b.graph, b.devices, tfLikeTable(), facts());
    ASSERT_EQ(result.removed.size(), 1u);
    EXPECT_EQ(result.removed[0].first, first);
    EXPECT_EQ(result.removed[0].second, second);
    EXPECT_TRUE(result.removed[0].firstRemoved);
    EXPECT_NEAR(result.savingUs, transposeUs(b.graph.values[t0].bytes + b.graph.values[t1].bytes, 900), 1e-9);
}

// ShuffleNet's channel shuffle: Reshape -> Transpose(0,2,1,3,4) -> Reshape. One Transpose, no inverse pair.
TEST(LayoutPassTest, ChannelShuffleTransposeIsKept)
{
    GraphBuilder b;
    int x = b.value("x", { 1, 116, 28, 28 });
    int shape5 = b.value("shape5", { 5 }, "int64", true);
    int shape4 = b.value("shape4", { 4 }, "int64", true);
    int r0 = b.value("r0", { 1, 2, 58, 28, 28 });
    int t0 = b.value("t0", { 1, 58, 2, 28, 28 });
    int y = b.value("y", { 1, 116, 28, 28 });
    b.op("reshape0", "Reshape", { x, shape5 }, { r0 }, kGpu);
    int shuffle = b.op("shuffle", "Transpose", { r0 }, { t0 }, kGpu);
    b.graph.ops[shuffle].intAttributes["perm"] = { 0, 2, 1, 3, 4 };
    b.op("reshape1", "Reshape", { t0, shape4 }, { y }, kGpu);
    LayoutResult result = runLayoutPass(b.graph, b.devices, tfLikeTable(), facts());
    EXPECT_TRUE(result.removed.empty());
}

TEST(LayoutPassTest, RealShuffleNetKeepsItsChannelShuffles)
{
    auto model = loadModelGraph(std::string(PLACESCOPE_DATA_DIR) + "/models/light_shufflenet.onnx");
    ASSERT_TRUE(model.isOk()) << model.status().message();
    int transposes = 0;
    for (const ModelOp& op : model->ops)
        transposes += op.type == "Transpose";
    EXPECT_GT(transposes, 0);
    auto table = CapabilityTable::forFramework("torch");
    ASSERT_TRUE(table.isOk());
    std::vector<int> allGpu(model->ops.size(), kGpu);
    LayoutResult result = runLayoutPass(*model, allGpu, *table, facts(8.0));
    EXPECT_TRUE(result.removed.empty());
    EXPECT_FALSE(result.regions.empty());
    for (const LayoutRegion& region : result.regions)
        for (int op : region.ops)
            EXPECT_NE(model->ops[op].type, "Transpose");
}

} // namespace
} // namespace placescope
