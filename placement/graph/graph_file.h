// SPDX-License-Identifier: MIT
// Reading a graph source's bytes with the one-line errors every loader gives: a missing file, a directory, an
// empty file.
#pragma once

#include "profiler/base/status.h"

#include <cstddef>
#include <string>

namespace placescope {

// The whole file (models are megabytes, not gigabytes).
Result<std::string> readGraphFile(const std::string& path);

// Up to `count` leading bytes of the file, for telling formats apart; errors as readGraphFile.
Result<std::string> readGraphFileHead(const std::string& path, size_t count);

} // namespace placescope
