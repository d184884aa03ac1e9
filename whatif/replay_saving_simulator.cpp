// SPDX-License-Identifier: MIT
#include "whatif/replay_saving_simulator.h"

#include "analysis/findings/finding_rule.h"
#include "whatif/replay_accuracy.h"
#include "whatif/whatif.h"

#include <cmath>
#include <map>

namespace placescope {

std::vector<std::string> editsForRule(const std::string& ruleId)
{
    // Each edit is what the finding's fix does to the run; the regexes are the rules' own kernel classes. The
    // input-bound fix names DataLoader(num_workers=N): 4 workers, as PyTorch's own samples use.
    static const std::map<std::string, std::vector<std::string>> kEdits = {
        { "copies.pageable", { "pinned" } },
        { "copies.synchronous", { "no-sync:Memcpy|Memset" } },
        { "gpu_idle.sync_wait", { "no-sync" } },
        { "gpu_idle.input_bound", { "workers=4", "input=x0" } },
        { "gpu_idle.host_bound", { "launch=x0.1" } },
        { "launch_bound", { "launch=x0.1" } },
        { "layout.conversions", { "drop:nchwToNhwc|nhwcToNchw|nchw2nhwc|nhwc2nchw" } },
        { "tensor_cores", { "kernels:sgemm|scudnn|f32f32_f32f32|simt|implicit_convolve_sgemm|winograd=x0.5" } },
        { "multi_rank.comm_overlap", { "overlap-comm" } },
    };
    auto it = kEdits.find(ruleId);
    return it == kEdits.end() ? std::vector<std::string> {} : it->second;
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
        const std::vector<std::string> candidates = finding.saving.proposedEdit.empty()
            ? editsForRule(finding.ruleId)
            : std::vector<std::string> { finding.saving.proposedEdit };
        std::optional<std::string> editText;
        std::optional<WhatIfEdit> edit;
        std::optional<WhatIfResult> predicted;
        for (const std::string& candidate : candidates) {
            auto parsed = parseEdit(candidate);
            if (!parsed.isOk())
                continue;
            WhatIfOptions alone;
            alone.edits.push_back(parsed.value());
            auto result = model->predict(alone);
            if (!result.isOk() || result->edits.empty() || result->edits.front().matched == 0)
                continue;
            editText = candidate;
            edit = std::move(parsed.value());
            predicted = std::move(result.value());
            break;
        }
        if (!predicted)
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
            together.edits.push_back(std::move(*edit));
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
