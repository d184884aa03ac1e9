// SPDX-License-Identifier: MIT
// OrtEvent: one event of an ONNX Runtime profile (the JSON array SessionOptions.enable_profiling writes), read
// with simdjson from the event's own text: the Chrome-trace fields (cat, name, ph, pid, tid, ts and dur in
// microseconds) and, for a "Node" event, the args the importer keeps (op_name, provider, node_index, the input
// and output type/shape lists, the size and memory figures; numbers ORT writes as strings are read as numbers).
// Field set: ../shared/reference/placement.md section 4.2. Plain data; its views point into the parsed text.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace placescope {

struct OrtEvent
{
    std::string_view cat, name, ph;
    std::optional<int64_t> pid, tid, tsUs, durUs;
    // Node args
    std::string_view opName, provider;
    std::optional<int64_t> nodeIndex, activationSize, parameterSize, outputSize;
    std::optional<int64_t> memInUseDelta, memBytesInUse; // ORT 1.20+: the session arena after the node
    std::string inputDims, inputTypes; // JSON arrays, as PS_FRAMEWORK_OPS keeps them: [[1,3,224,224]], ["float"]
    std::string outputTypeShape; // JSON, as written: [{"float":[1,64,112,112]}]
};

// Parses elements of the profile's array, one at a time: an event's views stay valid until the next parse.
class OrtEventParser
{
public:
    // `paddedJson` must be followed by SIMDJSON_PADDING readable bytes. False when the text is not a JSON object
    // (the caller counts it).
    bool parse(std::string_view paddedJson, OrtEvent& event);

private:
    simdjson::dom::parser m_parser;
};

// The device a provider runs on: "GPU" for CUDA, TensorRT, ROCm, MIGraphX, DirectML, WebGPU; "CPU" for the CPU
// provider and the CPU libraries (XNNPACK, oneDNN, ACL); an empty provider (profiles before ORT 1.11 name none,
// and were CPU runs) is "CPU"; anything else is empty (unknown).
std::string_view ortProviderDevice(std::string_view provider);

// True when `contentHead` (a file's first uncompressed bytes) begins as an ONNX Runtime profile does: a JSON
// array whose first element is an object with "cat" "Session" or "Node".
bool looksLikeOrtProfile(std::string_view contentHead);

} // namespace placescope
