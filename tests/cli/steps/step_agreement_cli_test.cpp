// SPDX-License-Identifier: MIT
// The same trace through analyze, whatif, critical-path and `report steps`, as a user runs them: one step time
// (analysis/trace/step_times.h), whether the host or the GPU sets it.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace placescope::testing {
namespace {

struct StepFigures
{
    int64_t analyzeNs = 0, whatifNs = 0, criticalPathNs = 0, reportNs = 0;
    std::string analyzeHow, whatifHow;
    int64_t sgemmSavingNs = 0; // whatif --edit 'kernels:sgemm=x0.5'
};

nlohmann::json runJson(const std::vector<std::string>& args)
{
    const CliRun r = runPlacescope(args);
    EXPECT_EQ(r.exitCode, 0) << args[0] << ": " << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
}

StepFigures figuresOf(const std::string& dataFile)
{
    TempDir dir("step_agreement");
    const std::string trace = dir.file("run.sqlite");
    const CliRun imported
        = runPlacescope({ "import", std::string(PLACESCOPE_DATA_DIR) + "/traces/" + dataFile, "-o", trace, "-q" });
    EXPECT_EQ(imported.exitCode, 0) << imported.err;
    StepFigures f;
    const nlohmann::json analysis = runJson({ "analyze", trace, "--json" });
    f.analyzeNs = std::llround(analysis["steps"]["mean_ms"].get<double>() * 1e6);
    f.analyzeHow = analysis["steps"]["step_time"].get<std::string>();
    const nlohmann::json whatif = runJson({ "whatif", trace, "--json", "--edit", "kernels:sgemm=x0.5" });
    f.whatifNs = whatif["measured_step_ns"].get<int64_t>();
    f.whatifHow = whatif["measured_step_set_by"].get<std::string>();
    f.sgemmSavingNs = whatif["saving_step_ns"].get<int64_t>();
    f.criticalPathNs = runJson({ "critical-path", trace, "--json" })["measured_step_ns"].get<int64_t>();
    // `report steps`: one row per step and device; these traces have one device.
    const nlohmann::json rows = runJson({ "report", "steps", trace, "--format", "json" });
    int64_t total = 0;
    for (const auto& row : rows)
        total += row["step_ns"].get<int64_t>();
    f.reportNs = rows.empty() ? 0 : total / static_cast<int64_t>(rows.size());
    return f;
}

// ResNet-50 training on a V100 (Kineto, 6 ProfilerSteps): the GPU's work outlasts every step's host range.
TEST(StepAgreementCli, GpuSetStepsAgreeAndAGpuEditSaves)
{
    const StepFigures f = figuresOf("kineto_resnet50_v100_legacy2021.pt.trace.json.gz");
    EXPECT_GT(f.analyzeNs, 0);
    EXPECT_EQ(f.whatifNs, f.analyzeNs);
    EXPECT_EQ(f.criticalPathNs, f.analyzeNs);
    EXPECT_NEAR(static_cast<double>(f.reportNs), static_cast<double>(f.analyzeNs), 1.0); // integer mean of the rows
    EXPECT_EQ(f.analyzeHow, "set by the GPU");
    EXPECT_EQ(f.whatifHow, "set by the GPU");
    EXPECT_GT(f.sgemmSavingNs, 0); // the GPU sets the step: a faster GEMM is a shorter step
}

// The V100 sample of ../shared/traces (5 ProfilerSteps, rank 1 of 2): the host's ranges outlast the GPU work.
TEST(StepAgreementCli, HostSetStepsAgree)
{
    const StepFigures f = figuresOf("hta_v100_rank1of2_memory.json.gz");
    EXPECT_GT(f.analyzeNs, 0);
    EXPECT_EQ(f.whatifNs, f.analyzeNs);
    EXPECT_EQ(f.criticalPathNs, f.analyzeNs);
    EXPECT_NEAR(static_cast<double>(f.reportNs), static_cast<double>(f.analyzeNs), 1.0);
    EXPECT_EQ(f.analyzeHow, "set by the host");
    EXPECT_EQ(f.sgemmSavingNs, 0); // host-bound: a faster GEMM leaves the step as it is
}

} // namespace
} // namespace placescope::testing
