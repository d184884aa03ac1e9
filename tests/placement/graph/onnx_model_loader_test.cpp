// SPDX-License-Identifier: MIT
// ONNX graph source on the real models of tests/data/models (counts from their SOURCES.md) and on models built
// here with the protobuf API (If subgraphs, cycles, unsorted nodes).
#include "placement/graph/onnx_model_loader.h"

#include "graph_test_files.h"

#include <onnx/onnx_pb.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace placescope {
namespace {

using test::modelPath;
using test::TempFile;

int countType(const ModelGraph& graph, const std::string& type)
{
    return static_cast<int>(
        std::count_if(graph.ops.begin(), graph.ops.end(), [&](const ModelOp& op) { return op.type == type; }));
}

const ModelOp* findOp(const ModelGraph& graph, const std::string& name)
{
    for (const ModelOp& op : graph.ops)
        if (op.name == name)
            return &op;
    return nullptr;
}

void expectTopological(const ModelGraph& graph)
{
    for (size_t i = 0; i < graph.ops.size(); ++i)
        for (int input : graph.ops[i].inputs) {
            ASSERT_GE(input, 0);
            ASSERT_LT(input, static_cast<int>(graph.values.size()));
            EXPECT_LT(graph.values[input].producer, static_cast<int>(i)) << graph.ops[i].name;
        }
}

struct ModelCount
{
    const char* file;
    size_t nodes;
};

class RealModels : public ::testing::TestWithParam<ModelCount>
{
};

TEST_P(RealModels, LoadsEveryNodeInTopologicalOrder)
{
    auto graph = loadOnnxModel(modelPath(GetParam().file));
    ASSERT_TRUE(graph) << graph.status().message();
    EXPECT_EQ(graph->source, "onnx");
    EXPECT_EQ(graph->ops.size(), GetParam().nodes);
    expectTopological(*graph);
    std::set<std::string> names;
    for (const ModelOp& op : graph->ops)
        EXPECT_TRUE(names.insert(op.name).second) << "duplicate op name " << op.name;
    for (const std::string& note : graph->notes)
        EXPECT_EQ(note.find('\n'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(SourcesMd, RealModels,
    ::testing::Values(ModelCount { "light_resnet50.onnx", 415 }, ModelCount { "light_densenet121.onnx", 1746 },
        ModelCount { "light_inception_v2.onnx", 916 }, ModelCount { "light_shufflenet.onnx", 446 },
        ModelCount { "mnist.onnx", 12 }, ModelCount { "ultraface_rfb320.onnx", 126 },
        ModelCount { "fastestdet.onnx", 218 }, ModelCount { "superres_prepost_op18.onnx", 105 }));

TEST(OnnxModelLoader, ResNet50HasItsConvsAndBatchNorms)
{
    auto graph = loadOnnxModel(modelPath("light_resnet50.onnx"));
    ASSERT_TRUE(graph) << graph.status().message();
    EXPECT_EQ(countType(*graph, "Conv"), 53);
    EXPECT_EQ(countType(*graph, "BatchNormalization"), 53);
}

TEST(OnnxModelLoader, ConstantOfShapeFedByAShapeInitializerIsAWeight)
{
    auto graph = loadOnnxModel(modelPath("light_resnet50.onnx"));
    ASSERT_TRUE(graph) << graph.status().message();
    int constantOfShape = 0, weightProducers = 0;
    for (const ModelOp& op : graph->ops) {
        constantOfShape += op.type == "ConstantOfShape";
        weightProducers += op.producesWeight;
        if (op.producesWeight) {
            for (int output : op.outputs)
                EXPECT_TRUE(graph->values[output].isWeight);
        }
    }
    EXPECT_GT(constantOfShape, 53);
    EXPECT_EQ(weightProducers, constantOfShape);
    for (const ModelOp& op : graph->ops) {
        if (op.type != "Conv")
            continue;
        ASSERT_GE(op.inputs.size(), 2u);
        const ModelValue& weight = graph->values[op.inputs[1]];
        EXPECT_TRUE(weight.isWeight) << op.name;
        ASSERT_GE(weight.producer, 0);
        EXPECT_EQ(graph->ops[weight.producer].type, "ConstantOfShape");
        EXPECT_EQ(weight.shape.size(), 4u);
        EXPECT_GT(weight.bytes, 0);
        EXPECT_FALSE(graph->values[op.inputs[0]].isWeight);
    }
}

class StaticShapeModels : public ::testing::TestWithParam<const char*>
{
};

TEST_P(StaticShapeModels, EveryActivationHasAStaticShapeAndBytes)
{
    auto graph = loadOnnxModel(modelPath(GetParam()));
    ASSERT_TRUE(graph) << graph.status().message();
    int activations = 0;
    for (const ModelValue& value : graph->values) {
        if (value.isWeight)
            continue;
        ++activations;
        EXPECT_TRUE(value.shapeKnown) << value.name;
        for (int64_t dim : value.shape)
            EXPECT_GE(dim, 0) << value.name;
        EXPECT_FALSE(value.dtype.empty()) << value.name;
        if (std::find(value.shape.begin(), value.shape.end(), 0) == value.shape.end()) {
            EXPECT_GT(value.bytes, 0) << value.name;
        }
    }
    EXPECT_GT(activations, 50);
}

INSTANTIATE_TEST_SUITE_P(
    SourcesMd, StaticShapeModels, ::testing::Values("light_resnet50.onnx", "ultraface_rfb320.onnx", "fastestdet.onnx"));

TEST(OnnxModelLoader, ConvActivationsAreNchwAndBytesFollowTheShape)
{
    auto graph = loadOnnxModel(modelPath("light_resnet50.onnx"));
    ASSERT_TRUE(graph) << graph.status().message();
    const ModelOp* firstConv = nullptr;
    for (const ModelOp& op : graph->ops)
        if (op.type == "Conv" && !firstConv)
            firstConv = &op;
    ASSERT_NE(firstConv, nullptr);
    const ModelValue& input = graph->values[firstConv->inputs[0]];
    EXPECT_EQ(input.layout, DataLayout::Nchw);
    EXPECT_TRUE(input.isGraphInput);
    ASSERT_EQ(input.shape.size(), 4u);
    EXPECT_EQ(input.bytes, input.shape[0] * input.shape[1] * input.shape[2] * input.shape[3] * 4);
    const ModelValue& output = graph->values[firstConv->outputs[0]];
    EXPECT_EQ(output.layout, DataLayout::Nchw);
    EXPECT_EQ(graph->values[firstConv->inputs[1]].layout, DataLayout::None); // weights are not activations
    EXPECT_EQ(firstConv->intAttributes.at("kernel_shape"), (std::vector<int64_t> { 7, 7 }));
    EXPECT_EQ(firstConv->intAttributes.at("strides"), (std::vector<int64_t> { 2, 2 }));
    bool anyGraphOutput = std::any_of(
        graph->values.begin(), graph->values.end(), [](const ModelValue& value) { return value.isGraphOutput; });
    EXPECT_TRUE(anyGraphOutput);
}

TEST(OnnxModelLoader, SuperResolutionKeepsCustomDomainOpsOpaque)
{
    auto graph = loadOnnxModel(modelPath("superres_prepost_op18.onnx"));
    ASSERT_TRUE(graph) << graph.status().message();
    std::map<std::string, int> customTypes;
    for (const ModelOp& op : graph->ops)
        if (op.domain == "com.microsoft.extensions")
            ++customTypes[op.type];
    EXPECT_FALSE(customTypes.empty());
    EXPECT_TRUE(customTypes.count("DecodeImage")) << "custom ops keep their own type";
    bool noted = std::any_of(graph->notes.begin(), graph->notes.end(),
        [](const std::string& note) { return note.find("com.microsoft.extensions") != std::string::npos; });
    EXPECT_TRUE(noted);
}

// ---- models built with the protobuf API ----

void addTensorInfo(
    onnx::ValueInfoProto* info, const std::string& name, int elementType, const std::vector<int64_t>& shape)
{
    info->set_name(name);
    auto* tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(elementType);
    auto* dims = tensor->mutable_shape();
    for (int64_t dim : shape)
        dims->add_dim()->set_dim_value(dim);
}

onnx::NodeProto* addNode(onnx::GraphProto* graph, const std::string& type, const std::string& name,
    const std::vector<std::string>& inputs, const std::vector<std::string>& outputs)
{
    auto* node = graph->add_node();
    node->set_op_type(type);
    node->set_name(name);
    for (const auto& input : inputs)
        node->add_input(input);
    for (const auto& output : outputs)
        node->add_output(output);
    return node;
}

onnx::ModelProto modelWithOpset(int version)
{
    onnx::ModelProto model;
    model.set_ir_version(8);
    auto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(version);
    return model;
}

std::string serialized(const onnx::ModelProto& model)
{
    std::string bytes;
    model.SerializeToString(&bytes);
    return bytes;
}

// x -> Relu(pre) -> y; If(cond) { then: Add(y, y) with a nested If { then: Identity(y), else: Neg(y) }, else: Neg(y) }
// -> z; an unnamed Sigmoid(z) -> out.
onnx::ModelProto ifModel()
{
    onnx::ModelProto model = modelWithOpset(13);
    auto* graph = model.mutable_graph();
    graph->set_name("main");
    addTensorInfo(graph->add_input(), "cond", onnx::TensorProto_DataType_BOOL, {});
    addTensorInfo(graph->add_input(), "x", onnx::TensorProto_DataType_FLOAT, { 2, 3 });
    addTensorInfo(graph->add_output(), "out", onnx::TensorProto_DataType_FLOAT, { 2, 3 });
    addNode(graph, "Relu", "pre", { "x" }, { "y" });

    onnx::GraphProto innerThen, innerElse;
    innerThen.set_name("inner_then");
    addNode(&innerThen, "Identity", "inner_id", { "y" }, { "i_then" });
    addTensorInfo(innerThen.add_output(), "i_then", onnx::TensorProto_DataType_FLOAT, { 2, 3 });
    innerElse.set_name("inner_else");
    addNode(&innerElse, "Neg", "inner_neg", { "y" }, { "i_else" });
    addTensorInfo(innerElse.add_output(), "i_else", onnx::TensorProto_DataType_FLOAT, { 2, 3 });

    onnx::GraphProto thenBranch, elseBranch;
    thenBranch.set_name("then");
    addNode(&thenBranch, "Add", "then_add", { "y", "y" }, { "t_sum" });
    auto* inner = addNode(&thenBranch, "If", "inner", { "cond" }, { "t_out" });
    auto* innerThenAttr = inner->add_attribute();
    innerThenAttr->set_name("then_branch");
    innerThenAttr->set_type(onnx::AttributeProto_AttributeType_GRAPH);
    *innerThenAttr->mutable_g() = innerThen;
    auto* innerElseAttr = inner->add_attribute();
    innerElseAttr->set_name("else_branch");
    innerElseAttr->set_type(onnx::AttributeProto_AttributeType_GRAPH);
    *innerElseAttr->mutable_g() = innerElse;
    addNode(&thenBranch, "Add", "then_merge", { "t_sum", "t_out" }, { "t_final" });
    addTensorInfo(thenBranch.add_output(), "t_final", onnx::TensorProto_DataType_FLOAT, { 2, 3 });
    elseBranch.set_name("else");
    addNode(&elseBranch, "Neg", "else_neg", { "y" }, { "e_out" });
    addTensorInfo(elseBranch.add_output(), "e_out", onnx::TensorProto_DataType_FLOAT, { 2, 3 });

    auto* branch = addNode(graph, "If", "branch", { "cond" }, { "z" });
    auto* thenAttr = branch->add_attribute();
    thenAttr->set_name("then_branch");
    thenAttr->set_type(onnx::AttributeProto_AttributeType_GRAPH);
    *thenAttr->mutable_g() = thenBranch;
    auto* elseAttr = branch->add_attribute();
    elseAttr->set_name("else_branch");
    elseAttr->set_type(onnx::AttributeProto_AttributeType_GRAPH);
    *elseAttr->mutable_g() = elseBranch;
    addNode(graph, "Sigmoid", "", { "z" }, { "out" });
    return model;
}

TEST(OnnxModelLoader, IfSubgraphsAreFlattenedWithScopes)
{
    auto graph = parseOnnxModel(serialized(ifModel()), "if_model");
    ASSERT_TRUE(graph) << graph.status().message();
    expectTopological(*graph);
    // pre, then_add, inner_id, inner_neg, inner, then_merge, else_neg, branch, Sigmoid
    ASSERT_EQ(graph->ops.size(), 9u);
    const ModelOp* pre = findOp(*graph, "pre");
    const ModelOp* thenAdd = findOp(*graph, "then_add");
    const ModelOp* innerNeg = findOp(*graph, "inner_neg");
    const ModelOp* elseNeg = findOp(*graph, "else_neg");
    const ModelOp* branch = findOp(*graph, "branch");
    const ModelOp* inner = findOp(*graph, "inner");
    ASSERT_TRUE(pre && thenAdd && innerNeg && elseNeg && branch && inner);
    EXPECT_EQ(pre->scope, "");
    EXPECT_EQ(thenAdd->scope, "branch/then_branch");
    EXPECT_EQ(elseNeg->scope, "branch/else_branch");
    EXPECT_EQ(inner->scope, "branch/then_branch");
    EXPECT_EQ(innerNeg->scope, "branch/then_branch/inner/else_branch");
    EXPECT_EQ(branch->scope, "");

    // Values captured from the outer scope resolve to the outer value itself.
    const int y = pre->outputs[0];
    EXPECT_EQ(thenAdd->inputs, (std::vector<int> { y, y }));
    EXPECT_EQ(innerNeg->inputs, (std::vector<int> { y }));
    EXPECT_EQ(elseNeg->inputs, (std::vector<int> { y }));
    // The If consumes its condition and both branches' results.
    ASSERT_EQ(branch->inputs.size(), 3u);
    EXPECT_TRUE(graph->values[branch->inputs[0]].isGraphInput);
    EXPECT_EQ(graph->ops[graph->values[branch->inputs[1]].producer].name, "then_merge");
    EXPECT_EQ(graph->ops[graph->values[branch->inputs[2]].producer].name, "else_neg");
    // The unnamed node got a unique generated name; the model output is marked.
    const ModelOp& sigmoid = graph->ops.back();
    EXPECT_EQ(sigmoid.type, "Sigmoid");
    EXPECT_FALSE(sigmoid.name.empty());
    EXPECT_TRUE(graph->values[sigmoid.outputs[0]].isGraphOutput);
    EXPECT_EQ(graph->values[sigmoid.outputs[0]].bytes, 2 * 3 * 4);
}

TEST(OnnxModelLoader, UnnamedNodesGetUniqueNames)
{
    onnx::ModelProto model = modelWithOpset(13);
    auto* graph = model.mutable_graph();
    addTensorInfo(graph->add_input(), "x", onnx::TensorProto_DataType_FLOAT, { 4 });
    addNode(graph, "Relu", "", { "x" }, { "a" });
    addNode(graph, "Relu", "", { "a" }, { "b" });
    addNode(graph, "Relu", "Relu_0", { "b" }, { "c" }); // collides with a generated name
    auto loaded = parseOnnxModel(serialized(model), "unnamed");
    ASSERT_TRUE(loaded) << loaded.status().message();
    ASSERT_EQ(loaded->ops.size(), 3u);
    std::set<std::string> names;
    for (const ModelOp& op : loaded->ops)
        names.insert(op.name);
    EXPECT_EQ(names.size(), 3u);
}

TEST(OnnxModelLoader, UnsortedNodesAreSortedWithANote)
{
    onnx::ModelProto model = modelWithOpset(13);
    auto* graph = model.mutable_graph();
    addTensorInfo(graph->add_input(), "x", onnx::TensorProto_DataType_FLOAT, { 4 });
    addNode(graph, "Neg", "second", { "a" }, { "b" });
    addNode(graph, "Relu", "first", { "x" }, { "a" });
    auto loaded = parseOnnxModel(serialized(model), "unsorted");
    ASSERT_TRUE(loaded) << loaded.status().message();
    ASSERT_EQ(loaded->ops.size(), 2u);
    EXPECT_EQ(loaded->ops[0].name, "first");
    EXPECT_EQ(loaded->ops[1].name, "second");
    expectTopological(*loaded);
    EXPECT_FALSE(loaded->notes.empty());
}

TEST(OnnxModelLoader, CycleIsAOneLineError)
{
    onnx::ModelProto model = modelWithOpset(13);
    auto* graph = model.mutable_graph();
    addTensorInfo(graph->add_input(), "x", onnx::TensorProto_DataType_FLOAT, { 4 });
    addNode(graph, "Add", "a", { "x", "b" }, { "a_out" });
    addNode(graph, "Relu", "b", { "a_out" }, { "b" });
    auto loaded = parseOnnxModel(serialized(model), "cyclic.onnx");
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.status().message().find("cycle"), std::string::npos) << loaded.status().message();
    EXPECT_NE(loaded.status().message().find("cyclic.onnx"), std::string::npos);
    EXPECT_EQ(loaded.status().message().find('\n'), std::string::npos);
}

TEST(OnnxModelLoader, ShapeInferenceFailureIsANoteNotAnError)
{
    // Relu on a 2x3 input declared as output 5x5: inference meets a shape conflict.
    onnx::ModelProto model = modelWithOpset(13);
    auto* graph = model.mutable_graph();
    addTensorInfo(graph->add_input(), "x", onnx::TensorProto_DataType_FLOAT, { 2, 3 });
    addTensorInfo(graph->add_output(), "y", onnx::TensorProto_DataType_FLOAT, { 5, 5 });
    addNode(graph, "Relu", "r", { "x" }, { "y" });
    auto loaded = parseOnnxModel(serialized(model), "conflict");
    ASSERT_TRUE(loaded) << loaded.status().message();
    EXPECT_EQ(loaded->ops.size(), 1u);
    bool noted = std::any_of(loaded->notes.begin(), loaded->notes.end(),
        [](const std::string& note) { return note.find("shape inference") != std::string::npos; });
    EXPECT_TRUE(noted);
}

// ---- bad inputs ----

void expectOneLineError(const Result<ModelGraph>& result, const std::string& mentions)
{
    ASSERT_FALSE(result);
    const std::string& message = result.status().message();
    EXPECT_FALSE(message.empty());
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_NE(message.find(mentions), std::string::npos) << message;
}

TEST(OnnxModelLoader, BadFilesAreOneLineErrors)
{
    expectOneLineError(loadOnnxModel(modelPath("no_such_model.onnx")), "cannot open");
    expectOneLineError(loadOnnxModel(PLACESCOPE_DATA_DIR), "directory");

    TempFile empty(".onnx");
    empty.write("");
    expectOneLineError(loadOnnxModel(empty.path()), "empty");

    const std::string real = test::readBytes(modelPath("light_resnet50.onnx"));
    ASSERT_GT(real.size(), 10000u);
    TempFile truncated(".onnx");
    truncated.write(real.substr(0, real.size() / 2));
    expectOneLineError(loadOnnxModel(truncated.path()), "not an ONNX model");

    std::mt19937 random(7);
    std::string noise(4096, '\0');
    for (char& c : noise)
        c = static_cast<char>(random() & 0xff);
    TempFile garbage(".onnx");
    garbage.write(noise);
    expectOneLineError(loadOnnxModel(garbage.path()), "not an ONNX model");

    TempFile text(".onnx");
    text.write("{\"this\": \"is json\"}\n");
    expectOneLineError(loadOnnxModel(text.path()), "not an ONNX model");
}

} // namespace
} // namespace placescope

// ---- invalid ONNX and deep nesting (issue 15) ----

namespace placescope {
namespace {

TEST(OnnxModelLoader, AnInputNobodyProducesIsAnError)
{
    onnx::ModelProto model = modelWithOpset(13);
    auto* graph = model.mutable_graph();
    addTensorInfo(graph->add_input(), "x", onnx::TensorProto_DataType_FLOAT, { 4 });
    addNode(graph, "Add", "add", { "x", "ghost" }, { "y" });
    addTensorInfo(graph->add_output(), "y", onnx::TensorProto_DataType_FLOAT, { 4 });
    expectOneLineError(parseOnnxModel(serialized(model), "ghost.onnx"),
        "ghost.onnx: node 'add' (Add) reads 'ghost', which no node, graph input or initializer produces");
}

TEST(OnnxModelLoader, ATensorProducedTwiceIsAnError)
{
    onnx::ModelProto model = modelWithOpset(13);
    auto* graph = model.mutable_graph();
    addTensorInfo(graph->add_input(), "x", onnx::TensorProto_DataType_FLOAT, { 4 });
    addNode(graph, "Relu", "first", { "x" }, { "y" });
    addNode(graph, "Neg", "second", { "x" }, { "y" });
    expectOneLineError(parseOnnxModel(serialized(model), "twice.onnx"), "'y' is produced twice");
    // A node writing over a graph input breaks the same rule.
    onnx::ModelProto overInput = modelWithOpset(13);
    auto* g = overInput.mutable_graph();
    addTensorInfo(g->add_input(), "x", onnx::TensorProto_DataType_FLOAT, { 4 });
    addTensorInfo(g->add_input(), "w", onnx::TensorProto_DataType_FLOAT, { 4 });
    addNode(g, "Relu", "r", { "x" }, { "w" });
    expectOneLineError(parseOnnxModel(serialized(overInput), "over_input.onnx"),
        "'w' is produced twice, by node 'r' (Relu) and by a graph input or initializer");
}

// If(cond) { then: If(cond) { ... depth levels ... Relu(x) }, else: Neg(x) }: each level is a node, an attribute
// and a graph message, so 32 levels pass protobuf's default nesting limit of 100.
onnx::ModelProto nestedIfModel(int depth)
{
    onnx::ModelProto model = modelWithOpset(13);
    onnx::GraphProto body;
    body.set_name("innermost");
    addNode(&body, "Relu", "leaf", { "x" }, { "leaf_out" });
    addTensorInfo(body.add_output(), "leaf_out", onnx::TensorProto_DataType_FLOAT, { 4 });
    for (int level = depth; level >= 1; --level) {
        onnx::GraphProto outer;
        outer.set_name("level" + std::to_string(level));
        onnx::GraphProto elseBranch;
        elseBranch.set_name("else" + std::to_string(level));
        const std::string elseOut = "else_out" + std::to_string(level);
        addNode(&elseBranch, "Neg", "neg" + std::to_string(level), { "x" }, { elseOut });
        addTensorInfo(elseBranch.add_output(), elseOut, onnx::TensorProto_DataType_FLOAT, { 4 });
        const std::string out = "if_out" + std::to_string(level);
        auto* node = addNode(&outer, "If", "if" + std::to_string(level), { "cond" }, { out });
        auto* thenAttr = node->add_attribute();
        thenAttr->set_name("then_branch");
        thenAttr->set_type(onnx::AttributeProto_AttributeType_GRAPH);
        *thenAttr->mutable_g() = body;
        auto* elseAttr = node->add_attribute();
        elseAttr->set_name("else_branch");
        elseAttr->set_type(onnx::AttributeProto_AttributeType_GRAPH);
        *elseAttr->mutable_g() = elseBranch;
        addTensorInfo(outer.add_output(), out, onnx::TensorProto_DataType_FLOAT, { 4 });
        body = outer;
    }
    auto* graph = model.mutable_graph();
    *graph = body;
    graph->set_name("main");
    addTensorInfo(graph->add_input(), "cond", onnx::TensorProto_DataType_BOOL, {});
    addTensorInfo(graph->add_input(), "x", onnx::TensorProto_DataType_FLOAT, { 4 });
    return model;
}

TEST(OnnxModelLoader, IfNested32DeepLoads)
{
    auto graph = parseOnnxModel(serialized(nestedIfModel(32)), "nested32.onnx");
    ASSERT_TRUE(graph) << graph.status().message();
    EXPECT_EQ(graph->ops.size(), 32u * 2 + 1); // an If and a Neg per level, and the Relu at the bottom
    expectTopological(*graph);
    const ModelOp* leaf = findOp(*graph, "leaf");
    ASSERT_NE(leaf, nullptr);
    EXPECT_EQ(std::count(leaf->scope.begin(), leaf->scope.end(), '/'), 2 * 32 - 1);
}

TEST(OnnxModelLoader, NestingPastTheLimitIsAOneLineErrorThatSaysSo)
{
    expectOneLineError(parseOnnxModel(serialized(nestedIfModel(400)), "nested400.onnx"), "nested more than");
}

} // namespace
} // namespace placescope
