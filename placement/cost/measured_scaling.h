// SPDX-License-Identifier: MIT
// Measured op times carried from the device that ran them to the device being costed. A trace measures each
// op on one GPU (the trace's); the user asks for the costs on a target GPU. A GPU measurement is therefore
// scaled from the trace's GPU to the target, and the CPU cost of an op only measured on a GPU is scaled from
// that same trace GPU: the target GPU never enters a CPU estimate, so "all on the CPU" is one figure whatever
// GPU is picked.
#pragma once

#include "placement/cost/device_table.h"
#include "placement/cost/op_work.h"
#include "placement/graph/model_graph.h"
#include "profiler/base/status.h"

#include <string>
#include <vector>

namespace placescope {

// Time of `work` on `to` divided by its time on `from` (1 when the two specs are the same device). With known
// shapes the ratio of the two rooflines (each device's own compute or memory bound); without, the ratio of the
// peaks that bound this kind of work (FLOP/s for compute, memory bandwidth otherwise).
double deviceTimeRatio(const OpWork& work, const DeviceSpec& from, const DeviceSpec& to);

// The GPU a model's measured GPU times were taken on: the GPU recorded by the trace the graph was read from (a
// "trace-ops" graph), else by `tracePath`. An error when neither records one (the caller then keeps the
// measurements as they are and says so).
Result<DeviceSpec> measuringGpu(const ModelGraph& model, const std::string& tracePath, const DeviceTable& table);

} // namespace placescope
