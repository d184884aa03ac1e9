// SPDX-License-Identifier: MIT
// The Dask engine on a LocalCluster of two single-threaded processes (what the CI machine's 2 cores hold) against the
// local engine on the same synthetic job: every report, in CSV, byte for byte. Waits on the processes' exits only; the
// CTest timeout is generous because Dask takes seconds to start on a loaded machine.
#include "tests/support/cli_run.h"
#include "tests/support/job/synthetic_job.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace placescope::testing {
namespace {

namespace fs = std::filesystem;

TEST(JobDask, LocalAndDaskEnginesGiveIdenticalReports)
{
    const fs::path dir = fs::temp_directory_path() / ("ps_job_dask_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "logs");
    SyntheticJobSpec spec;
    spec.ranks = 8;
    spec.steps = 3;
    spec.ranksPerHost = 4;
    spec.stragglerRank = 6;
    spec.stragglerDelayNs = 900'000;
    spec.hostClockOffsetNs = 3'000'000;
    std::vector<std::string> inputs = writeSyntheticJob(spec, (dir / "in").string());
    const std::string bad = (dir / "in" / "worker-bad.json").string();
    std::ofstream(bad) << "not json at all";
    inputs.push_back(bad);

    auto import = [&](const std::string& job, const std::vector<std::string>& engine) {
        std::vector<std::string> args { "job", "import" };
        args.insert(args.end(), inputs.begin(), inputs.end());
        args.insert(args.end(), { "-o", (dir / job).string() });
        args.insert(args.end(), engine.begin(), engine.end());
        return runPlacescope(args, dir / "logs");
    };
    const CliRun local = import("local", { "-j", "2" });
    ASSERT_EQ(local.exitCode, 0) << local.err;
    const CliRun dask = import("dask", { "--dask-local", "2" });
    ASSERT_EQ(dask.exitCode, 0) << dask.err;
    EXPECT_NE(dask.err.find(bad + " failed twice"), std::string::npos) << dask.err;

    for (const char* name : { "stragglers", "steps", "breakdown", "pacing", "collectives", "kernels", "clocks" }) {
        const CliRun a
            = runPlacescope({ "job", "report", (dir / "local").string(), name, "--format", "csv" }, dir / "logs");
        const CliRun b
            = runPlacescope({ "job", "report", (dir / "dask").string(), name, "--format", "csv" }, dir / "logs");
        ASSERT_EQ(a.exitCode, 0) << a.err;
        ASSERT_EQ(b.exitCode, 0) << b.err;
        EXPECT_EQ(a.out, b.out) << name;
        EXPECT_EQ(a.err, b.err) << name << ": the notes (failed input, verdict) too";
    }
    const CliRun steps
        = runPlacescope({ "job", "report", (dir / "dask").string(), "steps", "--format", "csv" }, dir / "logs");
    EXPECT_NE(steps.out.find(",6,"), std::string::npos) << "the straggler, rank 6: " << steps.out;
    fs::remove_all(dir);
}

} // namespace
} // namespace placescope::testing
