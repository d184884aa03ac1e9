// SPDX-License-Identifier: MIT
#include "placement/engine/list_scheduler.h"

#include "placement/engine/planner.h"

#include <algorithm>
#include <queue>

namespace placescope {

ListScheduler::ListScheduler(const OpGraph& graph)
    : m_graph(graph)
    , m_opCount(static_cast<int>(graph.ops.size()))
    , m_deviceCount(static_cast<int>(graph.devices.size()))
{
    const int d = m_deviceCount;
    m_latencyUs.assign(d * d, 0);
    m_bytesPerUs.assign(d * d, 1e3);
    // Same pricing as OpGraph::transferUs (the direct link, else the reverse link, else 0 us + 1 GB/s),
    // looked up once instead of per transfer.
    for (int from = 0; from < d; ++from)
        for (int to = 0; to < d; ++to) {
            const PlacementLink* direct = nullptr;
            const PlacementLink* reverse = nullptr;
            for (const PlacementLink& link : graph.links) {
                if (!direct && link.from == from && link.to == to)
                    direct = &link;
                if (!reverse && link.from == to && link.to == from)
                    reverse = &link;
            }
            const PlacementLink* link = direct ? direct : reverse;
            m_latencyUs[from * d + to] = link ? link->latencyUs : 0.0;
            m_bytesPerUs[from * d + to] = link ? link->bandwidthGBps * 1e3 : 1e3;
        }
    m_inOffset.assign(m_opCount + 1, 0);
    m_outOffset.assign(m_opCount + 1, 0);
    for (const PlacementEdge& edge : graph.edges) {
        ++m_inOffset[edge.to + 1];
        ++m_outOffset[edge.from + 1];
    }
    for (int i = 0; i < m_opCount; ++i) {
        m_inOffset[i + 1] += m_inOffset[i];
        m_outOffset[i + 1] += m_outOffset[i];
    }
    m_inEdges.resize(graph.edges.size());
    m_outEdges.resize(graph.edges.size());
    std::vector<int> inFill(m_inOffset.begin(), m_inOffset.end() - 1);
    std::vector<int> outFill(m_outOffset.begin(), m_outOffset.end() - 1);
    for (int e = 0; e < static_cast<int>(graph.edges.size()); ++e) {
        m_inEdges[inFill[graph.edges[e].to]++] = e;
        m_outEdges[outFill[graph.edges[e].from]++] = e;
    }
    m_start.assign(m_opCount, 0);
    m_finish.assign(m_opCount, 0);
    m_device.assign(m_opCount, -1);
    m_blocker.assign(m_opCount, -1);
    m_devices.reset(d);
    m_linkFree.assign(d * d, 0);
    m_linkScratch.assign(d, 0);
}

void ListScheduler::reset()
{
    m_devices.reset();
    std::fill(m_linkFree.begin(), m_linkFree.end(), 0.0);
    std::fill(m_device.begin(), m_device.end(), -1);
    m_makespan = 0;
}

double ListScheduler::inputsReady(int op, int device, bool commit, Timeline* timeline, int* blocker)
{
    double ready = 0;
    int decidedBy = -1;
    m_pending.clear();
    for (const int* e = inBegin(op); e != inEnd(op); ++e) {
        const PlacementEdge& edge = m_graph.edges[*e];
        if (m_device[edge.from] == device) {
            if (m_finish[edge.from] > ready) {
                ready = m_finish[edge.from];
                decidedBy = edge.from;
            }
        } else {
            m_pending.push_back({ m_finish[edge.from], *e });
        }
    }
    if (!m_pending.empty()) {
        if (m_pending.size() > 1)
            std::sort(m_pending.begin(), m_pending.end());
        for (int from = 0; from < m_deviceCount; ++from)
            m_linkScratch[from] = m_linkFree[from * m_deviceCount + device];
        for (const auto& [producerEnd, e] : m_pending) {
            const PlacementEdge& edge = m_graph.edges[e];
            const int from = m_device[edge.from];
            const double begin = std::max(producerEnd, m_linkScratch[from]);
            const double cost = transferUs(from, device, edge.bytes);
            const double end = begin + cost;
            m_linkScratch[from] = end;
            if (end > ready) {
                ready = end;
                decidedBy = edge.from;
            }
            if (timeline) {
                timeline->spans.push_back({ -1, e, device, begin, end });
                timeline->transferredBytes += edge.bytes;
                timeline->transferUs += cost;
                ++timeline->transferCount;
            }
        }
        if (commit)
            for (int from = 0; from < m_deviceCount; ++from)
                m_linkFree[from * m_deviceCount + device] = m_linkScratch[from];
    }
    if (blocker)
        *blocker = decidedBy;
    return ready;
}

double ListScheduler::earliestStart(int op, int device)
{
    return m_devices.decide(device, inputsReady(op, device, false, nullptr, nullptr), -1).start;
}

double ListScheduler::place(int op, int device, Timeline* timeline)
{
    int decidedBy = -1;
    const double inputs = inputsReady(op, device, true, timeline, &decidedBy);
    const StartDecision<double> decision = m_devices.decide(device, inputs, decidedBy);
    const double begin = decision.start;
    decidedBy = decision.blocker;
    const double cost = m_graph.ops[op].costUs[device];
    m_device[op] = device;
    m_start[op] = begin;
    m_finish[op] = begin + cost;
    m_blocker[op] = decidedBy;
    m_devices.occupy(device, op, m_finish[op]);
    m_makespan = std::max(m_makespan, m_finish[op]);
    if (timeline) {
        timeline->spans.push_back({ op, -1, device, begin, m_finish[op] });
        timeline->sumUs += cost;
        timeline->makespanUs = m_makespan;
    }
    return m_finish[op];
}

double ListScheduler::run(const std::vector<int>& assignment, const std::vector<int>& order)
{
    reset();
    for (int op : order)
        place(op, assignment[op]);
    return m_makespan;
}

std::vector<int> ListScheduler::criticalPath() const
{
    std::vector<int> path;
    int last = -1;
    for (int op = 0; op < m_opCount; ++op)
        if (m_device[op] >= 0 && (last < 0 || m_finish[op] > m_finish[last]))
            last = op;
    for (int op = last; op >= 0 && static_cast<int>(path.size()) < m_opCount; op = m_blocker[op])
        path.push_back(op);
    return path;
}

void ListScheduler::peakMemory(
    const std::vector<int>& assignment, std::vector<int64_t>& peakBytes, std::vector<double>& peakTimeUs) const
{
    peakBytes.assign(m_deviceCount, 0);
    peakTimeUs.assign(m_deviceCount, 0);
    std::vector<std::vector<std::pair<double, int64_t>>> events(m_deviceCount);
    for (int op = 0; op < m_opCount; ++op) {
        const int64_t bytes = m_graph.ops[op].memoryBytes;
        if (bytes <= 0)
            continue;
        double release = m_finish[op];
        for (const int* e = outBegin(op); e != outEnd(op); ++e)
            release = std::max(release, m_finish[m_graph.edges[*e].to]);
        events[assignment[op]].push_back({ m_start[op], bytes });
        events[assignment[op]].push_back({ release, -bytes });
    }
    for (int d = 0; d < m_deviceCount; ++d) {
        // Frees before allocations at the same instant: a buffer released as another is created is reused.
        std::sort(events[d].begin(), events[d].end());
        int64_t live = 0;
        for (const auto& [time, delta] : events[d]) {
            live += delta;
            if (live > peakBytes[d]) {
                peakBytes[d] = live;
                peakTimeUs[d] = time;
            }
        }
    }
}

std::vector<double> ListScheduler::bottomLevels(
    const std::vector<int>& assignment, const std::vector<int>& topoOrder) const
{
    std::vector<double> level(m_opCount, 0);
    for (auto it = topoOrder.rbegin(); it != topoOrder.rend(); ++it) {
        const int op = *it;
        double tail = 0;
        for (const int* e = outBegin(op); e != outEnd(op); ++e) {
            const PlacementEdge& edge = m_graph.edges[*e];
            tail = std::max(tail, level[edge.to] + transferUs(assignment[op], assignment[edge.to], edge.bytes));
        }
        level[op] = m_graph.ops[op].costUs[assignment[op]] + tail;
    }
    return level;
}

std::vector<int> ListScheduler::bottomLevelOrder(
    const std::vector<int>& assignment, const std::vector<int>& topoOrder) const
{
    const std::vector<double> level = bottomLevels(assignment, topoOrder);
    std::vector<int> position(m_opCount), indegree(m_opCount, 0);
    for (int i = 0; i < m_opCount; ++i)
        position[topoOrder[i]] = i;
    for (const PlacementEdge& edge : m_graph.edges)
        ++indegree[edge.to];
    auto lower = [&](int a, int b) { return level[a] != level[b] ? level[a] < level[b] : position[a] > position[b]; };
    std::priority_queue<int, std::vector<int>, decltype(lower)> ready(lower);
    for (int op = 0; op < m_opCount; ++op)
        if (indegree[op] == 0)
            ready.push(op);
    std::vector<int> order;
    order.reserve(m_opCount);
    while (!ready.empty()) {
        const int op = ready.top();
        ready.pop();
        order.push_back(op);
        for (const int* e = outBegin(op); e != outEnd(op); ++e)
            if (--indegree[m_graph.edges[*e].to] == 0)
                ready.push(m_graph.edges[*e].to);
    }
    return order;
}

std::vector<int> ListScheduler::earliestStartOrder(
    const std::vector<int>& assignment, const std::vector<int>& topoOrder, bool byFinish)
{
    const std::vector<double> level = bottomLevels(assignment, topoOrder);
    std::vector<int> indegree(m_opCount, 0), position(m_opCount);
    for (int i = 0; i < m_opCount; ++i)
        position[topoOrder[i]] = i;
    for (const PlacementEdge& edge : m_graph.edges)
        ++indegree[edge.to];
    std::vector<int> ready;
    for (int op = 0; op < m_opCount; ++op)
        if (indegree[op] == 0)
            ready.push_back(op);
    reset();
    std::vector<int> order;
    order.reserve(m_opCount);
    while (!ready.empty()) {
        size_t pick = 0;
        double pickStart = kNoKernel;
        for (size_t i = 0; i < ready.size(); ++i) {
            const double s = earliestStart(ready[i], assignment[ready[i]])
                + (byFinish ? m_graph.ops[ready[i]].costUs[assignment[ready[i]]] : 0.0);
            // Ties (several ops could start at once) go to the longest remaining path.
            const bool tie = s == pickStart;
            const int a = ready[i];
            const int b = ready[pick];
            if (s < pickStart
                || (tie && (level[a] > level[b] || (level[a] == level[b] && position[a] < position[b])))) {
                pickStart = s;
                pick = i;
            }
        }
        const int op = ready[pick];
        ready[pick] = ready.back();
        ready.pop_back();
        place(op, assignment[op]);
        order.push_back(op);
        for (const int* e = outBegin(op); e != outEnd(op); ++e)
            if (--indegree[m_graph.edges[*e].to] == 0)
                ready.push_back(m_graph.edges[*e].to);
    }
    return order;
}

} // namespace placescope
