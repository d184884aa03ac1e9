// SPDX-License-Identifier: MIT
// The one accuracy limit of the what-if replay: a prediction is trusted only when the unedited replay gives the
// measured step back within it. analyze simulates no finding past it, whatif says so beside its figures, and the
// GUI's what-if panel marks the replay. One constant, so the three never disagree (issue 25).
#pragma once

#include <cmath>

namespace placescope {

inline constexpr double kReplayAccuracyLimit = 0.05; // |replayed step - measured step| / measured step

inline bool replayWithinLimit(double replayStepError) { return std::abs(replayStepError) <= kReplayAccuracyLimit; }

} // namespace placescope
