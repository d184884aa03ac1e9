// SPDX-License-Identifier: MIT
// The import summary counts every event it added, whatever the background writer has written by then: the same
// export gives the same count on every run (it printed 35, 4154, 6013 ... for one file before).
#include "profiler/importers/importer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <unistd.h>

namespace placescope {
namespace {

TEST(ImportSummary, TheSameExportGivesTheSameEventCountOnEveryRun)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ps_import_summary_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::set<uint64_t> counts;
    for (int run = 0; run < 6; ++run) {
        const std::string output = (dir / ("run" + std::to_string(run) + ".sqlite")).string();
        auto summary
            = importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite" },
                output, ImportOptions {});
        ASSERT_TRUE(summary.isOk()) << summary.status().message();
        counts.insert(summary->events);
    }
    std::filesystem::remove_all(dir);
    ASSERT_EQ(counts.size(), 1u);
    // 1312 kernels, 279 copies, 3048 API calls and 1312 syncs at least: the count is of the whole file, not a part.
    EXPECT_GE(*counts.begin(), 1312u + 279u + 3048u + 1312u);
}

} // namespace
} // namespace placescope
