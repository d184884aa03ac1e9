// SPDX-License-Identifier: MIT
#include "placement/engine/max_flow.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace placescope {
namespace {
constexpr double kEpsilon = 1e-9;
}

MaxFlow::MaxFlow(int nodeCount)
    : m_adjacency(nodeCount)
    , m_level(nodeCount)
    , m_next(nodeCount)
{ }

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

// One blocking-flow phase: augmenting paths along the level graph, found by an explicit stack (graphs of
// 100k ops have level paths as long as the graph, too deep for recursion on a worker thread's stack).
// m_next[node] remembers the first arc still worth trying; dead ends leave the level graph.
double MaxFlow::augmentPhase(int source, int sink)
{
    double total = 0;
    std::vector<int> path; // arcs from the source to `node`
    int node = source;
    for (;;) {
        if (node == sink) {
            double bottleneck = std::numeric_limits<double>::infinity();
            for (int arc : path)
                bottleneck = std::min(bottleneck, m_arcs[arc].capacity);
            if (bottleneck == std::numeric_limits<double>::infinity())
                return bottleneck; // an infinite path: both sides forbidden
            for (int arc : path) {
                m_arcs[arc].capacity -= bottleneck;
                m_arcs[arc ^ 1].capacity += bottleneck;
            }
            total += bottleneck;
            path.clear();
            node = source;
            continue;
        }
        bool advanced = false;
        for (std::size_t& i = m_next[node]; i < m_adjacency[node].size(); ++i) {
            const int arc = m_adjacency[node][i];
            const Arc& a = m_arcs[arc];
            if (a.capacity > kEpsilon && m_level[a.to] == m_level[node] + 1) {
                path.push_back(arc);
                node = a.to;
                advanced = true;
                break;
            }
        }
        if (advanced)
            continue;
        if (node == source)
            return total;
        m_level[node] = -1; // nothing reaches the sink from here in this phase
        const int arc = path.back();
        path.pop_back();
        node = m_arcs[arc ^ 1].to;
        ++m_next[node];
    }
}

double MaxFlow::run(int source, int sink)
{
    double total = 0;
    while (buildLevels(source, sink)) {
        std::fill(m_next.begin(), m_next.end(), 0);
        const double pushed = augmentPhase(source, sink);
        if (pushed == std::numeric_limits<double>::infinity())
            return pushed;
        total += pushed;
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
