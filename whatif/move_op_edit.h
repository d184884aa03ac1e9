// SPDX-License-Identifier: MIT
// The `op:NAME=cpu|gpu` edit: a framework op moved to the other device, the trace-side twin of `place --pin`.
// Its new time comes from the placement cost model (OpWork from the op's recorded shapes, roofline on the
// builtin host CPU or on the trace's GPU), its copies from the link model (the trace's pinned copies, else the
// builtin PCIe 4 x16 link).
//   - to the CPU: its kernels and their launches go; the host waits for the GPU work queued before the op, copies
//     the inputs down, runs the op, copies the output up (priced as one synchronous host call);
//   - to the GPU: its CPU time goes; the host hands the inputs up, the kernel runs after the work already queued
//     on the busiest stream, and the host waits for the result to come back down; an op between a DtoH and an
//     HtoD copy of the same size (a CPU fallback) takes that round trip with it instead (whatif/move_op_round_trip.h).
#pragma once

#include "whatif/whatif_edit.h"

namespace placescope {

EditOutcome applyMoveOp(const TraceData& trace, const WhatIfEdit& edit, ReplayGraph& graph);

} // namespace placescope
