// SPDX-License-Identifier: MIT
// Fuzz target: any bytes through the nsys SQLite import (SQLite's own reading of a damaged file, the table and
// column checks, views where tables belong, the row readers, the trace writer); import_fuzz_check.h says what
// must hold. Its corpus starts from small nsys exports (scripts/make_nsys_fuzz_seeds.py).
#include "import_fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    return placescope::fuzz::importOnce(data, size, "input.sqlite", "nsys_sqlite");
}
