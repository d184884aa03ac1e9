// SPDX-License-Identifier: MIT
// Whether a run measured after a change can judge a prediction made from the run before: the same GPUs and mostly
// the same kernels (a prediction for an A100 says nothing of a run on a V100, and a run whose kernels are mostly
// others ran other work or other shapes). `whatif --compare` and `diff` warn with these lines (issue 25).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace placescope {

// Below this share of the run before's kernel names found in the run after, the runs are not comparable.
inline constexpr double kMinSharedKernelNames = 0.5;

// Names are sorted and unique. nullopt: comparable (or a side names nothing).
std::optional<std::string> gpuMismatch(const std::vector<std::string>& before, const std::vector<std::string>& after);
std::optional<std::string> kernelSetMismatch(
    const std::vector<std::string>& before, const std::vector<std::string>& after);

} // namespace placescope
