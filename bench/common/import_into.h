// SPDX-License-Identifier: MIT
// A bench's import step, as a child's body (bench/common/child_run.h): `trace` imported into a fresh `store`.
// Exit code 0 on success.
#pragma once

#include "profiler/importers/importer.h"

#include <filesystem>
#include <string>

namespace placescope::bench {

inline int importInto(const std::string& trace, const std::string& store)
{
    std::filesystem::remove(store);
    return importTraces({ trace }, store, ImportOptions {}).isOk() ? 0 : 1;
}

} // namespace placescope::bench
