// SPDX-License-Identifier: MIT
// Fuzz target: any bytes through the TensorBoard trace JSON import (the sniff, simdjson's parse of damaged JSON,
// events with missing or wrong fields, the XSpace rebuilt from them and its mapping, the trace writer);
// import_fuzz_check.h says what must hold. Its corpus starts from a small trace cut from the TF BERT step's and
// damaged copies of it (scripts/make_tensorboard_fuzz_seeds.py).
#include "import_fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    return placescope::fuzz::importOnce(data, size, "input.trace.json", "tensorboard_trace");
}
