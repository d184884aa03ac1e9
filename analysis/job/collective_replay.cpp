// SPDX-License-Identifier: MIT
#include "analysis/job/collective_replay.h"

#include "analysis/job/job_reduce.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>

namespace placescope {
namespace {

int64_t lowerMedian(std::vector<int64_t> values)
{
    auto middle = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

// Each instance's end when every rank's gaps are `gapOf`'s: instances in the order they ended (a rank's previous
// collective ended before it arrived at the next, so its end is known by then).
template <typename GapOf>
std::vector<int64_t> replayEnds(
    const JobReduction& job, const CollectiveChains& chains, const std::vector<size_t>& order, GapOf gapOf)
{
    std::vector<int64_t> end(job.collectives.size(), -1);
    for (size_t k : order) {
        const JobCollective& instance = job.collectives[k];
        int64_t lastArrival = INT64_MIN;
        for (const CollectiveArrival& a : chains.arrivalsOf[k]) {
            int64_t anchor = 0;
            if (a.previous >= 0) {
                const auto previous = static_cast<size_t>(a.previous);
                anchor = end[previous] >= 0 ? end[previous] : job.collectives[previous].endNs();
            } else if (a.stepIndex >= 0) {
                anchor = job.cells[static_cast<size_t>(a.rankIndex)][static_cast<size_t>(a.stepIndex)].startNs;
            }
            lastArrival = std::max(lastArrival, anchor + gapOf(k, a));
        }
        if (lastArrival != INT64_MIN)
            end[k] = lastArrival + instance.transferNs;
    }
    return end;
}

} // namespace

int64_t jobStragglerRank(const JobReduction& job)
{
    std::map<int64_t, int64_t> stepsAsCulprit;
    for (const JobStep& step : job.stepSummaries)
        if (step.culpritRank >= 0 && step.heldBackNs > 0)
            ++stepsAsCulprit[step.culpritRank];
    int64_t rank = -1, most = 0;
    for (const auto& [candidate, steps] : stepsAsCulprit) // ascending rank: ties keep the lowest
        if (steps > most) {
            rank = candidate;
            most = steps;
        }
    return rank;
}

StragglerReplay replayStragglerAsMedian(const JobReduction& job, const CollectiveChains& chains, int64_t rank)
{
    StragglerReplay replay;
    replay.rank = rank;
    replay.maxEndDisagreementNs = chains.maxEndDisagreementNs;
    const size_t steps = job.steps.size();
    replay.measuredEndNs.assign(steps, -1);
    replay.replayedEndNs.assign(steps, -1);
    replay.editedEndNs.assign(steps, -1);
    if (rank < 0 || chains.arrivalsOf.size() != job.collectives.size())
        return replay;
    std::map<int64_t, size_t> stepIndexOf;
    for (size_t s = 0; s < steps; ++s)
        stepIndexOf[job.steps[s]] = s;
    std::vector<size_t> order(job.collectives.size());
    std::iota(order.begin(), order.end(), size_t { 0 });
    std::stable_sort(order.begin(), order.end(),
        [&](size_t a, size_t b) { return job.collectives[a].endNs() < job.collectives[b].endNs(); });
    std::vector<int64_t> medianGap(job.collectives.size(), 0);
    for (size_t k = 0; k < job.collectives.size(); ++k) {
        std::vector<int64_t> gaps;
        for (const CollectiveArrival& a : chains.arrivalsOf[k])
            gaps.push_back(a.gapNs);
        if (!gaps.empty())
            medianGap[k] = lowerMedian(std::move(gaps));
    }

    const auto measured = [](size_t, const CollectiveArrival& a) { return a.gapNs; };
    const auto edited = [&](size_t k, const CollectiveArrival& a) {
        // As fast as the median rank, never slower than it was.
        return job.ranks[static_cast<size_t>(a.rankIndex)].rank == rank ? std::min(a.gapNs, medianGap[k]) : a.gapNs;
    };
    const std::vector<int64_t> replayed = replayEnds(job, chains, order, measured);
    const std::vector<int64_t> editedEnd = replayEnds(job, chains, order, edited);
    for (size_t k = 0; k < job.collectives.size(); ++k) {
        const auto step = stepIndexOf.find(job.collectives[k].step);
        if (step == stepIndexOf.end() || replayed[k] < 0)
            continue;
        const size_t s = step->second;
        const JobCollective& instance = job.collectives[k];
        replay.measuredEndNs[s] = std::max(replay.measuredEndNs[s], instance.endNs());
        replay.replayedEndNs[s] = std::max(replay.replayedEndNs[s], replayed[k]);
        replay.editedEndNs[s] = std::max(replay.editedEndNs[s], editedEnd[k]);
    }
    int64_t totalSaving = 0;
    for (size_t s = 0; s < steps; ++s) {
        if (replay.replayedEndNs[s] < 0)
            continue;
        ++replay.stepsReplayed;
        totalSaving += replay.savingNs(s);
        replay.maxReplayErrorNs
            = std::max<int64_t>(replay.maxReplayErrorNs, std::llabs(replay.replayedEndNs[s] - replay.measuredEndNs[s]));
    }
    replay.meanSavingNs = replay.stepsReplayed ? totalSaving / replay.stepsReplayed : 0;
    return replay;
}

} // namespace placescope
