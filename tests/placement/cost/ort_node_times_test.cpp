// SPDX-License-Identifier: MIT
// An ONNX model beside the ONNX Runtime profile of its runs (issue 28): the real profiles of tests/data/traces
// (scripts/make_ort_profiles.js) with the models they were made from. Every figure is the independent reader's:
//   python3 tests/data/ort_ref.py --model tests/data/models/mnist.onnx tests/data/traces/ort130_mnist_cpu.json
// (Python's json module over the profile, protoc --decode of the model):
//   mnist: model_nodes 12, profile_nodes 8, profile_node_runs 16, matched_nodes 2 (2 model_run):
//     Pooling66 runs 2 mean_us_per_run 9.5, Times212_reshape0 runs 2 mean_us_per_run 6.0, CPUExecutionProvider;
//     the other 10 were fused by ORT's optimizer (ReLU32_Output_0_nchwc, Times212/MatMulAddFusion, ...).
//   ultraface_rfb320 (unnamed nodes, named <op type>_<index> by ORT): model_nodes 126, profile_nodes 91,
//     profile_node_runs 182, matched_nodes 27, among them Softmax_90 mean 4237.0 and Concat_40 mean 58.0.
#include "placement/cost/model_trace_match.h"
#include "placement/cost/ort_node_times.h"
#include "placement/cost/placement_model.h"
#include "placement/graph/model_loader.h"
#include "profiler/importers/importer.h"
#include "tests/support/query_int.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <set>

namespace placescope {
namespace {

const std::string kData = PLACESCOPE_DATA_DIR;

class OrtNodeTimesTest : public ::testing::Test
{
protected:
    // The profile imported as `placescope import` does.
    std::string imported(const std::string& profile) const
    {
        const std::string out = m_dir.file(profile + ".sqlite");
        auto summary = importTraces({ kData + "/traces/" + profile }, out, {});
        EXPECT_TRUE(summary.isOk()) << summary.status().message();
        return out;
    }

    static ModelGraph model(const std::string& name)
    {
        auto loaded = loadModelGraph(kData + "/models/" + name);
        EXPECT_TRUE(loaded.isOk()) << loaded.status().message();
        return loaded.isOk() ? std::move(loaded).value() : ModelGraph {};
    }

    static int opNamed(const ModelGraph& graph, const std::string& name)
    {
        for (size_t i = 0; i < graph.ops.size(); ++i)
            if (graph.ops[i].name == name)
                return static_cast<int>(i);
        return -1;
    }

    const testing::TempDir m_dir { "ort_node_times" };
};

TEST_F(OrtNodeTimesTest, MnistNodesThatRanMatchTheirOwnProfileNodesByName)
{
    const std::string trace = imported("ort130_mnist_cpu.json");
    const ModelGraph mnist = model("mnist.onnx");
    ASSERT_EQ(mnist.ops.size(), 12u);
    auto match = matchModelToTrace(mnist, trace);
    ASSERT_TRUE(match.isOk()) << match.status().message();
    EXPECT_TRUE(match->byNodeName);
    EXPECT_EQ(match->rule, "the same node name");
    EXPECT_EQ(match->comparedOps, 12u);
    EXPECT_EQ(match->traceOps, 16u); // node runs: the session's events and fences are none
    EXPECT_EQ(match->matchedOps, 2u);
    EXPECT_FALSE(match->mismatch()); // ORT fused the rest: that is no sign of another model
    EXPECT_EQ(match->summary(),
        "2 of the model's 12 ops ran under their own name in this ONNX Runtime profile (matched by the same node "
        "name); the other 10 were fused, renamed or removed by its graph optimizer, or did not run");
    // Each matched op's occurrences are its own node's two runs, exactly: (thread, start) as the trace has them.
    const std::set<std::string> ran = { "Pooling66", "Times212_reshape0" };
    for (size_t i = 0; i < mnist.ops.size(); ++i) {
        const std::string& name = mnist.ops[i].name;
        if (!ran.count(name)) {
            EXPECT_TRUE(match->occurrences[i].empty()) << name;
            continue;
        }
        ASSERT_EQ(match->occurrences[i].size(), 2u) << name;
        for (const OpOccurrence& occurrence : match->occurrences[i])
            EXPECT_EQ(
                testing::queryInt(trace,
                    "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS o JOIN StringIds s ON s.id = o.nameId WHERE s.value = '"
                        + name + "' AND o.globalTid = " + std::to_string(occurrence.globalTid)
                        + " AND o.start = " + std::to_string(occurrence.startNs)),
                1)
                << name;
    }
}

TEST_F(OrtNodeTimesTest, MnistMeasuredTimesAreTheProfilesMeanPerRun)
{
    const std::string trace = imported("ort130_mnist_cpu.json");
    auto times = readOrtNodeTimes(trace);
    ASSERT_TRUE(times.isOk()) << times.status().message();
    EXPECT_TRUE(times->fromOrtProfile);
    EXPECT_EQ(times->runs, 2);
    EXPECT_EQ(times->byName.size(), 8u);
    const OrtNodeTime& pooling = times->byName.at("Pooling66");
    EXPECT_EQ(pooling.occurrences, 2);
    EXPECT_EQ(pooling.totalNs, 19000); // 13 us + 6 us
    EXPECT_DOUBLE_EQ(pooling.meanUs, 9.5);
    EXPECT_EQ(pooling.provider, "CPUExecutionProvider");
    EXPECT_EQ(pooling.device, "cpu");
    EXPECT_DOUBLE_EQ(times->byName.at("Times212_reshape0").meanUs, 6.0);

    auto measured = withTraceMeasurements(model("mnist.onnx"), trace);
    ASSERT_TRUE(measured.isOk()) << measured.status().message();
    int withTimes = 0;
    for (const ModelOp& op : measured->ops)
        withTimes += op.measuredCpuUs >= 0 || op.measuredGpuUs >= 0;
    EXPECT_EQ(withTimes, 2);
    const ModelOp& pool = measured->ops[static_cast<size_t>(opNamed(*measured, "Pooling66"))];
    EXPECT_DOUBLE_EQ(pool.measuredCpuUs, 9.5);
    EXPECT_EQ(pool.measuredGpuUs, -1);
    EXPECT_EQ(pool.measuredDevice, "cpu");
    EXPECT_EQ(pool.measuredProvider, "CPUExecutionProvider");
    const ModelOp& conv = measured->ops[static_cast<size_t>(opNamed(*measured, "Convolution28"))];
    EXPECT_EQ(conv.measuredCpuUs, -1);
    EXPECT_TRUE(conv.measuredProvider.empty());

    // The cost model takes the measured time as the op's CPU cost and says which ops are measured.
    CostOptions options;
    options.framework = "ort";
    options.tracePath = trace;
    auto placement = buildPlacementModel(*measured, options);
    ASSERT_TRUE(placement.isOk()) << placement.status().message();
    const int graphOp = placement->graphOpOfModelOp[static_cast<size_t>(opNamed(*measured, "Pooling66"))];
    ASSERT_GE(graphOp, 0);
    EXPECT_DOUBLE_EQ(placement->graph.ops[static_cast<size_t>(graphOp)].costUs[0], 9.5);
    bool said = false, estimated = false;
    for (const std::string& line : placement->assumptions) {
        said |= line
            == "measured by ONNX Runtime: 2 of 12 ops ran under their own name in the profile (CPUExecutionProvider "
               "x2); their times there are the profile's mean per run, the others' are estimates";
        estimated |= line.rfind("roofline estimates for 10 of 12 ops on the CPU and 12 on the GPU", 0) == 0;
    }
    EXPECT_TRUE(said);
    EXPECT_TRUE(estimated);
}

TEST_F(OrtNodeTimesTest, UnnamedNodesMatchAsOrtNamesThem)
{
    const std::string trace = imported("ort130_ultraface_rfb320_cpu.json");
    const ModelGraph ultraface = model("ultraface_rfb320.onnx");
    auto match = matchModelToTrace(ultraface, trace);
    ASSERT_TRUE(match.isOk()) << match.status().message();
    EXPECT_EQ(match->traceOps, 182u);
    EXPECT_EQ(match->matchedOps, 27u);
    auto measured = withTraceMeasurements(ultraface, trace);
    ASSERT_TRUE(measured.isOk()) << measured.status().message();
    int withTimes = 0;
    for (const ModelOp& op : measured->ops)
        withTimes += op.measuredCpuUs >= 0;
    EXPECT_EQ(withTimes, 27);
    EXPECT_DOUBLE_EQ(measured->ops[static_cast<size_t>(opNamed(*measured, "Softmax_90"))].measuredCpuUs, 4237.0);
    EXPECT_DOUBLE_EQ(measured->ops[static_cast<size_t>(opNamed(*measured, "Concat_40"))].measuredCpuUs, 58.0);
}

TEST_F(OrtNodeTimesTest, AnotherTraceMeasuresNothing)
{
    // A Kineto trace (PyTorch ops) beside an ONNX model: matched by kind and shape as before, no ORT times.
    const std::string trace = imported("hta_benchmark_simple_add_trace.json.gz");
    auto times = readOrtNodeTimes(trace);
    ASSERT_TRUE(times.isOk()) << times.status().message();
    EXPECT_FALSE(times->fromOrtProfile);
    EXPECT_TRUE(times->byName.empty());
    auto measured = withTraceMeasurements(model("mnist.onnx"), trace);
    ASSERT_TRUE(measured.isOk()) << measured.status().message();
    for (const ModelOp& op : measured->ops)
        EXPECT_TRUE(op.measuredDevice.empty() && op.measuredCpuUs < 0) << op.name;
    auto match = matchModelToTrace(*measured, trace);
    ASSERT_TRUE(match.isOk());
    EXPECT_FALSE(match->byNodeName);
    EXPECT_EQ(match->rule, "the same kind of op on inputs of the same shape");
}

} // namespace
} // namespace placescope
