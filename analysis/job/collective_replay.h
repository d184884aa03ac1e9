// SPDX-License-Identifier: MIT
// "What if the straggler were as fast as the median rank": a replay of the job's collectives. Each rank is a chain
// of collectives per step; between two of them (and from its step's start to the first) it does its own work, the
// gap. A collective instance ends on every rank when its last member has arrived plus its transfer time (the
// shortest duration across ranks: the last to arrive waits for nobody), and each member's next arrival is that end
// plus its next gap. Replayed as measured this gives every measured arrival back; with the straggler's gaps cut to
// the median rank's gap before the same collective, every rank's wait shrinks and the step's last collective ends
// sooner. The model's one assumption (a collective ends at one moment on every rank, after the clock correction) is
// checked against the ranks' own ends and the largest disagreement is reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace placescope {

struct JobReduction;

// One rank's arrival at one collective instance.
struct CollectiveArrival
{
    int32_t rankIndex = 0; // into JobReduction::ranks
    int32_t previous = -1; // the instance the rank did before it in the same step; -1: the first of its step
    int32_t stepIndex = -1; // into JobReduction::steps, the step this arrival is in on this rank
    int64_t gapNs = 0; // from that instance's end (or the rank's step start) to this arrival, on the job's clock
};

// Per collective instance (JobReduction::collectives' order), its members' arrivals; filled by reduceJob.
struct CollectiveChains
{
    std::vector<std::vector<CollectiveArrival>> arrivalsOf;
    int64_t maxEndDisagreementNs = 0; // the largest |a rank's own end of an instance - the instance's end|
};

struct StragglerReplay
{
    int64_t rank = -1; // the rank made as fast as the median; -1: no straggler to replay
    // Per step of JobReduction::steps; -1 where the step has no collective.
    std::vector<int64_t> measuredEndNs; // the step's last collective's end: its last arrival plus its transfer
    std::vector<int64_t> replayedEndNs; // the replay as measured: gives measuredEndNs back, the check that it holds
    std::vector<int64_t> editedEndNs; // with the straggler's gaps at most the median rank's
    int64_t stepsReplayed = 0;
    int64_t meanSavingNs = 0; // over the steps replayed
    int64_t maxReplayErrorNs = 0; // max |replayed - measured| over the steps replayed
    int64_t maxEndDisagreementNs = 0; // copied from the chains

    int64_t savingNs(size_t step) const
    {
        return replayedEndNs[step] < 0 ? -1 : replayedEndNs[step] - editedEndNs[step];
    }
};

// The rank the job's verdict names: the culprit of the most steps (ties: the lowest rank), -1 when no rank held
// the others back.
int64_t jobStragglerRank(const JobReduction& job);

// Replays the collectives as measured and with `rank`'s gaps cut to the median gap before each collective. Each
// rank's step starts where it was measured (JobCell::startNs): the saving is how much sooner the step's collectives
// are done, the time every rank gains in that step.
StragglerReplay replayStragglerAsMedian(const JobReduction& job, const CollectiveChains& chains, int64_t rank);

} // namespace placescope
