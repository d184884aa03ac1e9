// SPDX-License-Identifier: MIT
// MaxFlow: Dinic's algorithm on a double-capacity graph, with the source side of the minimum cut.
// Used by the `sum` solver (Stone's construction). One instance per solve; not shared between threads.
#pragma once

#include <cstddef>
#include <vector>

namespace placescope {

class MaxFlow
{
public:
    explicit MaxFlow(int nodeCount);
    void addEdge(int from, int to, double capacity, double reverseCapacity = 0);
    double run(int source, int sink);
    // After run(): true for nodes reachable from the source in the residual graph.
    std::vector<bool> sourceSide(int source) const;

private:
    struct Arc
    {
        int to;
        double capacity;
    };
    bool buildLevels(int source, int sink);
    double augmentPhase(int source, int sink);

    std::vector<std::vector<int>> m_adjacency;
    std::vector<Arc> m_arcs;
    std::vector<int> m_level;
    std::vector<std::size_t> m_next;
};

} // namespace placescope
