// SPDX-License-Identifier: MIT
#include "placement/engine/local_search.h"

#include <algorithm>
#include <cmath>

namespace placescope {
namespace {

// Work budget in op+edge visits: about 0.1-0.3 s of simulation on one core whatever the graph size, which
// keeps plan() within 1 s for 10k ops and 10 s for 100k ops with the rest of the solve.
constexpr double kVisitBudget = 3e6;
constexpr long kMinEvaluations = 24;
constexpr long kMaxEvaluations = 20000;
constexpr int kSmallGraph = 24; // pair moves and restarts up to this many ops
constexpr int kTinyGraph = 64; // earliest-start dispatch orders up to this many ops
constexpr size_t kOverflowCandidates = 32;
constexpr size_t kPoolSize = 12; // assignments whose list order is searched at the end (small graphs)
constexpr double kOrderShare = 0.5; // of the budget, kept for that order search

} // namespace

PlacementSearch::PlacementSearch(const OpGraph& graph, const std::vector<std::optional<int>>& pins,
    const std::vector<int>& topoOrder, Objective objective, double effort)
    : m_graph(graph)
    , m_pins(pins)
    , m_topoOrder(topoOrder)
    , m_objective(objective)
    , m_scheduler(graph)
{
    const int n = static_cast<int>(graph.ops.size());
    for (const PlacementDevice& device : graph.devices)
        m_hasLimits = m_hasLimits || device.memoryBytes > 0;
    m_small = n <= kSmallGraph;
    m_tiny = n <= kTinyGraph;
    const double visits = static_cast<double>(n + graph.edges.size()) + 1;
    const double evaluations = std::clamp(kVisitBudget / visits, double(kMinEvaluations), double(kMaxEvaluations));
    m_budget = static_cast<long>(std::max(0.0, effort) * evaluations);
}

bool PlacementSearch::allowed(int op, int device) const
{
    return std::isfinite(m_graph.ops[op].costUs[device]) && (!m_pins[op] || *m_pins[op] == device);
}

bool PlacementSearch::better(const SearchKey& a, const SearchKey& b) const
{
    if (a.overflowBytes != b.overflowBytes)
        return a.overflowBytes < b.overflowBytes;
    return a.value < b.value - 1e-9 * std::max(1.0, std::abs(b.value));
}

double PlacementSearch::sumOf(const std::vector<int>& assignment) const
{
    double total = 0;
    for (size_t op = 0; op < m_graph.ops.size(); ++op)
        total += m_graph.ops[op].costUs[assignment[op]];
    for (const PlacementEdge& edge : m_graph.edges)
        total += m_scheduler.transferUs(assignment[edge.from], assignment[edge.to], edge.bytes);
    return total;
}

SearchKey PlacementSearch::evaluate(const Schedule& schedule)
{
    ++m_evaluations;
    SearchKey key;
    const double makespan = m_scheduler.run(schedule.assignment, schedule.order);
    key.value = m_objective == Objective::Makespan ? makespan : sumOf(schedule.assignment);
    if (m_hasLimits) {
        std::vector<int64_t> peak;
        std::vector<double> when;
        m_scheduler.peakMemory(schedule.assignment, peak, when);
        for (size_t d = 0; d < m_graph.devices.size(); ++d)
            if (m_graph.devices[d].memoryBytes > 0)
                key.overflowBytes += std::max<int64_t>(0, peak[d] - m_graph.devices[d].memoryBytes);
    }
    return key;
}

SearchKey PlacementSearch::evaluateAssignment(
    const std::vector<int>& assignment, const std::vector<int>& hintOrder, std::vector<int>& bestOrder)
{
    Schedule trial { assignment, hintOrder };
    SearchKey best = evaluate(trial);
    bestOrder = hintOrder;
    // The order only matters for the makespan and for memory; a sum without limits needs one simulation.
    if (m_objective == Objective::Sum && !m_hasLimits)
        return best;
    auto consider = [&](std::vector<int> order) {
        trial.order = std::move(order);
        SearchKey key = evaluate(trial);
        if (better(key, best)) {
            best = key;
            bestOrder = trial.order;
        }
    };
    consider(m_scheduler.bottomLevelOrder(assignment, m_topoOrder));
    if (m_tiny) {
        consider(m_scheduler.earliestStartOrder(assignment, m_topoOrder));
        consider(m_scheduler.earliestStartOrder(assignment, m_topoOrder, true));
    }
    if (m_small)
        remember(assignment, bestOrder, best);
    return best;
}

double PlacementSearch::localGain(const std::vector<int>& assignment, int op, int device) const
{
    const int from = assignment[op];
    double gain = m_graph.ops[op].costUs[from] - m_graph.ops[op].costUs[device];
    for (const int* e = m_scheduler.inBegin(op); e != m_scheduler.inEnd(op); ++e) {
        const PlacementEdge& edge = m_graph.edges[*e];
        gain += m_scheduler.transferUs(assignment[edge.from], from, edge.bytes)
            - m_scheduler.transferUs(assignment[edge.from], device, edge.bytes);
    }
    for (const int* e = m_scheduler.outBegin(op); e != m_scheduler.outEnd(op); ++e) {
        const PlacementEdge& edge = m_graph.edges[*e];
        gain += m_scheduler.transferUs(from, assignment[edge.to], edge.bytes)
            - m_scheduler.transferUs(device, assignment[edge.to], edge.bytes);
    }
    return gain;
}

std::vector<PlacementSearch::Move> PlacementSearch::candidateMoves(const Schedule& current, const SearchKey& key)
{
    const int n = static_cast<int>(m_graph.ops.size());
    const int devices = static_cast<int>(m_graph.devices.size());
    std::vector<Move> moves;
    auto addMoves = [&](int op) {
        for (int d = 0; d < devices; ++d)
            if (d != current.assignment[op] && allowed(op, d))
                moves.push_back({ op, d, localGain(current.assignment, op, d) });
    };
    if (key.overflowBytes > 0) {
        // Ops whose outputs are live on an over-full device when it peaks: moving one lowers that peak.
        ++m_evaluations;
        m_scheduler.run(current.assignment, current.order);
        std::vector<int64_t> peak;
        std::vector<double> when;
        m_scheduler.peakMemory(current.assignment, peak, when);
        const auto& start = m_scheduler.start();
        const auto& finish = m_scheduler.finish();
        for (int d = 0; d < devices; ++d) {
            if (m_graph.devices[d].memoryBytes <= 0 || peak[d] <= m_graph.devices[d].memoryBytes)
                continue;
            std::vector<int> live;
            for (int op = 0; op < n; ++op) {
                if (current.assignment[op] != d || m_graph.ops[op].memoryBytes <= 0 || start[op] > when[d])
                    continue;
                double release = finish[op];
                for (const int* e = m_scheduler.outBegin(op); e != m_scheduler.outEnd(op); ++e)
                    release = std::max(release, finish[m_graph.edges[*e].to]);
                if (release > when[d])
                    live.push_back(op);
            }
            for (int op : live)
                addMoves(op);
        }
        // Greedy eviction: the move that costs least per byte it frees comes first.
        for (Move& move : moves)
            move.estimatedGain /= static_cast<double>(m_graph.ops[move.op].memoryBytes);
        std::stable_sort(
            moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.estimatedGain > b.estimatedGain; });
        if (m_small && moves.size() > kOverflowCandidates)
            moves.resize(kOverflowCandidates);
        return moves;
    }
    if (m_objective == Objective::Sum) {
        // Within the limits, only a move that lowers the sum can help; localGain is its exact change.
        for (int op = 0; op < n; ++op)
            addMoves(op);
        moves.erase(std::remove_if(moves.begin(), moves.end(), [](const Move& m) { return m.estimatedGain <= 1e-12; }),
            moves.end());
    } else if (m_small) {
        for (int op = 0; op < n; ++op)
            addMoves(op);
    } else {
        // Large graphs: only the ops on the critical path and the producers feeding them across devices.
        ++m_evaluations;
        m_scheduler.run(current.assignment, current.order);
        std::vector<char> seen(n, 0);
        for (int op : m_scheduler.criticalPath()) {
            if (!seen[op]) {
                seen[op] = 1;
                addMoves(op);
            }
            for (const int* e = m_scheduler.inBegin(op); e != m_scheduler.inEnd(op); ++e) {
                const int from = m_graph.edges[*e].from;
                if (!seen[from] && current.assignment[from] != current.assignment[op]) {
                    seen[from] = 1;
                    addMoves(from);
                }
            }
        }
    }
    std::stable_sort(
        moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.estimatedGain > b.estimatedGain; });
    return moves;
}

void PlacementSearch::localSearch(Schedule& current, SearchKey& key)
{
    while (budgetLeft()) {
        std::vector<Move> moves = candidateMoves(current, key);
        bool improved = false;
        Schedule bestTrial;
        SearchKey bestTrialKey = key;
        if (key.overflowBytes > 0 && !m_small) {
            // Batch eviction on large graphs: move the cheapest-per-byte ops until they free the overflow, and
            // keep the batch if one simulation says it helped (one move per simulation is too slow at 100k ops).
            std::vector<int> assignment = current.assignment;
            std::vector<char> moved(m_graph.ops.size(), 0);
            int64_t freed = 0;
            int count = 0;
            for (const Move& move : moves) {
                if (freed >= key.overflowBytes)
                    break;
                if (moved[move.op])
                    continue;
                moved[move.op] = 1;
                assignment[move.op] = move.device;
                freed += m_graph.ops[move.op].memoryBytes;
                ++count;
            }
            if (count > 1) {
                std::vector<int> order;
                SearchKey trialKey = evaluateAssignment(assignment, current.order, order);
                if (better(trialKey, key)) {
                    current = { std::move(assignment), std::move(order) };
                    key = trialKey;
                    continue;
                }
            }
        }
        for (const Move& move : moves) {
            if (!budgetLeft())
                break;
            std::vector<int> assignment = current.assignment;
            assignment[move.op] = move.device;
            std::vector<int> order;
            SearchKey trialKey = evaluateAssignment(assignment, current.order, order);
            if (better(trialKey, bestTrialKey)) {
                bestTrialKey = trialKey;
                bestTrial = { std::move(assignment), std::move(order) };
                improved = true;
                break; // first improvement: candidates come best-estimated first
            }
        }
        if (improved) {
            current = std::move(bestTrial);
            key = bestTrialKey;
            continue;
        }
        if (m_small && tryPairs(current, key))
            continue;
        break;
    }
}

bool PlacementSearch::tryPairs(Schedule& current, SearchKey& key)
{
    const int n = static_cast<int>(m_graph.ops.size());
    const int devices = static_cast<int>(m_graph.devices.size());
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            for (int da = 0; da < devices; ++da)
                for (int db = 0; db < devices; ++db) {
                    if (da == current.assignment[a] || db == current.assignment[b] || !allowed(a, da)
                        || !allowed(b, db))
                        continue;
                    if (!budgetLeft())
                        return false;
                    std::vector<int> assignment = current.assignment;
                    assignment[a] = da;
                    assignment[b] = db;
                    std::vector<int> order;
                    SearchKey trialKey = evaluateAssignment(assignment, current.order, order);
                    if (better(trialKey, key)) {
                        current = { std::move(assignment), std::move(order) };
                        key = trialKey;
                        return true;
                    }
                }
    return false;
}

Schedule PlacementSearch::improve(const std::vector<Schedule>& starts)
{
    Schedule best;
    bool have = false;
    for (const Schedule& start : starts) {
        std::vector<int> order;
        SearchKey key = evaluateAssignment(start.assignment, start.order, order);
        if (!have || better(key, m_bestKey)) {
            best = { start.assignment, std::move(order) };
            m_bestKey = key;
            have = true;
        }
    }
    if (!have)
        return best;
    const bool startedOverLimit = m_bestKey.overflowBytes > 0;
    localSearch(best, m_bestKey);
    // Restarts pay off for the makespan; a sum that started within the limits is the min-cut optimum.
    if (!m_small || (m_objective == Objective::Sum && !startedOverLimit))
        return best;
    // Iterated local search: perturb the best by a few random moves and descend again.
    const int n = static_cast<int>(m_graph.ops.size());
    const int devices = static_cast<int>(m_graph.devices.size());
    std::vector<int> movable;
    for (int op = 0; op < n; ++op)
        for (int d = 0; d < devices; ++d)
            if (d != best.assignment[op] && allowed(op, d)) {
                movable.push_back(op);
                break;
            }
    if (movable.empty())
        return best;
    const long restartEnd = m_budget - static_cast<long>(kOrderShare * static_cast<double>(m_budget));
    // Few enough free ops that every assignment fits the budget (4 orders each): try them all instead.
    std::vector<std::vector<int>> choices(movable.size());
    double combinations = 1;
    for (size_t i = 0; i < movable.size(); ++i) {
        for (int d = 0; d < devices; ++d)
            if (allowed(movable[i], d))
                choices[i].push_back(d);
        combinations *= static_cast<double>(choices[i].size());
    }
    if (combinations * 4 <= static_cast<double>(restartEnd - m_evaluations)) {
        std::vector<size_t> digit(movable.size(), 0);
        std::vector<int> assignment = best.assignment;
        for (bool more = true; more;) {
            for (size_t i = 0; i < movable.size(); ++i)
                assignment[movable[i]] = choices[i][digit[i]];
            std::vector<int> order;
            SearchKey key = evaluateAssignment(assignment, best.order, order);
            if (better(key, m_bestKey)) {
                best = { assignment, std::move(order) };
                m_bestKey = key;
            }
            more = false;
            for (size_t i = 0; i < digit.size() && !more; ++i) {
                if (++digit[i] < choices[i].size())
                    more = true;
                else
                    digit[i] = 0;
            }
        }
    }
    while (m_evaluations < restartEnd) {
        Schedule trial = best;
        const int kicks = 2 + static_cast<int>(m_rng() % 2);
        for (int k = 0; k < kicks; ++k) {
            const int op = movable[m_rng() % movable.size()];
            std::vector<int> otherDevices;
            for (int d = 0; d < devices; ++d)
                if (d != trial.assignment[op] && allowed(op, d))
                    otherDevices.push_back(d);
            if (!otherDevices.empty())
                trial.assignment[op] = otherDevices[m_rng() % otherDevices.size()];
        }
        std::vector<int> order;
        SearchKey key = evaluateAssignment(trial.assignment, trial.order, order);
        trial.order = std::move(order);
        localSearch(trial, key);
        if (better(key, m_bestKey)) {
            best = std::move(trial);
            m_bestKey = key;
        }
    }
    // The assignment search judged each assignment by a few list orders; the best assignments may do better
    // in another order, so the rest of the budget searches orders for them.
    std::vector<std::pair<SearchKey, Schedule>> pool = std::move(m_pool);
    const long share = pool.empty() ? 0 : (m_budget - m_evaluations) / static_cast<long>(pool.size());
    for (auto& [key, schedule] : pool) {
        improveOrder(schedule, key, std::min(m_budget, m_evaluations + share));
        if (better(key, m_bestKey)) {
            best = schedule;
            m_bestKey = key;
        }
    }
    return best;
}

void PlacementSearch::remember(const std::vector<int>& assignment, const std::vector<int>& order, const SearchKey& key)
{
    for (auto& [pooledKey, pooled] : m_pool)
        if (pooled.assignment == assignment) {
            if (better(key, pooledKey)) {
                pooledKey = key;
                pooled.order = order;
            }
            return;
        }
    if (m_pool.size() == kPoolSize && !better(key, m_pool.back().first))
        return;
    if (m_pool.size() == kPoolSize)
        m_pool.pop_back();
    auto at = std::find_if(m_pool.begin(), m_pool.end(), [&](const auto& entry) { return better(key, entry.first); });
    m_pool.insert(at, { key, Schedule { assignment, order } });
}

std::vector<int> PlacementSearch::randomTopologicalOrder()
{
    const int n = static_cast<int>(m_graph.ops.size());
    std::vector<int> indegree(n, 0), ready, order;
    for (const PlacementEdge& edge : m_graph.edges)
        ++indegree[edge.to];
    for (int op = 0; op < n; ++op)
        if (indegree[op] == 0)
            ready.push_back(op);
    while (!ready.empty()) {
        const size_t pick = m_rng() % ready.size();
        const int op = ready[pick];
        ready[pick] = ready.back();
        ready.pop_back();
        order.push_back(op);
        for (const int* e = m_scheduler.outBegin(op); e != m_scheduler.outEnd(op); ++e)
            if (--indegree[m_graph.edges[*e].to] == 0)
                ready.push_back(m_graph.edges[*e].to);
    }
    return order;
}

void PlacementSearch::improveOrder(Schedule& schedule, SearchKey& key, long budgetEnd)
{
    const int n = static_cast<int>(schedule.order.size());
    auto independent = [&](int a, int b) {
        for (const int* e = m_scheduler.outBegin(a); e != m_scheduler.outEnd(a); ++e)
            if (m_graph.edges[*e].to == b)
                return false;
        return true;
    };
    // Half the share samples random topological orders; the rest climbs by adjacent swaps from the best
    // order so far, then from the best samples.
    const long sampleEnd = m_evaluations + (budgetEnd - m_evaluations) / 2;
    std::vector<std::pair<SearchKey, std::vector<int>>> samples;
    while (m_evaluations < sampleEnd) {
        Schedule trial { schedule.assignment, randomTopologicalOrder() };
        SearchKey trialKey = evaluate(trial);
        samples.push_back({ trialKey, std::move(trial.order) });
    }
    std::stable_sort(
        samples.begin(), samples.end(), [&](const auto& a, const auto& b) { return better(a.first, b.first); });
    size_t nextSample = 0;
    bool fromSample = false;
    while (m_evaluations < budgetEnd) {
        Schedule trial = schedule;
        SearchKey trialKey = key;
        if (fromSample) {
            if (nextSample >= samples.size())
                break;
            trial.order = samples[nextSample].second;
            trialKey = samples[nextSample].first;
            ++nextSample;
        }
        bool improved = true;
        while (improved && m_evaluations < budgetEnd) {
            improved = false;
            for (int i = 0; i + 1 < n && m_evaluations < budgetEnd; ++i) {
                if (!independent(trial.order[i], trial.order[i + 1]))
                    continue;
                std::swap(trial.order[i], trial.order[i + 1]);
                SearchKey swappedKey = evaluate(trial);
                if (better(swappedKey, trialKey)) {
                    trialKey = swappedKey;
                    improved = true;
                } else {
                    std::swap(trial.order[i], trial.order[i + 1]);
                }
            }
        }
        if (better(trialKey, key)) {
            schedule = std::move(trial);
            key = trialKey;
        }
        fromSample = true;
    }
}

} // namespace placescope
