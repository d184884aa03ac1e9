// SPDX-License-Identifier: MIT
// `placescope job report`'s tables, one per name, as ReportTable rows (text, CSV or JSON through the one renderer the
// per-trace reports use), and the job's one-paragraph verdict that `job analyze` and the GUI show.
#pragma once

#include "analysis/job/job_reduce.h"
#include "analysis/reports/report_table.h"

#include <optional>
#include <string>
#include <vector>

namespace placescope {

struct JobReportInfo
{
    std::string name;
    std::string description;
};

const std::vector<JobReportInfo>& jobReports();
std::string jobReportNames(); // "stragglers, steps, ..."

// The table `name` names; none for an unknown name. `failedInputs` ("file: why") become notes, as do the missing ranks.
std::optional<ReportTable> jobReportTable(
    const JobReduction& job, const std::string& name, const std::vector<std::string>& failedInputs = {});

// "Rank 5 arrived last and waited least in 20 of 20 steps, holding the others back by 2.50 ms ...": the straggler
// finding with its evidence, or that no rank held the others back.
std::string jobVerdict(const JobReduction& job);

} // namespace placescope
