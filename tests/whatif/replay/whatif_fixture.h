// SPDX-License-Identifier: MIT
// Runs a what-if on a committed trace file (written with TraceBuilder or imported), as the CLI does.
#pragma once

#include "analysis/trace/step_detector.h"
#include "profiler/store/trace_file.h"
#include "whatif/whatif.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace placescope::testing {

// One complete ("X") event of a Kineto JSON trace with its trailing ",\n", for a test that writes a trace and goes
// through the real importer; `args` is the inside of the event's "args" object.
inline std::string kinetoEvent(
    const char* cat, const std::string& name, int pid, int tid, int64_t ts, int64_t dur, const std::string& args)
{
    return R"({"ph": "X", "cat": ")" + std::string(cat) + R"(", "name": ")" + name + R"(", "pid": )"
        + std::to_string(pid) + R"(, "tid": )" + std::to_string(tid) + R"(, "ts": )" + std::to_string(ts)
        + R"(, "dur": )" + std::to_string(dur) + R"(, "args": {)" + args + "}},\n";
}
inline std::string kinetoCorrelation(int64_t id) { return R"("correlation": )" + std::to_string(id); }

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

// The CLI's way: TraceData with the parts a replay needs, the graph's events read straight from the store.
inline WhatIfRun runEditsFromStore(const std::string& path, const std::vector<std::string>& editTexts)
{
    WhatIfRun run;
    auto db = openTrace(path);
    EXPECT_TRUE(db.isOk()) << db.status().message();
    if (!db.isOk())
        return run;
    WhatIfOptions options;
    for (const std::string& text : editTexts)
        options.edits.push_back(parseEdit(text).value());
    StepSet steps;
    auto trace = loadForWhatIf(*db, options.edits, &steps);
    EXPECT_TRUE(trace.isOk()) << trace.status().message();
    if (!trace.isOk())
        return run;
    run.trace = std::move(trace.value());
    auto result = runWhatIf(*db, run.trace, steps, options);
    EXPECT_TRUE(result.isOk()) << result.status().message();
    if (result.isOk())
        run.result = std::move(result.value());
    return run;
}

} // namespace placescope::testing
