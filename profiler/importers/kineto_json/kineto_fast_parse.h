// SPDX-License-Identifier: MIT
// parseKinetoEventFast: reads one Kineto event into a KinetoRecord without simdjson, for events of the shape
// PyTorch writes: an object of ASCII strings without escapes, integers within int64, decimal timestamps, and
// args holding those and arrays of them. It fills the record exactly as KinetoRecordParser's simdjson path would
// (the test compares the two on every event of the shared traces and on hand-made edge cases), and gives up,
// returning false, on anything else: an escape, a byte outside printable ASCII, a number that is not a plain
// int64 where an integer is read, a value of an unexpected type, a syntax error. The caller then parses the
// event with simdjson. Strings are views into `json`.
// Why: simdjson indexes every event in a pass of its own before reading it; on events of a few hundred bytes
// reading them that way was a quarter of an import's instructions (callgrind), and this path does the same work in
// about 30% fewer.
#pragma once

#include "profiler/importers/kineto_json/kineto_record.h"

#include <string_view>

namespace placescope {

// `json` must be followed in memory by at least 16 readable bytes (strings are scanned 16 bytes at a time; the
// batch reader pads every event with SIMDJSON_PADDING). On false the record holds partial fields: the caller
// resets it.
bool parseKinetoEventFast(std::string_view json, KinetoRecord& record);

} // namespace placescope
