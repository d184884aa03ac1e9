// SPDX-License-Identifier: MIT
#include "whatif/replay_saving_simulator.h"

#include "analysis/findings/finding_rule.h"
#include "whatif/replay_accuracy.h"
#include "whatif/whatif.h"

#include <cmath>
#include <map>

namespace placescope {

std::optional<std::string> editForRule(const std::string& ruleId)
{
    // Each edit is what the finding's fix does to the run; the regexes are the rules' own kernel classes.
    static const std::map<std::string, std::string> kEdits = {
        { "copies.pageable", "pinned" },
        { "copies.synchronous", "no-sync:Memcpy|Memset" },
        { "gpu_idle.sync_wait", "no-sync" },
        { "gpu_idle.input_bound", "input=x0" },
        { "gpu_idle.host_bound", "launch=x0.1" },
        { "launch_bound", "launch=x0.1" },
        { "layout.conversions", "drop:nchwToNhwc|nhwcToNchw|nchw2nhwc|nhwc2nchw" },
        { "tensor_cores", "kernels:sgemm|scudnn|f32f32_f32f32|simt|implicit_convolve_sgemm|winograd=x0.5" },
        { "multi_rank.comm_overlap", "overlap-comm" },
    };
    auto it = kEdits.find(ruleId);
    if (it == kEdits.end())
        return std::nullopt;
    return it->second;
}

std::optional<AllFixesPrediction> ReplaySavingSimulator::simulate(
    const TraceData& trace, const StepSet& steps, std::vector<Finding>& findings) const
{
    auto model = WhatIfModel::build(trace, steps);
    if (!model.isOk() || model->measured().stepNs <= 0)
        return std::nullopt;
    const double error = WhatIfResult::relativeError(model->replayed().stepNs, model->measured().stepNs);
    if (!replayWithinLimit(error))
        return std::nullopt; // a replay that does not reproduce the run predicts nothing worth showing

    AllFixesPrediction all;
    all.measuredStepNs = model->measured().stepNs;
    all.replayStepNs = model->replayed().stepNs;
    WhatIfOptions together;
    for (Finding& finding : findings) {
        const auto editText = finding.saving.proposedEdit.empty() ? editForRule(finding.ruleId)
                                                                  : std::optional(finding.saving.proposedEdit);
        if (!editText)
            continue;
        auto edit = parseEdit(*editText);
        if (!edit.isOk())
            continue;
        WhatIfOptions alone;
        alone.edits.push_back(edit.value());
        auto predicted = model->predict(alone);
        if (!predicted.isOk() || predicted->edits.empty() || predicted->edits.front().matched == 0)
            continue;
        finding.saving.simulated = true;
        finding.saving.simulatedMs = static_cast<double>(predicted->replay.stepNs - predicted->predicted.stepNs) / 1e6;
        finding.saving.simulatedEdit = *editText;
        finding.saving.simulatedStepSpread = model->band().spread;
        finding.saving.simulatedWhy = hostSetStepText(*predicted);
        bool seen = false;
        for (const std::string& e : all.edits)
            seen = seen || e == *editText;
        if (!seen) {
            all.edits.push_back(*editText);
            together.edits.push_back(std::move(edit.value()));
        }
    }
    if (together.edits.empty())
        return std::nullopt;
    auto combined = model->predict(together);
    if (!combined.isOk())
        return std::nullopt;
    all.predictedStepNs = combined->predicted.stepNs;
    return all;
}

} // namespace placescope
