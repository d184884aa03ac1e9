// SPDX-License-Identifier: MIT
// analyzeMeasuredRun: the one findings analysis every front end shows (`placescope analyze`, its HTML/JSON
// report, the GUI's findings pane). It wires the seams the analysis layer leaves open: the what-if replay as the
// SavingSimulator (findings whose fix is an edit get the replay's saving and are ranked by it) and, with a model,
// the placement engine as the PlacementEstimator. Calling this, not analyzeTrace(), is what keeps the figures,
// their wording and their order equal wherever they are shown.
#pragma once

#include "analysis/findings/analyzer.h"

#include <string>

namespace placescope {

struct RunAnalysisRequest
{
    std::string modelPath; // ONNX model of the run, for the placement engine's estimates; empty: none
    bool simulate = true; // false only where a caller must skip the replay (it is what the CLI and GUI show)
};

// `trace` is `db` already loaded (the callers read it for more than the findings).
Result<AnalysisReport> analyzeMeasuredRun(SqliteDb& db, const TraceData& trace, const RunAnalysisRequest& request);

} // namespace placescope
