// SPDX-License-Identifier: MIT
// The XSpace -> trace mapping of the XPlane importer, for every input that holds an XSpace: the .xplane.pb itself, and
// TensorBoard's trace-viewer JSON of the same capture rebuilt as one (importers/tensorboard_trace), so the two give the
// same kernels, copies, calls, ops and steps from one set of rules.
#pragma once

#include "profiler/base/status.h"
#include "profiler/importers/importer.h"
#include "profiler/importers/xplane/xplane.pb.h"

#include <string>

namespace placescope {

// Maps `space` into `writer`: GPU planes, the host plane, the Steps line (xplane_importer.cpp says how). `path` names
// the input in PS_META's source_file, `sourceFormat` is its source_format. An XSpace without a GPU plane is an error.
Status importXSpace(const tensorflow::profiler::XSpace& space, const std::string& path, const std::string& sourceFormat,
    TraceWriter& writer, const ImportOptions& options);

} // namespace placescope
