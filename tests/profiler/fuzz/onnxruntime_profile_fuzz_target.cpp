// SPDX-License-Identifier: MIT
// Fuzz target: any bytes through the ONNX Runtime profile import (the sniff of a JSON array's first event, the
// splitter, simdjson on each event, the mapping, the trace writer); import_fuzz_check.h says what must hold. Its
// corpus starts from the real MNIST profile and damaged copies of it (scripts/make_ort_fuzz_seeds.py).
#include "import_fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    return placescope::fuzz::importOnce(data, size, "onnxruntime_profile.json", "onnxruntime_profile");
}
