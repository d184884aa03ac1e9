// SPDX-License-Identifier: MIT
#include "placement/graph/execution_trace_loader.h"

#include "placement/graph/graph_file.h"
#include "placement/graph/torch_tensor_facts.h"
#include "profiler/importers/common/byte_source.h"

#include <simdjson.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace placescope {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

// One tensor argument: the ET's [tensor id, storage id, offset, numel, element size, device] plus the shape,
// type and strides recorded beside it.
struct TensorArg
{
    int64_t id = -1;
    int64_t numel = -1;
    int64_t elementBytes = 0;
    std::string device;
    std::vector<int64_t> shape;
    bool shapeKnown = false;
    std::vector<int64_t> strides;
    std::string dtype;
};

struct OpArgs
{
    std::vector<TensorArg> tensors;
    std::vector<std::pair<std::string, std::vector<int64_t>>> ints; // Int, Bool and int list arguments
    std::vector<std::pair<std::string, std::string>> strings; // Device, String arguments
};

struct EtNode
{
    int64_t id = -1;
    int64_t parent = -1;
    std::string name;
    element json;
    bool hasTensors = false;
};

bool readInt(element value, int64_t& out)
{
    if (value.get_int64().get(out) == simdjson::SUCCESS)
        return true;
    uint64_t unsignedValue = 0;
    if (value.get_uint64().get(unsignedValue) == simdjson::SUCCESS) {
        out = static_cast<int64_t>(unsignedValue);
        return true;
    }
    bool flag = false;
    if (value.get_bool().get(flag) == simdjson::SUCCESS) {
        out = flag ? 1 : 0;
        return true;
    }
    return false;
}

std::string readString(element value)
{
    std::string_view text;
    return value.get_string().get(text) == simdjson::SUCCESS ? std::string(text) : std::string();
}

std::string readStringField(element json, const char* key)
{
    element field;
    return json[key].get(field) == simdjson::SUCCESS ? readString(field) : std::string();
}

// A flat list of integers ([1,3,224,224]); false for anything else (nested lists, strings).
bool readIntList(element value, std::vector<int64_t>& out)
{
    array items;
    if (value.get_array().get(items) != simdjson::SUCCESS)
        return false;
    out.clear();
    for (element item : items) {
        int64_t number = 0;
        if (!readInt(item, number))
            return false;
        out.push_back(number);
    }
    return true;
}

// [id, storage, offset, numel, itemsize, device]: five integers, then the device string (older 1.0.0 files
// leave the device out).
bool readTensorTuple(element value, TensorArg& tensor)
{
    array items;
    if (value.get_array().get(items) != simdjson::SUCCESS)
        return false;
    const size_t size = items.size();
    if (size != 5 && size != 6)
        return false;
    int64_t fields[5] = {};
    for (size_t i = 0; i < 5; ++i)
        if (!readInt(items.at(i).value_unsafe(), fields[i]))
            return false;
    if (size == 6) {
        std::string_view device;
        if (items.at(5).value_unsafe().get_string().get(device) != simdjson::SUCCESS)
            return false;
        tensor.device = deviceFromTorchName(std::string(device));
    }
    tensor.id = fields[0];
    tensor.numel = fields[3];
    tensor.elementBytes = fields[4];
    return true;
}

element at(element list, size_t index, bool* found)
{
    array items;
    element item;
    *found = list.get_array().get(items) == simdjson::SUCCESS && items.at(index).get(item) == simdjson::SUCCESS;
    return item;
}

// Reads "inputs" or "outputs" of a node in either schema layout.
OpArgs readArgs(element node, const char* side)
{
    element values, shapes, types, strides;
    bool hasShapes = false, hasTypes = false, hasStrides = false;
    object nested;
    if (node[side].get_object().get(nested) == simdjson::SUCCESS) {
        if (nested["values"].get(values) != simdjson::SUCCESS)
            return {};
        hasShapes = nested["shapes"].get(shapes) == simdjson::SUCCESS;
        hasTypes = nested["types"].get(types) == simdjson::SUCCESS;
        hasStrides = nested["strides"].get(strides) == simdjson::SUCCESS;
    } else {
        if (node[side].get(values) != simdjson::SUCCESS)
            return {};
        const std::string prefix = side[0] == 'i' ? "input_" : "output_";
        hasShapes = node[prefix + "shapes"].get(shapes) == simdjson::SUCCESS;
        hasTypes = node[prefix + "types"].get(types) == simdjson::SUCCESS;
        hasStrides = node[prefix + "strides"].get(strides) == simdjson::SUCCESS;
    }
    array valueList;
    if (values.get_array().get(valueList) != simdjson::SUCCESS)
        return {};

    OpArgs args;
    size_t index = 0;
    for (element value : valueList) {
        const std::string argName = "arg" + std::to_string(index);
        bool found = false;
        const std::string type = hasTypes ? readString(at(types, index, &found)) : std::string();
        const element shape = hasShapes ? at(shapes, index, &found) : element();
        const bool shapeFound = hasShapes && found;
        const element stride = hasStrides ? at(strides, index, &found) : element();
        const bool strideFound = hasStrides && found;

        auto addTensor = [&](element tuple, element shapeJson, bool haveShape, element strideJson, bool haveStride,
                             const std::string& typeName) {
            TensorArg tensor;
            if (!readTensorTuple(tuple, tensor))
                return false;
            tensor.shapeKnown = haveShape && readIntList(shapeJson, tensor.shape);
            if (haveStride)
                readIntList(strideJson, tensor.strides);
            tensor.dtype = dtypeFromTorchName(typeName);
            args.tensors.push_back(std::move(tensor));
            return true;
        };

        if (type.rfind("Tensor(", 0) == 0) {
            addTensor(value, shape, shapeFound, stride, strideFound, type);
        } else if (type.rfind("GenericList[Tensor", 0) == 0 || type.rfind("TensorList", 0) == 0) {
            // A list of tensors: values, shapes and strides are lists of the same length.
            const std::string members = type.substr(type.find('[') + 1);
            const std::string memberType = members.substr(0, members.find_first_of(",]"));
            array tuples;
            if (value.get_array().get(tuples) == simdjson::SUCCESS) {
                size_t member = 0;
                for (element tuple : tuples) {
                    bool shapeHere = false, strideHere = false;
                    const element memberShape = shapeFound ? at(shape, member, &shapeHere) : element();
                    const element memberStride = strideFound ? at(stride, member, &strideHere) : element();
                    addTensor(tuple, memberShape, shapeHere, memberStride, strideHere, memberType);
                    ++member;
                }
            }
        } else if (type == "Int" || type == "Bool" || type.rfind("GenericList[Int", 0) == 0) {
            std::vector<int64_t> numbers;
            int64_t number = 0;
            if (readInt(value, number))
                args.ints.push_back({ argName, { number } });
            else if (readIntList(value, numbers))
                args.ints.push_back({ argName, numbers });
        } else if (type == "Device" || type == "String") {
            args.strings.push_back({ argName, readString(value) });
        } else if (!hasTypes) {
            addTensor(value, shape, shapeFound, stride, strideFound, ""); // no types: tensors by their tuple form
        }
        ++index;
    }
    return args;
}

int64_t readNodeInt(element node, const char* key, const char* attrName)
{
    int64_t value = -1;
    element field;
    if (node[key].get(field) == simdjson::SUCCESS && readInt(field, value))
        return value;
    array attrs;
    if (node["attrs"].get_array().get(attrs) == simdjson::SUCCESS)
        for (element attr : attrs)
            if (readStringField(attr, "name") == attrName) {
                element attrValue;
                if (attr["value"].get(attrValue) == simdjson::SUCCESS && readInt(attrValue, value))
                    return value;
            }
    return -1;
}

// The ET nests ops by call stack: the process and thread roots, record_function annotations ("[param|...]" in
// the benchmark file, "## forward ##" elsewhere), then framework ops and the ops they call
// (aten::rand -> aten::empty + aten::uniform_, aten::conv2d -> aten::convolution -> aten::cudnn_convolution).
// The placement unit is the outermost op that touches tensors: what the program called, whose children always
// run where it runs. Leaf ops would split aten::rand into an allocation and an in-place fill of one tensor and
// hide the call the user can move. Nodes without tensors only nest others and become the op's scope.
std::vector<size_t> outermostTensorOps(
    const std::vector<EtNode>& nodes, const std::unordered_map<int64_t, size_t>& indexOfId)
{
    std::vector<size_t> selected;
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (!nodes[i].hasTensors)
            continue;
        bool nested = false;
        int64_t parent = nodes[i].parent;
        int64_t self = nodes[i].id;
        for (size_t steps = 0; steps < nodes.size(); ++steps) { // bounded: a corrupt file may loop
            auto it = indexOfId.find(parent);
            if (it == indexOfId.end() || parent == self)
                break;
            if (nodes[it->second].hasTensors) {
                nested = true;
                break;
            }
            self = parent;
            parent = nodes[it->second].parent;
        }
        if (!nested)
            selected.push_back(i);
    }
    std::sort(selected.begin(), selected.end(), [&](size_t a, size_t b) { return nodes[a].id < nodes[b].id; });
    return selected;
}

std::string scopeOf(
    const EtNode& node, const std::vector<EtNode>& nodes, const std::unordered_map<int64_t, size_t>& indexOfId)
{
    std::vector<std::string> path;
    int64_t parent = node.parent;
    int64_t self = node.id;
    for (size_t steps = 0; steps < nodes.size(); ++steps) {
        auto it = indexOfId.find(parent);
        if (it == indexOfId.end() || parent == self)
            break;
        const std::string& name = nodes[it->second].name;
        if (name.rfind("[pytorch|profiler|execution_trace", 0) != 0)
            path.push_back(name);
        self = parent;
        parent = nodes[it->second].parent;
    }
    std::string scope;
    for (auto it = path.rbegin(); it != path.rend(); ++it)
        scope += (scope.empty() ? "" : "/") + *it;
    return scope;
}

Result<std::string> readText(const std::string& path)
{
    PLACESCOPE_ASSIGN_OR_RETURN(std::unique_ptr<ByteSource> source, ByteSource::open(path));
    std::string text;
    char buffer[1 << 16];
    while (true) {
        PLACESCOPE_ASSIGN_OR_RETURN(size_t got, source->read(buffer, sizeof buffer));
        if (got == 0)
            break;
        text.append(buffer, got);
    }
    return text;
}

} // namespace

Result<ModelGraph> loadExecutionTrace(const std::string& path)
{
    // Missing, directory and empty files get the same messages as the other graph sources.
    if (auto head = readGraphFileHead(path, 1); !head)
        return head.status();
    PLACESCOPE_ASSIGN_OR_RETURN(std::string text, readText(path));
    const std::string notEt = path + ": not a PyTorch execution trace";
    simdjson::padded_string padded(text);
    text.clear();
    text.shrink_to_fit();
    simdjson::dom::parser parser;
    element root;
    if (auto error = parser.parse(padded).get(root); error != simdjson::SUCCESS)
        return Status::error(notEt + " (JSON: " + simdjson::error_message(error) + ")");
    object top;
    if (root.get_object().get(top) != simdjson::SUCCESS)
        return Status::error(notEt + " (the JSON is not an object)");
    array nodeList;
    if (top["nodes"].get_array().get(nodeList) != simdjson::SUCCESS) {
        element ignored;
        if (top["traceEvents"].get(ignored) == simdjson::SUCCESS)
            return Status::error(path
                + ": a PyTorch profiler (Kineto) trace, not an execution trace: import it "
                  "with 'placescope import' and open the trace");
        return Status::error(notEt + " (no \"nodes\" array)");
    }

    ModelGraph graph;
    graph.source = "pytorch-et";
    graph.path = path;
    std::vector<EtNode> nodes;
    nodes.reserve(nodeList.size());
    int malformed = 0;
    for (element json : nodeList) {
        EtNode node;
        node.json = json;
        element idJson;
        if (json["id"].get(idJson) != simdjson::SUCCESS || !readInt(idJson, node.id)) {
            ++malformed;
            continue;
        }
        node.name = readStringField(json, "name");
        node.parent = readNodeInt(json, "parent", "parent");
        if (node.parent < 0)
            node.parent = readNodeInt(json, "ctrl_deps", "ctrl_deps");
        nodes.push_back(std::move(node));
    }
    std::unordered_map<int64_t, size_t> indexOfId;
    std::vector<OpArgs> inputs(nodes.size()), outputs(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        indexOfId.emplace(nodes[i].id, i);
        inputs[i] = readArgs(nodes[i].json, "inputs");
        outputs[i] = readArgs(nodes[i].json, "outputs");
        nodes[i].hasTensors = !inputs[i].tensors.empty() || !outputs[i].tensors.empty();
    }
    if (malformed > 0)
        graph.notes.push_back(std::to_string(malformed) + " nodes without an id skipped");

    // Tensor id -> the value holding its latest contents. An op that writes a tensor it also reads (in-place
    // aten::uniform_, copy_) makes a new version, so a later reader depends on the writer, not the allocator.
    std::unordered_map<int64_t, int> latestValue;
    std::unordered_map<int64_t, int> versions;
    auto makeValue = [&](const TensorArg& tensor, int producer) {
        ModelValue value;
        const int version = ++versions[tensor.id];
        value.name = "t" + std::to_string(tensor.id) + (version > 1 ? "." + std::to_string(version) : "");
        value.shape = tensor.shape;
        value.shapeKnown = tensor.shapeKnown;
        value.dtype = tensor.dtype;
        value.bytes = tensor.numel >= 0 && tensor.elementBytes > 0
            ? tensor.numel * tensor.elementBytes
            : staticTensorBytes(value.shape, value.shapeKnown, value.dtype);
        value.layout = layoutFromStrides(tensor.shape, tensor.strides);
        value.device = tensor.device;
        value.producer = producer;
        value.isGraphInput = producer < 0;
        graph.values.push_back(std::move(value));
        const int index = static_cast<int>(graph.values.size()) - 1;
        latestValue[tensor.id] = index;
        return index;
    };

    bool anyStrides = false;
    for (size_t nodeIndex : outermostTensorOps(nodes, indexOfId)) {
        const EtNode& node = nodes[nodeIndex];
        ModelOp op;
        op.name = node.name + "#" + std::to_string(node.id);
        op.type = node.name;
        op.scope = scopeOf(node, nodes, indexOfId);
        const int opIndex = static_cast<int>(graph.ops.size());
        bool onGpu = false, onCpu = false;
        for (const OpArgs* args : { &inputs[nodeIndex], &outputs[nodeIndex] })
            for (const TensorArg& tensor : args->tensors) {
                onGpu |= tensor.device == "gpu";
                onCpu |= tensor.device == "cpu";
                anyStrides |= !tensor.strides.empty();
            }
        for (const TensorArg& tensor : inputs[nodeIndex].tensors) {
            auto it = latestValue.find(tensor.id);
            op.inputs.push_back(it != latestValue.end() ? it->second : makeValue(tensor, -1));
        }
        for (const TensorArg& tensor : outputs[nodeIndex].tensors)
            op.outputs.push_back(makeValue(tensor, opIndex));
        for (auto& [name, numbers] : inputs[nodeIndex].ints)
            op.intAttributes[name] = numbers;
        for (auto& [name, value] : inputs[nodeIndex].strings)
            op.stringAttributes[name] = value;
        const std::string schema = readStringField(node.json, "op_schema");
        if (!schema.empty())
            op.stringAttributes["op_schema"] = schema;
        op.measuredDevice = onGpu ? "gpu" : onCpu ? "cpu" : "";
        graph.ops.push_back(std::move(op));
    }
    if (graph.ops.empty())
        graph.notes.push_back("the execution trace records no op with tensor arguments");
    if (!anyStrides)
        graph.notes.push_back("the execution trace records no strides: layouts unknown");
    graph.notes.push_back("execution traces carry no durations: ops are not measured");
    return graph;
}

} // namespace placescope
