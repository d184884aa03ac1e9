# SPDX-License-Identifier: MIT
# External libraries of placescope_placement (included by placement/CMakeLists.txt).
# Graph sources: ONNX models through Debian's libonnx (onnx: shape inference; onnx_proto: the messages, which
# brings protobuf), execution trace JSON through simdjson (as the profiler's importers).
find_package(Protobuf REQUIRED)
find_package(ONNX REQUIRED)
find_package(simdjson REQUIRED)
target_link_libraries(placescope_placement PRIVATE onnx onnx_proto simdjson::simdjson)
# The placement engine's JSON (problem files, proposals), as the CLI writes JSON.
find_package(nlohmann_json REQUIRED)
target_link_libraries(placescope_placement PRIVATE nlohmann_json::nlohmann_json)
