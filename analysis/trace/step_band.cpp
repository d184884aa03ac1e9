// SPDX-License-Identifier: MIT
#include "analysis/trace/step_band.h"

#include "profiler/base/units.h" // formatPercent

#include <cmath>
#include <numeric>

namespace placescope {

int64_t StepBand::lowNs(int64_t predictedNs) const
{
    return known() ? std::llround(static_cast<double>(predictedNs) * (1.0 - spread)) : predictedNs;
}

int64_t StepBand::highNs(int64_t predictedNs) const
{
    return known() ? std::llround(static_cast<double>(predictedNs) * (1.0 + spread)) : predictedNs;
}

bool StepBand::contains(int64_t predictedNs, int64_t measuredNs) const
{
    return known() && measuredNs >= lowNs(predictedNs) && measuredNs <= highNs(predictedNs);
}

BandVerdict judgeMeasured(
    const StepBand& predictedBand, int64_t predictedNs, const StepBand& measuredBand, int64_t measuredNs)
{
    if (!predictedBand.known())
        return BandVerdict::Unknown;
    if (predictedBand.contains(predictedNs, measuredNs))
        return BandVerdict::Inside;
    if (!measuredBand.known())
        return BandVerdict::Outside;
    const double apart = std::fabs(static_cast<double>(predictedNs - measuredNs));
    const double both = predictedBand.spread * static_cast<double>(predictedNs)
        + measuredBand.spread * static_cast<double>(measuredNs);
    return apart <= both ? BandVerdict::WithinBothRuns : BandVerdict::Outside;
}

std::string bandVerdictText(BandVerdict verdict, const StepBand& measuredBand)
{
    const std::string after = measuredBand.known()
        ? " (the run after varies +-" + formatPercent(100.0 * measuredBand.spread) + " step to step)"
        : std::string();
    switch (verdict) {
    case BandVerdict::Unknown:
        return "no band to judge it by";
    case BandVerdict::Inside:
        return "inside the prediction's band";
    case BandVerdict::WithinBothRuns:
        return "outside the prediction's band, within the two runs' step-to-step variation added together" + after;
    case BandVerdict::Outside:
        break;
    }
    return measuredBand.known()
        ? "outside the prediction's band and the two runs' step-to-step variation added together" + after
        : std::string("outside the prediction's band");
}

StepBand stepBandOf(const std::vector<int64_t>& stepNs)
{
    StepBand band;
    const size_t first = stepNs.size() >= 3 ? 1 : 0; // the first step warms up
    const size_t n = stepNs.size() - first;
    band.steadySteps = static_cast<int64_t>(n);
    if (n < 2)
        return band;
    const double mean = std::accumulate(stepNs.begin() + static_cast<std::ptrdiff_t>(first), stepNs.end(), 0.0)
        / static_cast<double>(n);
    if (mean <= 0)
        return band;
    double squares = 0;
    for (size_t i = first; i < stepNs.size(); ++i)
        squares += (static_cast<double>(stepNs[i]) - mean) * (static_cast<double>(stepNs[i]) - mean);
    band.spread = std::sqrt(squares / static_cast<double>(n - 1)) / mean;
    return band;
}

} // namespace placescope
