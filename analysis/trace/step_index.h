// SPDX-License-Identifier: MIT
// StepIndex: the steps of one run (detectSteps' windows) numbered by position, so two runs' steps can be paired
// (ProfilerStep#5 of one run and #12 of the other are both "the first step"), and a lookup from an event's time to
// the step it belongs to. A multi-rank trace has one window per process per step; they share a position.
// Immutable after construction; safe to read from several threads.
#pragma once

#include "analysis/trace/step_detector.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace placescope {

class StepIndex
{
public:
    static constexpr int kOutside = -1;

    explicit StepIndex(const StepSet& steps);

    size_t count() const { return m_numbers.size(); }
    // Recorded and annotation steps are host ranges: GPU work belongs to the step its launch ran in. Steps found
    // from a repeating kernel pattern (or the whole trace) are GPU time: GPU work belongs where it ran.
    bool hostTime() const { return m_hostTime; }
    int64_t number(size_t position) const { return m_numbers[position]; }
    // The step's time by the one step rule (StepSet::times), the mean over processes when each has its own window.
    int64_t durationNs(size_t position) const { return m_durationNs[position]; }
    // When the step began: the earliest of its windows (the GUI's compare view aligns two runs on it).
    int64_t startNs(size_t position) const { return m_startNs[position]; }
    // Position of the step whose window (of process `globalPid`, or of all processes) holds `timeNs`; kOutside if none.
    int find(int64_t globalPid, int64_t timeNs) const;
    // True when `timeNs` is after the end of the process's last step (the work HTA's per-step view drops).
    bool afterLast(int64_t globalPid, int64_t timeNs) const;

private:
    struct Window
    {
        int64_t startNs, endNs;
        int position;
    };
    const std::vector<Window>* windowsOf(int64_t globalPid) const;
    static int64_t pidKey(int64_t globalPidOrTid)
    {
        return globalPidOrTid < 0 ? -1 : globalPidOrTid / 0x1000000 % 0x1000000;
    }

    bool m_hostTime = false;
    std::vector<int64_t> m_numbers;
    std::vector<int64_t> m_durationNs;
    std::vector<int64_t> m_startNs;
    std::unordered_map<int64_t, std::vector<Window>> m_windows; // by pid (-1: windows for every process), by start
};

} // namespace placescope
