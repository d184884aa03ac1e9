// SPDX-License-Identifier: MIT
#include "placement/engine/max_flow.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace placescope {
namespace {
constexpr double kEpsilon = 1e-9;
}

MaxFlow::MaxFlow(int nodeCount) : m_adjacency(nodeCount), m_level(nodeCount), m_next(nodeCount) { }

void MaxFlow::addEdge(int from, int to, double capacity, double reverseCapacity)
{
    m_adjacency[from].push_back(static_cast<int>(m_arcs.size()));
    m_arcs.push_back({ to, capacity });
    m_adjacency[to].push_back(static_cast<int>(m_arcs.size()));
    m_arcs.push_back({ from, reverseCapacity });
}

bool MaxFlow::buildLevels(int source, int sink)
{
    std::fill(m_level.begin(), m_level.end(), -1);
    std::queue<int> queue;
    m_level[source] = 0;
    queue.push(source);
    while (!queue.empty()) {
        int node = queue.front();
        queue.pop();
        for (int arc : m_adjacency[node]) {
            if (m_arcs[arc].capacity > kEpsilon && m_level[m_arcs[arc].to] < 0) {
                m_level[m_arcs[arc].to] = m_level[node] + 1;
                queue.push(m_arcs[arc].to);
            }
        }
    }
    return m_level[sink] >= 0;
}

// Iterative DFS would be safer for very deep graphs; the level graph bounds the depth by the BFS distance.
double MaxFlow::push(int node, int sink, double limit)
{
    if (node == sink)
        return limit;
    for (std::size_t& i = m_next[node]; i < m_adjacency[node].size(); ++i) {
        int arc = m_adjacency[node][i];
        Arc& a = m_arcs[arc];
        if (a.capacity <= kEpsilon || m_level[a.to] != m_level[node] + 1)
            continue;
        double pushed = push(a.to, sink, std::min(limit, a.capacity));
        if (pushed > kEpsilon) {
            a.capacity -= pushed;
            m_arcs[arc ^ 1].capacity += pushed;
            return pushed;
        }
    }
    return 0;
}

double MaxFlow::run(int source, int sink)
{
    double total = 0;
    while (buildLevels(source, sink)) {
        std::fill(m_next.begin(), m_next.end(), 0);
        while (double pushed = push(source, sink, std::numeric_limits<double>::infinity())) {
            if (pushed == std::numeric_limits<double>::infinity())
                return pushed; // an infinite path: both sides forbidden
            total += pushed;
        }
    }
    return total;
}

std::vector<bool> MaxFlow::sourceSide(int source) const
{
    std::vector<bool> seen(m_adjacency.size(), false);
    std::vector<int> stack { source };
    seen[source] = true;
    while (!stack.empty()) {
        int node = stack.back();
        stack.pop_back();
        for (int arc : m_adjacency[node]) {
            if (m_arcs[arc].capacity > kEpsilon && !seen[m_arcs[arc].to]) {
                seen[m_arcs[arc].to] = true;
                stack.push_back(m_arcs[arc].to);
            }
        }
    }
    return seen;
}

} // namespace placescope
