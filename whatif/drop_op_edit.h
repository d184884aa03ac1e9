// SPDX-License-Identifier: MIT
// The `drop:op:NAME` edit: every outermost occurrence of framework op NAME removed from its thread with what it
// did there: its CPU time (the part of the host gap it spanned), the CUDA calls made inside it and the GPU work
// they launched (`drop:REGEX` removes GPU ops and their launches only, so an op's own CPU time stayed).
#pragma once

#include "whatif/whatif_edit.h"

namespace placescope {

EditOutcome applyDropOp(const TraceData& trace, const WhatIfEdit& edit, ReplayGraph& graph);

} // namespace placescope
