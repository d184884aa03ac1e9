// SPDX-License-Identifier: MIT
// Scaffolding: replaced by the Nsight Systems SQLite importer.
#include "profiler/importers/importer.h"

namespace placescope {
Status importNsysSqlite(const std::string& path, TraceWriter&, const ImportOptions&)
{
    return Status::error("the nsys SQLite importer is not built yet");
}
} // namespace placescope
