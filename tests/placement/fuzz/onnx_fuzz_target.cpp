// SPDX-License-Identifier: MIT
// Fuzz target: any bytes as an ONNX model (protobuf parsing with its nesting limit, ONNX shape inference, subgraph
// flattening, the graph checks). The loader must either give a graph whose every op reads values that exist and
// come from earlier ops (what the placement engine relies on), or fail with a one-line error. Anything else
// aborts, which libFuzzer (and the corpus replay test) report.
#include "placement/graph/onnx_model_loader.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void require(bool condition, const char* what)
{
    if (!condition) {
        std::fprintf(stderr, "onnx fuzz target: %s\n", what);
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto graph = placescope::parseOnnxModel(std::string(reinterpret_cast<const char*>(data), size), "fuzz.onnx");
    if (!graph.isOk()) {
        require(!graph.status().message().empty(), "a load failed without saying why");
        require(graph.status().message().find('\n') == std::string::npos, "an error message spans lines");
        return 0;
    }
    const int values = static_cast<int>(graph->values.size());
    for (size_t i = 0; i < graph->ops.size(); ++i) {
        for (int input : graph->ops[i].inputs) {
            require(input >= 0 && input < values, "an op reads a value that does not exist");
            require(graph->values[input].producer < static_cast<int>(i), "an op reads a value made by a later op");
        }
        for (int output : graph->ops[i].outputs)
            require(output >= 0 && output < values && graph->values[output].producer == static_cast<int>(i),
                "an op's output names another producer");
    }
    for (const std::string& note : graph->notes)
        require(note.find('\n') == std::string::npos, "a note spans lines");
    return 0;
}
