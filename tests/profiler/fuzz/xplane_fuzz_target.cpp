// SPDX-License-Identifier: MIT
// Fuzz target: any bytes through the XPlane import (the sniff, protobuf's parse of a damaged XSpace, stats that
// reference missing metadata, the mapping, the trace writer); import_fuzz_check.h says what must hold. Its corpus
// starts from a small XSpace and damaged copies of it (scripts/make_xplane_fuzz_seeds.py).
#include "import_fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    return placescope::fuzz::importOnce(data, size, "input.xplane.pb", "xplane");
}
