// SPDX-License-Identifier: MIT
// A trace's framework ops as a graph: the real AlexNet Kineto trace (A100, warmup + measured forward) imported
// with the profiler's importer, then read back.
#include "placement/graph/trace_ops_graph.h"

#include "analysis/trace/trace_data.h"
#include "graph_test_files.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

namespace placescope {
namespace {

using test::TempFile;
using test::tracePath;

class AlexNetTrace : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_trace = new TempFile(".sqlite");
        auto imported = importTraces({ tracePath("hta_alexnet_a100_1rank.json.gz") }, s_trace->path(), {});
        ASSERT_TRUE(imported) << imported.status().message();
    }
    static void TearDownTestSuite()
    {
        delete s_trace;
        s_trace = nullptr;
    }
    static TempFile* s_trace;
};

TempFile* AlexNetTrace::s_trace = nullptr;

int countType(const ModelGraph& graph, const std::string& type)
{
    return static_cast<int>(
        std::count_if(graph.ops.begin(), graph.ops.end(), [&](const ModelOp& op) { return op.type == type; }));
}

TEST_F(AlexNetTrace, TopLevelOpsOfOneIterationWithMeasuredTimes)
{
    auto graph = modelGraphFromTrace(s_trace->path());
    ASSERT_TRUE(graph) << graph.status().message();
    EXPECT_EQ(graph->source, "trace-ops");
    ASSERT_FALSE(graph->ops.empty());
    // Ops nested in aten::conv2d (convolution, cudnn_convolution) are folded into it.
    EXPECT_EQ(countType(*graph, "aten::cudnn_convolution"), 0);
    EXPECT_EQ(countType(*graph, "aten::_convolution"), 0);
    const int convs = countType(*graph, "aten::conv2d");
    EXPECT_EQ(convs, 5) << "AlexNet has five convolutions per forward pass; notes: " << graph->notes.front();
    for (const ModelOp& op : graph->ops) {
        // Host time is a CPU cost only for ops that ran on the host; a GPU op's host time is its dispatch.
        EXPECT_EQ(op.measuredCpuUs >= 0, op.measuredDevice == "cpu") << op.name;
        if (op.type == "aten::conv2d" || op.type == "aten::linear") {
            EXPECT_EQ(op.measuredDevice, "gpu") << op.name;
            EXPECT_GT(op.measuredGpuUs, 0) << op.name;
        }
        if (op.measuredDevice == "cpu") {
            EXPECT_LT(op.measuredGpuUs, 0) << op.name;
        }
    }
}

TEST_F(AlexNetTrace, OpsChainInProgramOrder)
{
    auto graph = modelGraphFromTrace(s_trace->path());
    ASSERT_TRUE(graph) << graph.status().message();
    int withoutProducer = 0;
    for (size_t i = 0; i < graph->ops.size(); ++i) {
        bool fed = false;
        for (int input : graph->ops[i].inputs) {
            const int producer = graph->values[input].producer;
            EXPECT_LT(producer, static_cast<int>(i));
            fed |= producer >= 0;
        }
        withoutProducer += fed ? 0 : 1;
        ASSERT_EQ(graph->ops[i].outputs.size(), 1u);
    }
    EXPECT_EQ(withoutProducer, 1) << "one host thread: only its first op starts the chain";
    const bool hasOutput = std::any_of(
        graph->values.begin(), graph->values.end(), [](const ModelValue& value) { return value.isGraphOutput; });
    EXPECT_TRUE(hasOutput);
}

TEST_F(AlexNetTrace, EachOpNamesItsOccurrenceInsideTheChosenPass)
{
    auto graph = modelGraphFromTrace(s_trace->path());
    ASSERT_TRUE(graph) << graph.status().message();
    auto db = openTrace(s_trace->path(), TraceAccess::ReadOnly);
    ASSERT_TRUE(db) << db.status().message();
    auto trace = TraceData::load(*db);
    ASSERT_TRUE(trace) << trace.status().message();
    // The chosen pass is one of the benchmark's annotated passes ("[param|...|warmup|forward]", then
    // "[param|...|measure|forward]", each with a nested one of the same name): the shortest one that holds the
    // first op (which clears the cache, in a "[param|clear_cache]" inside the pass).
    const ModelOp& front = graph->ops.front();
    const HostRange* pass = nullptr;
    for (const HostRange& range : trace->hostRanges)
        if (range.category == "user_annotation" && range.globalTid == front.traceGlobalTid
            && trace->name(range.nameId).find("|forward]") != std::string::npos && range.startNs <= front.traceStartNs
            && front.traceStartNs < range.endNs && (!pass || range.endNs - range.startNs < pass->endNs - pass->startNs))
            pass = &range;
    ASSERT_NE(pass, nullptr) << "the first op lies in no annotated pass";
    // Of the two passes the step chooser takes the shorter, warm one.
    EXPECT_NE(trace->name(pass->nameId).find("|measure|"), std::string::npos) << trace->name(pass->nameId);
    std::set<std::pair<int64_t, int64_t>> occurrences;
    for (const ModelOp& op : graph->ops) {
        ASSERT_GE(op.traceStartNs, 0) << op.name;
        EXPECT_GE(op.traceStartNs, pass->startNs) << op.name;
        EXPECT_LT(op.traceStartNs, pass->endNs) << op.name;
        EXPECT_TRUE(occurrences.insert({ op.traceGlobalTid, op.traceStartNs }).second)
            << op.name << " shares its occurrence";
        // The occurrence is a framework op of that name on that thread at that time.
        const bool recorded
            = std::any_of(trace->hostRanges.begin(), trace->hostRanges.end(), [&](const HostRange& range) {
                  return range.globalTid == op.traceGlobalTid && range.startNs == op.traceStartNs
                      && range.category == "cpu_op" && trace->name(range.nameId) == op.type;
              });
        EXPECT_TRUE(recorded) << op.name;
    }
}

TEST(TraceOpsGraph, NonTracesAreOneLineErrors)
{
    auto missing = modelGraphFromTrace(tracePath("no_such_trace.sqlite"));
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.status().message().find("cannot open"), std::string::npos) << missing.status().message();
    TempFile junk(".sqlite");
    junk.write("not a database at all, just text that is long enough to look like a file header");
    auto notTrace = modelGraphFromTrace(junk.path());
    ASSERT_FALSE(notTrace);
    EXPECT_EQ(notTrace.status().message().find('\n'), std::string::npos) << notTrace.status().message();
}

} // namespace
} // namespace placescope

namespace placescope {
namespace {

// ResNet-50 training on a V100, 2021 legacy Kineto schema: ops are "Operator"s, ProfilerStep#N is one too,
// input shapes were recorded, six steps in PS_STEPS.
TEST(TraceOpsGraph, LegacyResNet50TraceGivesOneTrainingStepWithChainedShapes)
{
    TempFile trace(".sqlite");
    auto imported = importTraces({ tracePath("kineto_resnet50_v100_legacy2021.pt.trace.json.gz") }, trace.path(), {});
    ASSERT_TRUE(imported) << imported.status().message();
    auto graph = modelGraphFromTrace(trace.path());
    ASSERT_TRUE(graph) << graph.status().message();
    EXPECT_EQ(countType(*graph, "aten::conv2d"), 53) << "one forward pass of ResNet-50";
    EXPECT_EQ(countType(*graph, "CudnnConvolutionBackward"), 53) << "and its backward pass";
    for (const ModelOp& op : graph->ops)
        EXPECT_EQ(op.type.rfind("ProfilerStep", 0), std::string::npos) << "a step is not an op";

    int residualAdds = 0;
    for (const ModelOp& op : graph->ops) {
        if (op.type == "aten::conv2d") {
            ASSERT_GE(op.inputs.size(), 2u);
            const ModelValue& weight = graph->values[op.inputs[1]];
            EXPECT_TRUE(weight.isWeight) << op.name;
            EXPECT_EQ(weight.shape.size(), 4u) << op.name;
            EXPECT_GT(weight.bytes, 0) << op.name;
        }
        if (op.type == "aten::add_") {
            int produced = 0;
            for (int input : op.inputs)
                produced += graph->values[input].producer >= 0;
            residualAdds += produced >= 2;
        }
    }
    EXPECT_GE(residualAdds, 16) << "the 16 bottleneck blocks add their shortcut to the block output";
}

} // namespace
} // namespace placescope

namespace placescope {
namespace {

// A small Kineto trace written here: a channels_last convolution whose kernel is linked through the nested
// cudnn op's external id, a relu with no kernel, and an add reading both.
TEST(TraceOpsGraph, ShapesStridesAndKernelLinksOfAKinetoTrace)
{
    const char* kineto = R"kt({"schemaVersion": 1, "traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 10, "tid": 10, "ts": 1000, "dur": 20,
       "args": {"External id": 1, "Input Dims": [[8,3,32,32],[16,3,3,3],[16]], "Input type": ["float","float","float"],
                "Input Strides": [[3072,1,96,3],[27,1,9,3],[1]]}},
      {"ph": "X", "cat": "cpu_op", "name": "aten::cudnn_convolution", "pid": 10, "tid": 10, "ts": 1002, "dur": 15,
       "args": {"External id": 2, "Input Dims": [[8,3,32,32],[16,3,3,3]], "Input type": ["float","float"]}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1003, "dur": 2,
       "args": {"External id": 2, "correlation": 100}},
      {"ph": "X", "cat": "kernel", "name": "conv_nhwc_kernel", "pid": 0, "tid": 7, "ts": 1040, "dur": 30,
       "args": {"External id": 2, "correlation": 100, "device": 0, "stream": 7}},
      {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 10, "tid": 10, "ts": 1035, "dur": 5,
       "args": {"External id": 3, "Input Dims": [[8,16,32,32]], "Input type": ["float"],
                "Input Strides": [[16384,1,512,16]]}},
      {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 10, "ts": 1045, "dur": 5,
       "args": {"External id": 4, "Input Dims": [[8,16,32,32],[8,16,32,32],[]], "Input type": ["float","float","Scalar"]}},
      {"ph": "X", "cat": "cpu_op", "name": "aten::item", "pid": 10, "tid": 10, "ts": 1055, "dur": 3,
       "args": {"External id": 5, "Input Dims": [[]], "Input type": ["float"]}}
    ]})kt";
    TempFile json(".json");
    json.write(kineto);
    TempFile trace(".sqlite");
    auto imported = importTraces({ json.path() }, trace.path(), {});
    ASSERT_TRUE(imported) << imported.status().message();
    auto graph = modelGraphFromTrace(trace.path());
    ASSERT_TRUE(graph) << graph.status().message();
    ASSERT_EQ(graph->ops.size(), 4u);
    const ModelOp& conv = graph->ops[0];
    const ModelOp& relu = graph->ops[1];
    const ModelOp& add = graph->ops[2];
    EXPECT_EQ(conv.type, "aten::conv2d");
    EXPECT_EQ(conv.measuredDevice, "gpu");
    EXPECT_DOUBLE_EQ(conv.measuredGpuUs, 30.0) << "the nested cudnn op's kernel counts for conv2d";
    EXPECT_LT(conv.measuredCpuUs, 0) << "its 20 us on the host were dispatch, not a CPU convolution";
    EXPECT_EQ(relu.measuredDevice, "cpu");
    EXPECT_GT(relu.measuredCpuUs, 0);
    EXPECT_LT(relu.measuredGpuUs, 0);

    ASSERT_EQ(conv.inputs.size(), 3u); // image, weight, bias
    EXPECT_TRUE(graph->values[conv.inputs[2]].isWeight);
    const ModelValue& image = graph->values[conv.inputs[0]];
    EXPECT_TRUE(image.isGraphInput);
    EXPECT_EQ(image.layout, DataLayout::Nhwc);
    const ModelValue& weight = graph->values[conv.inputs[1]];
    EXPECT_TRUE(weight.isWeight);
    EXPECT_EQ(weight.bytes, 16 * 3 * 3 * 3 * 4);
    const ModelValue& convOut = graph->values[conv.outputs[0]];
    EXPECT_EQ(convOut.shape, (std::vector<int64_t> { 8, 16, 32, 32 }));
    EXPECT_EQ(convOut.layout, DataLayout::Nhwc) << "relu read it with channels_last strides";
    EXPECT_EQ(convOut.bytes, 8 * 16 * 32 * 32 * 4);

    // add reads relu's output (program order) and conv's output (same shape two ops back).
    EXPECT_EQ(add.inputs, (std::vector<int> { relu.outputs[0], conv.outputs[0] }));
}

} // namespace
} // namespace placescope
