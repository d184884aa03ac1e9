// SPDX-License-Identifier: MIT
#include "whatif/run_analysis.h"

#include "placement/proposal/engine_estimator.h"
#include "whatif/replay_saving_simulator.h"

namespace placescope {

Result<AnalysisReport> analyzeMeasuredRun(SqliteDb& db, const TraceData& trace, const RunAnalysisRequest& request)
{
    AnalysisOptions options;
    options.modelPath = request.modelPath;
    const ReplaySavingSimulator simulator;
    if (request.simulate)
        options.simulator = &simulator;
    const EnginePlacementEstimator estimator;
    return analyzeTrace(db, trace, options, request.modelPath.empty() ? nullptr : &estimator);
}

} // namespace placescope
