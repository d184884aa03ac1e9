// SPDX-License-Identifier: MIT
// ResourceClocks: the one time rule both of Placescope's simulators are built on, the op-graph list scheduler of
// `place` (ListScheduler, microseconds) and the trace replay of `whatif` (TraceReplay, nanoseconds). Work on a
// resource (a device, a host thread, a GPU stream) runs one item at a time in a given order: an item starts at
// the later of the moment its inputs are ready and the moment its resource is free again plus the item's own gap
// after its predecessor there. Whichever of the two decided the start is the item's blocker, so both simulators
// read their critical path the same way: by following blockers back from the item that ends last.
#pragma once

#include <algorithm>
#include <vector>

namespace placescope {

template <typename Time> struct StartDecision
{
    Time start {};
    int blocker = -1; // the item whose end decided the start; -1: nothing (the start is the item's own anchor)
};

template <typename Time> class ResourceClocks
{
public:
    explicit ResourceClocks(int resourceCount = 0) { reset(resourceCount); }

    void reset(int resourceCount)
    {
        m_free.assign(static_cast<size_t>(resourceCount), Time {});
        m_last.assign(static_cast<size_t>(resourceCount), -1);
    }
    void reset() { reset(static_cast<int>(m_free.size())); }

    // When an item whose inputs are ready at `inputsReady` (decided by `inputBlocker`) starts on `resource`,
    // at least `gap` after the resource's previous item ended (a gap applies only when there is such an item).
    StartDecision<Time> decide(int resource, Time inputsReady, int inputBlocker, Time gap = Time {}) const
    {
        const int previous = m_last[static_cast<size_t>(resource)];
        if (previous >= 0 && m_free[static_cast<size_t>(resource)] + gap > inputsReady)
            return { m_free[static_cast<size_t>(resource)] + gap, previous };
        return { inputsReady, inputBlocker };
    }
    // Records that `item` holds `resource` until `end`.
    void occupy(int resource, int item, Time end)
    {
        m_free[static_cast<size_t>(resource)] = end;
        m_last[static_cast<size_t>(resource)] = item;
    }
    Time freeAt(int resource) const { return m_free[static_cast<size_t>(resource)]; }
    int lastItem(int resource) const { return m_last[static_cast<size_t>(resource)]; }

private:
    std::vector<Time> m_free;
    std::vector<int> m_last;
};

} // namespace placescope
