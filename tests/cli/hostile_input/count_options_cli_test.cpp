// SPDX-License-Identifier: MIT
// A count or index option given a negative or non-whole value (--top -5, --step -1, --step x) is a usage error whose
// one line says what is wanted; it said "Value -5 not in range 0.000000 to 1797693134862315708..." (309 digits).
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace placescope::testing {
namespace {

TEST(CountOptionsCli, ANegativeOrNonWholeCountSaysWhatIsWanted)
{
    TempDir dir("count_options");
    const std::string trace = dir.file("run.sqlite"); // never opened: the options are refused first
    const std::vector<std::vector<std::string>> cases
        = { { "stats", trace, "--top", "-5" }, { "diff", trace, trace, "--top", "-1" },
              { "diff", trace, trace, "--step", "1.5" }, { "critical-path", trace, "--step", "-1" },
              { "critical-path", trace, "--step", "x" }, { "report", "idle", trace, "--step", "-3" } };
    for (const auto& args : cases) {
        const CliRun r = runPlacescope(args, dir.path());
        const std::string value = args.back();
        expectOneLineError(r, 2, "'" + value + "' is not a whole number of 0 or more");
        EXPECT_EQ(r.err.find("179769313486"), std::string::npos) << r.err;
    }
}

} // namespace
} // namespace placescope::testing
