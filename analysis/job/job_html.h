// SPDX-License-Identifier: MIT
// `placescope job analyze`'s page: the verdict, a ranks x steps heatmap of step time with each step's culprit
// marked, and every job report's table; one self-contained HTML file (no script, no external file).
#pragma once

#include "analysis/job/job_reduce.h"

#include <string>
#include <vector>

namespace placescope {

std::string jobHtml(const JobReduction& job, const std::vector<std::string>& failedInputs, const std::string& title);
// The text `job analyze` prints without -o: the verdict and the steps and stragglers tables.
std::string jobText(const JobReduction& job, const std::vector<std::string>& failedInputs);

} // namespace placescope
