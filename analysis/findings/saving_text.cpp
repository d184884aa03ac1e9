// SPDX-License-Identifier: MIT
#include "analysis/findings/saving_text.h"

#include "analysis/findings/finding_rule.h"
#include "profiler/base/units.h"

namespace placescope {

std::string estimatedSavingText(const Saving& saving)
{
    const double ns = saving.perStepMs * 1e6;
    std::string words;
    if (ns >= 0.5)
        words = formatNanoseconds(ns) + " per step (" + formatPercent(saving.percentOfStep) + " of the step)";
    if (saving.memoryBytes > 0)
        words += (words.empty() ? "" : " and ") + formatBytes(saving.memoryBytes) + " of device memory";
    if (words.empty())
        return "no saving estimated";
    return saving.upperBound ? "up to " + words : words;
}

std::string simulatedSavingText(const Saving& saving)
{
    if (!saving.simulated)
        return {};
    const std::string how = " (replay with whatif --edit '" + saving.simulatedEdit + "')";
    // Below half a microsecond per step the replay found nothing to save (its own resolution).
    const std::string why = saving.simulatedWhy.empty() ? "" : "; " + saving.simulatedWhy;
    if (saving.simulatedMs < 0.0005)
        return "simulated: no saving" + how + why;
    std::string text = "simulated " + formatNanoseconds(saving.simulatedMs * 1e6) + " per step" + how;
    if (saving.simulatedStepSpread >= 0)
        text += ", steps of this run vary +-" + formatPercent(100.0 * saving.simulatedStepSpread);
    if (saving.simulatedAboveBound())
        text += "; more than the estimate's bound because the edit also changes work the estimate does not count "
                "(the replay moves everything the edit touches: host waits, queued work, other streams); ranked "
                "by the bound";
    return text + why;
}

std::string savingText(const Saving& saving)
{
    const std::string simulated = simulatedSavingText(saving);
    return simulated.empty() ? estimatedSavingText(saving) : estimatedSavingText(saving) + "; " + simulated;
}

std::string savingFigureText(const Saving& saving)
{
    if (!saving.simulated || saving.simulatedAboveBound()) // ranked by the estimate (Saving::rankingMs)
        return estimatedSavingText(saving);
    const std::string simulated = simulatedSavingText(saving);
    return simulated.substr(0, simulated.find(" (replay"));
}

} // namespace placescope
