// SPDX-License-Identifier: MIT
// Runs a what-if on a committed trace file (written with TraceBuilder or imported), as the CLI does.
#pragma once

#include "placement/findings/step_detector.h"
#include "placement/whatif/whatif.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace placescope::testing {

struct WhatIfRun
{
    TraceData trace;
    WhatIfResult result;
};

inline WhatIfRun runEdits(const std::string& path, const std::vector<std::string>& editTexts, int64_t step = -1)
{
    WhatIfRun run;
    auto db = openTrace(path);
    EXPECT_TRUE(db.isOk()) << db.status().message();
    if (!db.isOk())
        return run;
    auto trace = TraceData::load(*db);
    EXPECT_TRUE(trace.isOk()) << trace.status().message();
    run.trace = std::move(trace.value());
    WhatIfOptions options;
    options.criticalPathStep = step;
    for (const std::string& text : editTexts) {
        auto edit = parseEdit(text);
        EXPECT_TRUE(edit.isOk()) << edit.status().message();
        if (edit.isOk())
            options.edits.push_back(std::move(edit.value()));
    }
    auto result = runWhatIf(run.trace, detectSteps(run.trace), options);
    EXPECT_TRUE(result.isOk()) << result.status().message();
    if (result.isOk())
        run.result = std::move(result.value());
    return run;
}

} // namespace placescope::testing
