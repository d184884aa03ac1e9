// SPDX-License-Identifier: MIT
#include "analysis/trace/step_index.h"

#include <algorithm>
#include <map>

namespace placescope {

StepIndex::StepIndex(const StepSet& steps)
    : m_hostTime(stepsAreHostRanges(steps.source))
{
    // Positions follow the step numbers in ascending order; every process's window of step N shares one position.
    // A step's time is the one step rule's (StepSet::times, aligned with the windows); a StepSet made by hand
    // without it has its windows' lengths.
    const bool timed = steps.times.steps.size() == steps.steps.size();
    std::map<int64_t, std::vector<const StepWindow*>> byNumber;
    for (const StepWindow& w : steps.steps)
        byNumber[w.stepNumber].push_back(&w);
    for (const auto& [number, windows] : byNumber) {
        const int position = static_cast<int>(m_numbers.size());
        m_numbers.push_back(number);
        int64_t total = 0;
        int64_t start = windows.front()->startNs;
        for (const StepWindow* w : windows) {
            const size_t index = static_cast<size_t>(w - steps.steps.data());
            total += timed ? steps.times.steps[index].durationNs : w->endNs - w->startNs;
            start = std::min(start, w->startNs);
            m_windows[pidKey(w->globalPid)].push_back({ w->startNs, w->endNs, position });
        }
        m_durationNs.push_back(total / static_cast<int64_t>(windows.size()));
        m_startNs.push_back(start);
    }
    for (auto& [pid, windows] : m_windows)
        std::sort(
            windows.begin(), windows.end(), [](const Window& a, const Window& b) { return a.startNs < b.startNs; });
}

const std::vector<StepIndex::Window>* StepIndex::windowsOf(int64_t globalPid) const
{
    auto it = m_windows.find(pidKey(globalPid));
    if (it == m_windows.end())
        it = m_windows.find(-1);
    return it == m_windows.end() ? nullptr : &it->second;
}

int StepIndex::find(int64_t globalPid, int64_t timeNs) const
{
    const std::vector<Window>* windows = windowsOf(globalPid);
    if (!windows)
        return kOutside;
    auto after = std::upper_bound(
        windows->begin(), windows->end(), timeNs, [](int64_t t, const Window& w) { return t < w.startNs; });
    if (after == windows->begin())
        return kOutside;
    const Window& w = *std::prev(after);
    return timeNs < w.endNs ? w.position : kOutside;
}

bool StepIndex::afterLast(int64_t globalPid, int64_t timeNs) const
{
    const std::vector<Window>* windows = windowsOf(globalPid);
    if (!windows || windows->empty())
        return false;
    int64_t lastEnd = 0;
    for (const Window& w : *windows)
        lastEnd = std::max(lastEnd, w.endNs);
    return timeNs >= lastEnd;
}

} // namespace placescope
