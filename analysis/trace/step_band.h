// SPDX-License-Identifier: MIT
// The band every prediction carries: how much this run's own steps vary from one to the next. A prediction
// cannot be surer than the run it was made from, so "predicted 118 ms" reads "predicted 118 ms, steps of this run
// vary +-6 %", and a run measured after the change is judged against that band (issue 25).
//
// Statistic: the coefficient of variation (sample standard deviation / mean) of the steady-state step times, the
// steps after the first when there are three or more (the first holds warm-up: allocator growth, autotuning,
// lazy module loading), else every step. Unknown with fewer than two such steps. docs/design.md says the same. The
// replay (whatif) puts it on every prediction; diff judges a measured run against a prediction file's band.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace placescope {

struct StepBand
{
    int64_t steadySteps = 0; // the steps the spread is measured over
    double spread = -1.0; // coefficient of variation; < 0: unknown

    bool known() const { return spread >= 0.0; }
    int64_t lowNs(int64_t predictedNs) const;
    int64_t highNs(int64_t predictedNs) const;
    bool contains(int64_t predictedNs, int64_t measuredNs) const;
};

// From the measured step times, in step order.
StepBand stepBandOf(const std::vector<int64_t>& stepNs);

// A run measured after the change, against the prediction: inside the prediction's band; else within the two runs'
// variation added together (the after run's own steps vary too, and two runs of one program differ by more than one
// run's steps do: docs/whatif_accuracy.md); else outside both. Unknown without the prediction's band.
enum class BandVerdict
{
    Unknown,
    Inside,
    WithinBothRuns,
    Outside
};
BandVerdict judgeMeasured(
    const StepBand& predictedBand, int64_t predictedNs, const StepBand& measuredBand, int64_t measuredNs);
// "inside the prediction's band", "outside the prediction's band, within ...": one wording for whatif and diff.
std::string bandVerdictText(BandVerdict verdict, const StepBand& measuredBand);

} // namespace placescope
