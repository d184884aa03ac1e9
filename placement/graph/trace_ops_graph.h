// SPDX-License-Identifier: MIT
// A Placescope trace's framework ops as a ModelGraph: one iteration (one step) of the outermost framework ops
// per thread, in time order, each measured: CPU time = the op's duration, GPU time = the durations of the
// kernels and memsets it (or the ops it called) launched, found through PS_EXTERNAL_CORRELATION, or through the
// launching API call inside the op's time span where the external ids name no op. Data edges are
// approximated (a trace records input shapes, not tensor ids): see modelGraphFromTrace. Thread-safe: no state.
#pragma once

#include "placement/graph/model_graph.h"
#include "profiler/base/status.h"

#include <string>

namespace placescope {

// Data edges, as the trace allows: (1) each op consumes the output of the op before it on its thread (program
// order; an op almost always reads what the previous one wrote); (2) an input j >= 1 whose shape and dtype equal
// the guessed output of an earlier op of the same thread within the last 64 ops (residual adds, concats) reads
// that op's output; an op's output shape is guessed as the first input shape of the next op on its thread.
// Inputs j >= 1 that chain to nothing are weights (parameters). Without recorded shapes only (1) applies.
// Steps: PS_STEPS, else the findings' step detector (annotations, repeating kernels); the step of median
// duration is taken so the graph is one iteration (the whole trace when no steps are found).
Result<ModelGraph> modelGraphFromTrace(const std::string& tracePath);

} // namespace placescope
