// SPDX-License-Identifier: MIT
// ListScheduler: the one time model behind both the simulator and the solvers, so that the makespan a
// solver optimises is the makespan simulate() reports. Device clocks are ResourceClocks, the rule the trace
// replay (whatif) runs on too.
//
// The model: ops are placed one by one in a list order (a topological order). An op starts when its
// device is free and all its inputs have arrived; ops on one device run one at a time in list order (no
// insertion into earlier idle gaps). An input produced on another device is a transfer that occupies its
// directed link (from-device, to-device) for latency + bytes / bandwidth; it starts once the producer has
// ended and the link is free. A link serves transfers in the list order of their consumers; the transfers
// into one op are sent in the order their producers ended. Because nothing is ever inserted before work
// already placed, replaying the order in which a schedule placed its ops reproduces it exactly.
//
// One instance per solve (it keeps scratch buffers); it reads the graph and never changes it.
#pragma once

#include "placement/engine/op_graph.h"
#include "placement/engine/resource_clock.h"

#include <cstdint>
#include <vector>

namespace placescope {

struct Timeline;

class ListScheduler
{
public:
    explicit ListScheduler(const OpGraph& graph);

    int opCount() const { return m_opCount; }
    int deviceCount() const { return m_deviceCount; }
    double transferUs(int fromDevice, int toDevice, int64_t bytes) const
    {
        return fromDevice == toDevice ? 0.0
                                      : m_latencyUs[fromDevice * m_deviceCount + toDevice]
                + static_cast<double>(bytes) / m_bytesPerUs[fromDevice * m_deviceCount + toDevice];
    }
    // Edges into / out of an op, as edge indices.
    const int* inBegin(int op) const { return m_inEdges.data() + m_inOffset[op]; }
    const int* inEnd(int op) const { return m_inEdges.data() + m_inOffset[op + 1]; }
    const int* outBegin(int op) const { return m_outEdges.data() + m_outOffset[op]; }
    const int* outEnd(int op) const { return m_outEdges.data() + m_outOffset[op + 1]; }

    // Forgets every placed op.
    void reset();
    // When `op` would start on `device` given what is placed so far (its producers must be placed).
    double earliestStart(int op, int device);
    // Places `op` on `device` after everything placed so far; returns its finish time. With `timeline`,
    // appends the op's and its transfers' spans and adds to its totals.
    double place(int op, int device, Timeline* timeline = nullptr);
    // reset() and place every op of `order` on assignment[op]; returns the makespan.
    double run(const std::vector<int>& assignment, const std::vector<int>& order);

    double makespan() const { return m_makespan; }
    const std::vector<double>& start() const { return m_start; }
    const std::vector<double>& finish() const { return m_finish; }
    // The op whose end (on the same device, or as a data input) decided when `op` could start; -1 if none.
    int blocker(int op) const { return m_blocker[op]; }
    // Ops on the chain of blockers that ends at the op finishing last (the schedule's critical path).
    std::vector<int> criticalPath() const;

    // Peak live bytes per device for the placed schedule (an op's output is live from its start until its
    // last consumer ends), and the time each peak is first reached.
    void peakMemory(
        const std::vector<int>& assignment, std::vector<int64_t>& peakBytes, std::vector<double>& peakTimeUs) const;

    // A list order for a fixed assignment: topological, highest bottom level first (the longest remaining
    // path of assigned costs and the transfers that assignment needs), ties by `topoOrder` position.
    std::vector<int> bottomLevelOrder(const std::vector<int>& assignment, const std::vector<int>& topoOrder) const;
    // Per op: its assigned cost plus the longest path after it (assigned costs and the transfers it implies).
    std::vector<double> bottomLevels(const std::vector<int>& assignment, const std::vector<int>& topoOrder) const;
    // A list order built by earliest-start dispatch (ETF, ties to the higher bottom level) for a fixed assignment: O(n
    // * ready ops), so meant for small graphs. Leaves the scheduler holding that schedule. With `byFinish`, the ready
    // op that would finish first is dispatched instead (EFT): it lets a short op that feeds the other device go before
    // a long one that could start at the same time.
    std::vector<int> earliestStartOrder(
        const std::vector<int>& assignment, const std::vector<int>& topoOrder, bool byFinish = false);

private:
    double inputsReady(int op, int device, bool commit, Timeline* timeline, int* blocker);

    const OpGraph& m_graph;
    int m_opCount = 0;
    int m_deviceCount = 0;
    std::vector<double> m_latencyUs; // per (from, to) device pair
    std::vector<double> m_bytesPerUs;
    std::vector<int> m_inOffset, m_inEdges, m_outOffset, m_outEdges;
    std::vector<double> m_start, m_finish, m_linkFree;
    ResourceClocks<double> m_devices; // when each device is free, and its last op
    std::vector<int> m_device, m_blocker;
    double m_makespan = 0;
    std::vector<std::pair<double, int>> m_pending; // scratch: cross-device inputs of one op
    std::vector<double> m_linkScratch;
};

} // namespace placescope
