// SPDX-License-Identifier: MIT
// Scaffolding: replaced by the Kineto JSON importer.
#include "profiler/importers/importer.h"

namespace placescope {
Status importKinetoJson(const std::string& path, TraceWriter&, const ImportOptions&)
{
    return Status::error("the Kineto JSON importer is not built yet");
}
} // namespace placescope
