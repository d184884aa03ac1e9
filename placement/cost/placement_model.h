// SPDX-License-Identifier: MIT
// From a ModelGraph to the solvers' OpGraph: every op costed on the CPU and the GPU (measured where a trace
// linked it to what it ran, a calibrated roofline estimate elsewhere), capability limits from the
// framework's table in resources/, transfers priced by the link model, weights folded into their consumers.
// Pure function: the GUI calls it from a worker thread.
#pragma once

#include "placement/cost/default_gpu.h"
#include "placement/cost/device_table.h"
#include "placement/engine/op_graph.h"
#include "placement/graph/model_graph.h"
#include "profiler/base/status.h"

#include <string>
#include <vector>

namespace placescope {

struct CostOptions
{
    std::string gpu = kDefaultGpuKey; // a name in resources/placement/devices.json, or "from-trace"
    std::string cpu = "host"; // the host CPU entry of the same table
    std::string framework = "torch"; // "torch", "tf" or "ort": which capability table applies
    int64_t gpuMemoryBytes = 0; // 0 = the device table's memory
    std::string tracePath; // optional Placescope trace: measured op costs, link fit, device specs
};

struct PlacementModel
{
    OpGraph graph; // devices: 0 = CPU, 1 = GPU
    std::vector<int> graphOpOfModelOp; // model op -> graph op index, -1 for folded weight producers
    std::vector<int> modelOpOfGraphOp; // graph op -> model op index; -1 for the host ends added for graph
                                       // inputs ("input:<value>") and outputs ("output:<value>"), pinned to the CPU
    std::vector<int> frameworkDefault; // device per graph op as the framework would place it
    std::vector<std::string> assumptions; // unknown ops allowed everywhere, estimated costs, link defaults
    // Beside an ONNX Runtime profile: how many ops have their measured placement and times (one of `assumptions`,
    // kept apart for the app's summary); empty without a profile.
    std::string measuredPlacementNote;
    bool htodFittedToTrace = false, dtohFittedToTrace = false; // the graph's two links, fitted to the trace's copies
    DeviceSpec cpu; // the specs the costs were computed for (the layout pass needs them too)
    DeviceSpec gpu;
};

Result<PlacementModel> buildPlacementModel(const ModelGraph& model, const CostOptions& options);

} // namespace placescope
