// SPDX-License-Identifier: MIT
// Which ops of a model ran in a trace, and where. The desktop app follows these occurrences from a graph node to
// the framework op on the timeline (and from there, through correlation ids, to its kernels), and warns when a
// model does not belong to the open trace. Pure function over a Placescope trace file; thread-safe. It lives in
// cost/ because which aten op is which ONNX op (canonicalOpType) is the cost model's table.
#pragma once

#include "placement/graph/model_graph.h"
#include "profiler/base/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope {

// One framework-op occurrence of a trace: its thread and start, as PS_FRAMEWORK_OPS records them.
struct OpOccurrence
{
    int64_t globalTid = -1;
    int64_t startNs = 0;
    bool operator==(const OpOccurrence&) const = default;
};

struct ModelTraceMatch
{
    // Per model op, the outermost occurrences that are this op, in (thread, start) order; empty when none.
    std::vector<std::vector<OpOccurrence>> occurrences;
    size_t comparedOps = 0; // ops that run something (weight producers are left out)
    size_t matchedOps = 0; // of those, the ones with at least one occurrence
    size_t traceOps = 0; // framework ops in the trace (cpu_op, or Operator in 2021 traces; not annotations)
    // How ops were matched: "the same occurrence" for a graph read from a trace, "the same node name" for an ONNX
    // model beside an ONNX Runtime profile, else "the same kind of op (aten::conv2d is a Conv) on inputs of the
    // same shape".
    std::string rule;
    bool byNodeName = false; // the ONNX Runtime rule
    // Fewer than half of the model's ops ran in the trace: the model is likely not what the trace recorded. By node
    // name, none ran: ORT's graph optimizer renames the nodes it fuses (often most of them), so a few is no sign.
    bool mismatch() const { return comparedOps > 0 && (byNodeName ? matchedOps == 0 : matchedOps * 2 < comparedOps); }
    // One line for people: how many ops were found and, when few were, why the model may not match.
    std::string summary() const;
};

// Trace-ops graphs: an op matches when its own occurrence (thread, start) is in the trace under the same name.
// An ONNX model beside a trace imported from an ONNX Runtime profile: an op matches the node runs of the same name,
// exactly (ORT names a run after its node; see placement/cost/ort_node_times.h), and traceOps counts node runs.
// Other graphs (ONNX, execution traces): an op matches a framework op whose canonical type is the op's
// (canonicalOpType) and whose first input has the op's first input shape; dimension 0 (the batch) and unknown
// dimensions match any size, and an op whose input shape is unknown matches on the kind alone. Nested matches
// (aten::conv2d around aten::convolution) count once, as the outermost.
Result<ModelTraceMatch> matchModelToTrace(const ModelGraph& model, const std::string& tracePath);

} // namespace placescope
