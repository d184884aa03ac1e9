// SPDX-License-Identifier: MIT
// An ONNX model beside the ONNX Runtime profile of its runs (a trace imported from one): what the profile measured
// of each node (where it ran, and for how long), laid onto the model's ops by exact node name, as issue 28 asks.
// ORT names a node's run after the node (<name>_kernel_time; an unnamed node as <op type>_<index>, which the ONNX
// loader gives it too); nodes its graph optimizer fused or inserted (Conv+Relu as "ReLU32_Output_0_nchwc",
// "Times212/MatMulAddFusion", ReorderOutput) carry new names and match no op of the model: those ops stay
// estimated. Pure functions over a Placescope trace file; thread-safe.
#pragma once

#include "placement/graph/model_graph.h"
#include "profiler/base/status.h"
#include "profiler/store/sqlite_db.h"

#include <cstdint>
#include <map>
#include <string>

namespace placescope {

struct OrtNodeTime
{
    std::string provider; // "CPUExecutionProvider", ...; empty in profiles before ORT 1.11 (CPU runs)
    std::string device; // "cpu", "gpu", or "" for a provider the importer does not know
    int64_t occurrences = 0; // how often the node ran in the profile
    int64_t totalNs = 0;
    // Per run of the session: totalNs over the profile's model_run count (over occurrences when it has none), so
    // the warm-up run counts as much as the others, as a mean over runs does.
    double meanUs = 0;
};

struct OrtNodeTimes
{
    bool fromOrtProfile = false; // the trace was imported from an ONNX Runtime profile
    int64_t runs = 0; // InferenceSession::Run calls the profile recorded (model_run)
    std::map<std::string, OrtNodeTime> byName; // node runs (Memcpy and layout nodes too) by node name
};

// True when the open trace was imported from an ONNX Runtime profile (PS_META source_format).
bool isOrtProfileTrace(SqliteDb& db);

// The profile's nodes; fromOrtProfile false (and nothing else) for any other trace.
Result<OrtNodeTimes> readOrtNodeTimes(const std::string& tracePath);

// Sets, on each op whose name is a node of the profile, the measured time (mean per run) on the device its
// provider runs on, measuredDevice and measuredProvider; leaves the other ops as they are. Returns how many ops
// it set. Only for ONNX models (model.source "onnx"): another graph's op names are not ORT's.
size_t applyOrtNodeTimes(ModelGraph& model, const OrtNodeTimes& times);

// The model with what `tracePath` measured of it (the one call the CLI and the GUI make before costing): an ONNX
// model beside an ONNX Runtime profile gets its nodes' times and providers; any other pair comes back unchanged.
Result<ModelGraph> withTraceMeasurements(ModelGraph model, const std::string& tracePath);

} // namespace placescope
