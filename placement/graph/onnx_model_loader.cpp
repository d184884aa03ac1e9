// SPDX-License-Identifier: MIT
#include "placement/graph/onnx_model_loader.h"

#include "placement/graph/graph_file.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace placescope {

namespace {

std::string dtypeName(int32_t elementType)
{
    switch (elementType) {
    case onnx::TensorProto_DataType_FLOAT:
        return "float32";
    case onnx::TensorProto_DataType_UINT8:
        return "uint8";
    case onnx::TensorProto_DataType_INT8:
        return "int8";
    case onnx::TensorProto_DataType_UINT16:
        return "uint16";
    case onnx::TensorProto_DataType_INT16:
        return "int16";
    case onnx::TensorProto_DataType_INT32:
        return "int32";
    case onnx::TensorProto_DataType_INT64:
        return "int64";
    case onnx::TensorProto_DataType_STRING:
        return "string";
    case onnx::TensorProto_DataType_BOOL:
        return "bool";
    case onnx::TensorProto_DataType_FLOAT16:
        return "float16";
    case onnx::TensorProto_DataType_DOUBLE:
        return "float64";
    case onnx::TensorProto_DataType_UINT32:
        return "uint32";
    case onnx::TensorProto_DataType_UINT64:
        return "uint64";
    case onnx::TensorProto_DataType_COMPLEX64:
        return "complex64";
    case onnx::TensorProto_DataType_COMPLEX128:
        return "complex128";
    case onnx::TensorProto_DataType_BFLOAT16:
        return "bfloat16";
    default:
        return "";
    }
}

void applyType(const onnx::TypeProto& type, ModelValue& value)
{
    if (!type.has_tensor_type())
        return; // sequences, maps, optionals: no tensor shape to give
    const auto& tensor = type.tensor_type();
    value.dtype = dtypeName(tensor.elem_type());
    if (!tensor.has_shape())
        return;
    value.shapeKnown = true;
    value.shape.clear();
    for (const auto& dim : tensor.shape().dim())
        value.shape.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
}

bool isDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

// Ops whose kernels depend on where the channel dimension sits: their rank-4 activations are NCHW in ONNX.
bool isLayoutSensitive(const std::string& type, const std::string& domain)
{
    static const std::unordered_set<std::string> kOnnxOps = {
        "Conv",
        "ConvTranspose",
        "ConvInteger",
        "QLinearConv",
        "MaxPool",
        "AveragePool",
        "LpPool",
        "GlobalAveragePool",
        "GlobalMaxPool",
        "GlobalLpPool",
        "MaxUnpool",
        "MaxRoiPool",
        "RoiAlign",
        "BatchNormalization",
        "InstanceNormalization",
        "LRN",
        "Resize",
        "Upsample",
        "DepthToSpace",
        "SpaceToDepth",
        "GridSample",
        "DeformConv",
        "Col2Im",
    };
    if (isDefaultDomain(domain))
        return kOnnxOps.count(type) > 0;
    return domain == "com.microsoft" && (type == "FusedConv" || type == "QLinearAveragePool");
}

std::vector<const onnx::GraphProto*> subgraphsOf(const onnx::NodeProto& node)
{
    std::vector<const onnx::GraphProto*> graphs;
    for (const auto& attribute : node.attribute()) {
        if (attribute.has_g())
            graphs.push_back(&attribute.g());
        for (const auto& graph : attribute.graphs())
            graphs.push_back(&graph);
    }
    return graphs;
}

// Names a graph reads from its enclosing graphs (ONNX subgraphs see every value of the scopes around them).
void collectOuterNames(const onnx::GraphProto& graph, std::unordered_set<std::string>& outer)
{
    std::unordered_set<std::string> defined;
    for (const auto& input : graph.input())
        defined.insert(input.name());
    for (const auto& initializer : graph.initializer())
        defined.insert(initializer.name());
    for (const auto& node : graph.node())
        for (const auto& output : node.output())
            defined.insert(output);
    for (const auto& node : graph.node()) {
        for (const auto& input : node.input())
            if (!input.empty() && !defined.count(input))
                outer.insert(input);
        for (const onnx::GraphProto* subgraph : subgraphsOf(node)) {
            std::unordered_set<std::string> nested;
            collectOuterNames(*subgraph, nested);
            for (const auto& name : nested)
                if (!defined.count(name))
                    outer.insert(name);
        }
    }
}

// A node's inputs plus what its subgraphs capture: both must be computed before the node runs.
std::vector<std::string> effectiveInputs(const onnx::NodeProto& node)
{
    std::vector<std::string> names(node.input().begin(), node.input().end());
    std::unordered_set<std::string> captured;
    for (const onnx::GraphProto* subgraph : subgraphsOf(node))
        collectOuterNames(*subgraph, captured);
    names.insert(names.end(), captured.begin(), captured.end());
    return names;
}

std::string describeNode(const onnx::NodeProto& node)
{
    return "'" + (node.name().empty() ? std::string("(unnamed)") : node.name()) + "' (" + node.op_type() + ")";
}

// Kahn's algorithm, taking the lowest original index first so that an already sorted graph keeps its order.
Result<std::vector<int>> topologicalOrder(const onnx::GraphProto& graph, const std::string& label, bool* reordered)
{
    const int count = graph.node_size();
    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < count; ++i)
        for (const auto& output : graph.node(i).output())
            if (!output.empty())
                producer.emplace(output, i);
    std::vector<std::vector<int>> consumers(count);
    std::vector<int> pending(count, 0);
    for (int i = 0; i < count; ++i) {
        std::set<int> sources;
        for (const auto& name : effectiveInputs(graph.node(i))) {
            auto it = producer.find(name);
            if (it != producer.end())
                sources.insert(it->second);
        }
        for (int source : sources) {
            consumers[source].push_back(i);
            ++pending[i];
        }
    }
    std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
    for (int i = 0; i < count; ++i)
        if (pending[i] == 0)
            ready.push(i);
    std::vector<int> order;
    order.reserve(count);
    while (!ready.empty()) {
        const int node = ready.top();
        ready.pop();
        order.push_back(node);
        for (int consumer : consumers[node])
            if (--pending[consumer] == 0)
                ready.push(consumer);
    }
    if (static_cast<int>(order.size()) < count) {
        for (int i = 0; i < count; ++i)
            if (pending[i] > 0)
                return Status::error(label + ": graph has a cycle: node " + describeNode(graph.node(i))
                    + " depends on its own output (" + std::to_string(count - order.size())
                    + " nodes never become ready)");
    }
    for (int i = 0; i < count; ++i)
        if (order[i] != i)
            *reordered = true;
    return order;
}

// Values visible in one graph: its own names, then its enclosing graphs' (lexical scoping of ONNX subgraphs).
struct NameScope
{
    const NameScope* outer = nullptr;
    std::unordered_map<std::string, int> values;
    std::unordered_map<std::string, const onnx::TypeProto*> types;

    int findValue(const std::string& name) const
    {
        for (const NameScope* scope = this; scope; scope = scope->outer) {
            auto it = scope->values.find(name);
            if (it != scope->values.end())
                return it->second;
        }
        return -1;
    }
    const onnx::TypeProto* findType(const std::string& name) const
    {
        for (const NameScope* scope = this; scope; scope = scope->outer) {
            auto it = scope->types.find(name);
            if (it != scope->types.end())
                return it->second;
        }
        return nullptr;
    }
};

class GraphBuilder
{
public:
    GraphBuilder(ModelGraph& graph, std::string label)
        : m_graph(graph)
        , m_label(std::move(label))
    { }

    // Adds one graph's values and ops. `formalInputs` aliases a body's inputs to its owner's inputs
    // (Loop/Scan: loop-carried values enter the body from the owner); `outputs` receives the graph's results.
    Status addGraph(const onnx::GraphProto& graph, const std::string& scope, const NameScope* outer,
        const std::vector<int>& formalInputs, std::vector<int>* outputs)
    {
        const bool isMain = outer == nullptr;
        NameScope names;
        names.outer = outer;
        for (const auto* list : { &graph.input(), &graph.output(), &graph.value_info() })
            for (const auto& info : *list)
                if (info.has_type())
                    names.types[info.name()] = &info.type();

        for (const auto& initializer : graph.initializer()) {
            ModelValue value;
            value.name = valueName(initializer.name(), scope);
            value.shapeKnown = true;
            value.shape.assign(initializer.dims().begin(), initializer.dims().end());
            value.dtype = dtypeName(initializer.data_type());
            value.isWeight = true;
            names.values[initializer.name()] = addValue(std::move(value));
        }
        for (int i = 0; i < graph.input_size(); ++i) {
            const auto& input = graph.input(i);
            if (names.values.count(input.name()))
                continue; // IR < 4 lists initializers among the inputs: they stay weights
            if (i < static_cast<int>(formalInputs.size()) && formalInputs[i] >= 0) {
                names.values[input.name()] = formalInputs[i];
                continue;
            }
            ModelValue value;
            value.name = valueName(input.name(), scope);
            if (input.has_type())
                applyType(input.type(), value);
            value.isGraphInput = isMain;
            names.values[input.name()] = addValue(std::move(value));
        }

        bool reordered = false;
        PLACESCOPE_ASSIGN_OR_RETURN(std::vector<int> order, topologicalOrder(graph, m_label, &reordered));
        if (reordered)
            m_graph.notes.push_back("nodes of " + (isMain ? std::string("the main graph") : "'" + scope + "'")
                + " were not in topological order; sorted by their data dependencies");
        for (int index : order)
            PLACESCOPE_RETURN_IF_ERROR(addNode(graph.node(index), index, scope, names));

        for (const auto& output : graph.output()) {
            int value = names.findValue(output.name());
            if (value < 0) {
                m_graph.notes.push_back("graph output '" + output.name() + "' is produced by no node");
                continue;
            }
            if (isMain)
                m_graph.values[value].isGraphOutput = true;
            if (outputs)
                outputs->push_back(value);
        }
        return Status::ok();
    }

    int flattenedSubgraphs() const { return m_subgraphs; }

private:
    // `nodeIndex`: the node's position in its graph, which names an unnamed node as ONNX Runtime does.
    Status addNode(const onnx::NodeProto& node, int nodeIndex, const std::string& scope, NameScope& names)
    {
        const std::string opName = uniqueOpName(node, nodeIndex);

        // Bodies first: their ops read values computed before the node, and the node merges their results.
        std::vector<int> bodyResults;
        for (const auto& attribute : node.attribute()) {
            std::vector<const onnx::GraphProto*> bodies;
            if (attribute.has_g())
                bodies.push_back(&attribute.g());
            for (const auto& body : attribute.graphs())
                bodies.push_back(&body);
            for (size_t b = 0; b < bodies.size(); ++b) {
                std::string bodyScope = (scope.empty() ? "" : scope + "/") + opName + "/" + attribute.name();
                if (attribute.graphs_size() > 1)
                    bodyScope += "[" + std::to_string(b) + "]";
                ++m_subgraphs;
                PLACESCOPE_RETURN_IF_ERROR(
                    addGraph(*bodies[b], bodyScope, &names, bodyInputAliases(node, *bodies[b], names), &bodyResults));
            }
        }

        ModelOp op;
        op.name = opName;
        op.type = node.op_type();
        op.domain = node.domain();
        op.scope = scope;
        for (const auto& input : node.input()) {
            if (input.empty())
                continue; // an omitted optional input
            const int value = names.findValue(input);
            if (value < 0) // invalid ONNX: onnxruntime refuses it too, and a guessed input would be planned as real
                return Status::error(m_label + ": node " + describeNode(node) + " reads '" + input
                    + "', which no node, graph input or initializer produces (invalid ONNX)");
            op.inputs.push_back(value);
        }
        for (int result : bodyResults)
            if (std::find(op.inputs.begin(), op.inputs.end(), result) == op.inputs.end())
                op.inputs.push_back(result);
        for (const auto& attribute : node.attribute()) {
            switch (attribute.type()) {
            case onnx::AttributeProto_AttributeType_INT:
                op.intAttributes[attribute.name()] = { attribute.i() };
                break;
            case onnx::AttributeProto_AttributeType_INTS:
                op.intAttributes[attribute.name()].assign(attribute.ints().begin(), attribute.ints().end());
                break;
            case onnx::AttributeProto_AttributeType_STRING:
                op.stringAttributes[attribute.name()] = attribute.s();
                break;
            default:
                break; // floats, tensors and graphs do not steer placement
            }
        }
        const bool isDefault = isDefaultDomain(op.domain);
        op.producesWeight = isDefault
            && (op.type == "Constant"
                || (op.type == "ConstantOfShape" && !op.inputs.empty() && m_graph.values[op.inputs[0]].isWeight));

        const int opIndex = static_cast<int>(m_graph.ops.size());
        for (const auto& output : node.output()) {
            if (output.empty())
                continue;
            // ONNX graphs are in single static assignment form: one producer per name in a graph.
            if (auto earlier = names.values.find(output); earlier != names.values.end()) {
                const int producer = m_graph.values[earlier->second].producer;
                return Status::error(m_label + ": '" + output + "' is produced twice, by node " + describeNode(node)
                    + " and by "
                    + (producer >= 0 ? "node '" + m_graph.ops[producer].name + "'"
                                     : std::string("a graph input or initializer"))
                    + " (invalid ONNX: one producer per tensor)");
            }
            ModelValue value;
            value.name = valueName(output, scope);
            if (const onnx::TypeProto* type = names.findType(output))
                applyType(*type, value);
            value.isWeight = op.producesWeight;
            value.producer = opIndex;
            const int index = addValue(std::move(value));
            names.values[output] = index;
            op.outputs.push_back(index);
        }
        m_graph.ops.push_back(std::move(op));
        return Status::ok();
    }

    // Loop (M, cond, carried...) and Scan (states..., scan inputs...) feed their body's inputs position by
    // position, counted from the end so that Loop's trip count lines up with the body's iteration number.
    static std::vector<int> bodyInputAliases(
        const onnx::NodeProto& node, const onnx::GraphProto& body, const NameScope& names)
    {
        std::vector<int> aliases(body.input_size(), -1);
        if (node.op_type() != "Loop" && node.op_type() != "Scan")
            return aliases;
        const int shift = node.input_size() - body.input_size();
        for (int i = 0; i < body.input_size(); ++i) {
            const int source = i + shift;
            if (source >= 0 && source < node.input_size() && !node.input(source).empty())
                aliases[i] = names.findValue(node.input(source));
        }
        return aliases;
    }

    int addValue(ModelValue value)
    {
        m_graph.values.push_back(std::move(value));
        return static_cast<int>(m_graph.values.size()) - 1;
    }

    std::string valueName(const std::string& name, const std::string& scope)
    {
        std::string unique = name;
        if (m_valueNames.count(unique) && !scope.empty())
            unique = scope + "/" + name;
        for (int suffix = 2; m_valueNames.count(unique); ++suffix)
            unique = name + "#" + std::to_string(suffix);
        m_valueNames.insert(unique);
        return unique;
    }

    // An unnamed node is named <op type>_<its index in its graph>, the name ONNX Runtime's profiler gives it
    // (Concat_40), so the nodes of a model match those of its profile by name.
    std::string uniqueOpName(const onnx::NodeProto& node, int nodeIndex)
    {
        const std::string base = node.name().empty() ? node.op_type() + "_" + std::to_string(nodeIndex) : node.name();
        std::string unique = base;
        for (int suffix = 2; m_opNames.count(unique); ++suffix)
            unique = base + "#" + std::to_string(suffix);
        m_opNames.insert(unique);
        return unique;
    }

    ModelGraph& m_graph;
    std::string m_label;
    std::unordered_set<std::string> m_valueNames;
    std::unordered_set<std::string> m_opNames;
    int m_subgraphs = 0;
};

void markLayoutsAndBytes(ModelGraph& graph)
{
    for (const ModelOp& op : graph.ops) {
        if (!isLayoutSensitive(op.type, op.domain))
            continue;
        for (const auto* list : { &op.inputs, &op.outputs })
            for (int index : *list) {
                ModelValue& value = graph.values[index];
                if (!value.isWeight && value.shapeKnown && value.shape.size() == 4)
                    value.layout = DataLayout::Nchw;
            }
    }
    for (ModelValue& value : graph.values)
        value.bytes = staticTensorBytes(value.shape, value.shapeKnown, value.dtype);
}

void noteCustomDomains(ModelGraph& graph)
{
    std::map<std::string, std::set<std::string>> typesByDomain;
    std::map<std::string, int> countByDomain;
    for (const ModelOp& op : graph.ops)
        if (!isDefaultDomain(op.domain) && op.domain != "ai.onnx.ml") {
            typesByDomain[op.domain].insert(op.type);
            ++countByDomain[op.domain];
        }
    for (const auto& [domain, types] : typesByDomain) {
        std::string list;
        for (const auto& type : types)
            list += (list.empty() ? "" : ", ") + type;
        graph.notes.push_back(
            std::to_string(countByDomain[domain]) + " ops of custom domain " + domain + " kept as opaque ops: " + list);
    }
}

void collectDomains(const onnx::GraphProto& graph, std::unordered_set<std::string>& domains)
{
    for (const auto& node : graph.node()) {
        domains.insert(node.domain() == "ai.onnx" ? "" : node.domain());
        for (const onnx::GraphProto* body : subgraphsOf(node))
            collectDomains(*body, domains);
    }
}

// libonnx 1.12's data propagation crashes (SIGSEGV, nothing to catch) on superres_prepost_op18 (opset 18 plus
// com.microsoft.extensions ops; it still crashes with the opset lowered to 17, so the custom ops are enough).
// Plain inference skips ops without a schema, so data propagation is used only when every opset the nodes use
// is one this libonnx knows.
bool opsetsKnownToOnnx(const onnx::ModelProto& model, std::string* unknown)
{
    std::unordered_set<std::string> used;
    collectDomains(model.graph(), used);
    const auto& known = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    for (const auto& opset : model.opset_import()) {
        const std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
        if (!used.count(domain))
            continue;
        auto it = known.find(domain);
        if (it == known.end() || opset.version() > it->second.second) {
            *unknown = (domain.empty() ? "ai.onnx" : domain) + " " + std::to_string(opset.version());
            return false;
        }
    }
    return true;
}

// Protobuf message nesting the parser accepts (its default is 100).
constexpr int kMaxMessageNesting = 1000;

std::string firstLine(const std::string& text)
{
    const std::string line = text.substr(0, text.find('\n'));
    return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

} // namespace

Result<ModelGraph> parseOnnxModel(const std::string& bytes, const std::string& label)
{
    if (bytes.empty())
        return Status::error(label + ": empty file");
    if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
        return Status::error(label
            + ": larger than 2 GB, which protobuf cannot read (ONNX keeps such weights as "
              "external data)");
    onnx::ModelProto model;
    // Protobuf stops at 100 nested messages by default, and each If/Loop/Scan level costs three (node, attribute,
    // graph): a model with If nested 32 deep failed as a corrupt file. kMaxMessageNesting allows about 300 levels,
    // deep enough for real models and shallow enough for the parser's stack.
    google::protobuf::io::ArrayInputStream raw(bytes.data(), static_cast<int>(bytes.size()));
    google::protobuf::io::CodedInputStream coded(&raw);
    coded.SetRecursionLimit(kMaxMessageNesting);
    if (!model.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
        return Status::error(label
            + ": not an ONNX model (protobuf parse failed: truncated, corrupt, another format, "
              "or subgraphs nested more than about 300 deep)");
    if (!model.has_graph() || model.ir_version() <= 0)
        return Status::error(label + ": not an ONNX model (no "
            + std::string(model.has_graph() ? "IR version" : "graph") + " in the protobuf message)");

    ModelGraph graph;
    graph.source = "onnx";
    graph.path = label;

    // Shapes: ONNX's own inference (with data propagation, so Shape->Gather->Reshape chains give static
    // shapes). It throws on models it cannot follow; the graph is still useful without shapes.
    std::string unknownOpset;
    const bool propagateData = opsetsKnownToOnnx(model, &unknownOpset);
    if (!propagateData)
        graph.notes.push_back("opset " + unknownOpset
            + " is not one this ONNX library knows (custom domain or newer "
              "version): shapes inferred without data propagation, ops without a schema left "
              "without shapes");
    try {
        onnx::shape_inference::InferShapes(
            model, onnx::OpSchemaRegistry::Instance(), onnx::ShapeInferenceOptions(false, 0, propagateData));
    } catch (const std::exception& error) {
        graph.notes.push_back("ONNX shape inference stopped: " + firstLine(error.what()));
    } catch (...) {
        graph.notes.push_back("ONNX shape inference stopped with an unknown error");
    }

    GraphBuilder builder(graph, label);
    PLACESCOPE_RETURN_IF_ERROR(builder.addGraph(model.graph(), "", nullptr, {}, nullptr));
    if (builder.flattenedSubgraphs() > 0)
        graph.notes.push_back(std::to_string(builder.flattenedSubgraphs())
            + " If/Loop/Scan bodies flattened into the graph (a Loop body counts once)");
    markLayoutsAndBytes(graph);
    noteCustomDomains(graph);

    int activations = 0, withoutBytes = 0;
    for (const ModelValue& value : graph.values)
        if (!value.isWeight) {
            ++activations;
            withoutBytes += value.bytes == 0 ? 1 : 0;
        }
    if (withoutBytes > 0)
        graph.notes.push_back(std::to_string(withoutBytes) + " of " + std::to_string(activations)
            + " activations have no static shape (size unknown)");
    return graph;
}

Result<ModelGraph> loadOnnxModel(const std::string& path)
{
    PLACESCOPE_ASSIGN_OR_RETURN(std::string bytes, readGraphFile(path));
    return parseOnnxModel(bytes, path);
}

} // namespace placescope
