// SPDX-License-Identifier: MIT
// CapabilityTable: per framework, which ops have CPU and GPU kernels and which data layouts each kernel
// accepts. The facts are data (resources/placement/capabilities_<framework>.json, embedded at build time),
// not code. An op the table does not know is allowed everywhere in any layout, and callers list it as an
// assumption.
#pragma once

#include "placement/graph/model_graph.h"
#include "profiler/base/status.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace placescope {

struct OpCapability
{
    bool known = false; // false: not in the table, allowed everywhere (an assumption)
    bool cpuKernel = true;
    bool gpuKernel = true;
    std::vector<DataLayout> cpuLayouts; // layouts the CPU kernel accepts; empty = any
    std::vector<DataLayout> gpuLayouts; // layouts the GPU kernel accepts; empty = any
    bool layoutSensitive = false; // the op's semantics depend on the layout (Conv, Pool, BN, ...)
    std::vector<std::string> gpuDtypes; // element types the GPU kernel takes ("float32", ...); empty = any
    std::string note; // why, with the framework's own words where it has them

    // The GPU kernel exists for an op whose first input has `dtype` ("" = unknown: trust gpuKernel).
    bool gpuKernelFor(const std::string& dtype) const;
};

class CapabilityTable
{
public:
    // "torch", "tf" or "ort"; an unknown framework is a one-line error.
    static Result<CapabilityTable> forFramework(const std::string& framework);
    // Parses a table in the resources/ JSON format (tests and user-supplied tables).
    static Result<CapabilityTable> fromJson(const std::string& framework, const std::string& jsonText);

    const std::string& framework() const { return m_framework; }
    // Looks the op up by type ("MaxPool", "aten::max_pool2d", "NonMaxSuppression"); unknown -> known=false.
    OpCapability lookup(const std::string& opType) const;

private:
    std::string m_framework;
    std::unordered_map<std::string, OpCapability> m_ops;
};

} // namespace placescope
