// SPDX-License-Identifier: MIT
// Fuzz target: any bytes through the whole Kineto import (gzip sniffing, splitter, simdjson, mapper, SQLite
// writer); import_fuzz_check.h says what must hold.
#include "import_fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    return placescope::fuzz::importOnce(data, size, "input.json", "kineto_json");
}
