// SPDX-License-Identifier: MIT
#include "profiler/store/trace_file.h"
#include "ui/core/trace_loader.h"

#include <gtest/gtest.h>

using namespace placescope;
using namespace placescope::ui;

namespace {

// The trace loader reads Placescope traces; the nsys export is imported by the GUI's open job (tests/ui/widgets).
// Here: a trace written by the TraceWriter-free path is not needed; a missing or non-trace file is an error.

} // namespace

TEST(TraceLoader, MissingFileIsAnError)
{
    auto loaded = loadTrace("/nonexistent/trace.sqlite");
    ASSERT_FALSE(loaded.isOk());
    EXPECT_FALSE(loaded.status().message().empty());
}

TEST(TraceLoader, NotATraceIsAnError)
{
    auto loaded = loadTrace(std::string(PLACESCOPE_DATA_DIR) + "/traces/SOURCES.md");
    EXPECT_FALSE(loaded.isOk());
}

TEST(TraceLoader, CancelStopsTheLoad)
{
    CancelToken cancel;
    cancel.cancel();
    auto loaded = loadTrace(
        std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite", {}, &cancel);
    EXPECT_FALSE(loaded.isOk());
}
