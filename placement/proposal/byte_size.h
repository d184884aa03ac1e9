// SPDX-License-Identifier: MIT
// Parses the sizes users type on the command line ("16GiB", "512 MB", "1e9"): decimal (kB, MB, GB, TB) and
// binary (KiB, MiB, GiB, TiB) units, case-insensitive, an optional trailing "B". Errors name the text.
#pragma once

#include "profiler/base/status.h"

#include <cstdint>
#include <string>

namespace placescope {

Result<int64_t> parseByteSize(const std::string& text);

} // namespace placescope
