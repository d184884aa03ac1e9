// SPDX-License-Identifier: MIT
#include "analysis/trace/run_comparability.h"

#include <algorithm>
#include <iterator>

namespace placescope {

namespace {

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

} // namespace

std::optional<std::string> gpuMismatch(const std::vector<std::string>& before, const std::vector<std::string>& after)
{
    if (before.empty() || after.empty() || before == after)
        return std::nullopt;
    return "different GPUs (" + joined(before) + " before, " + joined(after)
        + " after): the prediction was made for the GPUs of the run before";
}

std::optional<std::string> kernelSetMismatch(
    const std::vector<std::string>& before, const std::vector<std::string>& after)
{
    if (before.empty() || after.empty())
        return std::nullopt;
    std::vector<std::string> shared;
    std::set_intersection(before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(shared));
    if (static_cast<double>(shared.size()) >= kMinSharedKernelNames * static_cast<double>(before.size()))
        return std::nullopt;
    return "different kernel sets: " + std::to_string(shared.size()) + " of the " + std::to_string(before.size())
        + " kernel names of the run before are in the run after (other batch shapes, other work, or an edit that "
          "changes kernels such as autocast)";
}

} // namespace placescope
