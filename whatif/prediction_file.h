// SPDX-License-Identifier: MIT
// A what-if's predicted timeline as a Placescope trace: a copy of the measured trace with every replayed row moved
// to its predicted time and dropped GPU ops removed, so stats, analyze, export, the GUI and a diff read it like any
// trace. PS_META says it is a prediction, from which trace, with which edits. All or nothing: the copy is written
// beside the output and renamed into place when complete; the input is never written.
#pragma once

#include "profiler/base/status.h"
#include "whatif/whatif.h"

#include <string>

namespace placescope {

Status writePredictedTrace(const std::string& inputPath, const std::string& outputPath, const WhatIfResult& result);

} // namespace placescope
