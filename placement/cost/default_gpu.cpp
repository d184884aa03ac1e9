// SPDX-License-Identifier: MIT
#include "placement/cost/default_gpu.h"

#include "placement/cost/device_table.h"

namespace placescope {

std::string defaultGpuKey(const std::string& tracePath)
{
    if (tracePath.empty())
        return kDefaultGpuKey;
    auto table = DeviceTable::builtin();
    if (table.isOk() && gpuSpecFromTrace(tracePath, table.value(), nullptr).isOk())
        return "from-trace";
    return kDefaultGpuKey;
}

} // namespace placescope
