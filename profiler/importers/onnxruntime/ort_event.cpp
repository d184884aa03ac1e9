// SPDX-License-Identifier: MIT
#include "profiler/importers/onnxruntime/ort_event.h"

#include "profiler/importers/kineto_json/json_event_splitter.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <regex>

namespace placescope {
namespace {

// A number as ORT writes it: an integer, a real (a ts in some builds), or a string of digits ("node_index":"6").
std::optional<int64_t> readNumber(simdjson::dom::element value)
{
    int64_t integer = 0;
    if (!value.get_int64().get(integer))
        return integer;
    double real = 0;
    if (!value.get_double().get(real) && real > -9e18 && real < 9e18)
        return static_cast<int64_t>(real);
    std::string_view text;
    if (!value.get_string().get(text)) {
        int64_t parsed = 0;
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
        if (error == std::errc() && end == text.data() + text.size())
            return parsed;
    }
    return std::nullopt;
}

std::string_view readText(simdjson::dom::element value)
{
    std::string_view text;
    return value.get_string().get(text) ? std::string_view() : text;
}

// [{"float":[1,3,224,224]},{"int64":[4]}] -> dims [[1,3,224,224],[4]] and types ["float","int64"]; an entry that
// is not one type with a list of integers gives an empty shape and type, so positions still line up.
void readTypeShapes(simdjson::dom::element value, std::string& dims, std::string& types)
{
    simdjson::dom::array list;
    if (value.get_array().get(list))
        return;
    nlohmann::json dimList = nlohmann::json::array(), typeList = nlohmann::json::array();
    for (simdjson::dom::element entry : list) {
        nlohmann::json shape = nlohmann::json::array();
        std::string type;
        simdjson::dom::object object;
        if (!entry.get_object().get(object))
            for (auto [key, shapeValue] : object) {
                type = std::string(key);
                simdjson::dom::array sizes;
                if (!shapeValue.get_array().get(sizes))
                    for (simdjson::dom::element size : sizes)
                        shape.push_back(readNumber(size).value_or(-1));
                break;
            }
        dimList.push_back(std::move(shape));
        typeList.push_back(std::move(type));
    }
    dims = dimList.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    types = typeList.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void readArgs(simdjson::dom::object args, OrtEvent& event)
{
    for (auto [key, value] : args) {
        if (key == "op_name")
            event.opName = readText(value);
        else if (key == "provider")
            event.provider = readText(value);
        else if (key == "node_index")
            event.nodeIndex = readNumber(value);
        else if (key == "activation_size")
            event.activationSize = readNumber(value);
        else if (key == "parameter_size")
            event.parameterSize = readNumber(value);
        else if (key == "output_size")
            event.outputSize = readNumber(value);
        else if (key == "mem_in_use_delta")
            event.memInUseDelta = readNumber(value);
        else if (key == "mem_bytes_in_use")
            event.memBytesInUse = readNumber(value);
        else if (key == "input_type_shape")
            readTypeShapes(value, event.inputDims, event.inputTypes);
        else if (key == "output_type_shape")
            event.outputTypeShape = simdjson::minify(value);
    }
}

} // namespace

bool OrtEventParser::parse(std::string_view paddedJson, OrtEvent& event)
{
    event = OrtEvent();
    simdjson::dom::element root;
    if (m_parser.parse(paddedJson.data(), paddedJson.size(), false).get(root))
        return false;
    simdjson::dom::object object;
    if (root.get_object().get(object))
        return false;
    for (auto [key, value] : object) {
        if (key == "cat")
            event.cat = readText(value);
        else if (key == "name")
            event.name = readText(value);
        else if (key == "ph")
            event.ph = readText(value);
        else if (key == "pid")
            event.pid = readNumber(value);
        else if (key == "tid")
            event.tid = readNumber(value);
        else if (key == "ts")
            event.tsUs = readNumber(value);
        else if (key == "dur")
            event.durUs = readNumber(value);
        else if (key == "args") {
            simdjson::dom::object args;
            if (!value.get_object().get(args))
                readArgs(args, event);
        }
    }
    return true;
}

std::string_view ortProviderDevice(std::string_view provider)
{
    if (provider.empty())
        return "CPU";
    for (std::string_view gpu : { "CUDA", "Tensorrt", "ROCM", "MIGraphX", "Dml", "WebGpu", "NvTensorRTRTX" })
        if (provider.rfind(gpu, 0) == 0)
            return "GPU";
    for (std::string_view cpu : { "CPU", "Xnnpack", "DNNL", "ACL", "ArmNN" })
        if (provider.rfind(cpu, 0) == 0)
            return "CPU";
    return {};
}

bool looksLikeOrtProfile(std::string_view contentHead)
{
    size_t at = contentHead.find_first_not_of(" \t\r\n");
    if (at == std::string_view::npos || contentHead[at] != '[')
        return false;
    std::string first;
    bool seen = false;
    JsonEventSplitter splitter({ [](std::string_view, std::string_view) {},
        [&](std::string_view rawEvent, bool) {
            if (!seen)
                first = std::string(rawEvent);
            seen = true;
        } });
    splitter.feed(contentHead);
    if (!seen) { // the first event is cut off (a truncated file): ORT writes "cat" first, so its start tells
        static const std::regex kStart(R"re(^\s*\[\s*\{\s*"cat"\s*:\s*"(Session|Node)")re");
        return std::regex_search(contentHead.begin(), contentHead.end(), kStart);
    }
    simdjson::padded_string padded(first);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    std::string_view cat;
    if (parser.parse(padded).get(root) || root["cat"].get_string().get(cat))
        return false;
    return cat == "Session" || cat == "Node";
}

} // namespace placescope
