// SPDX-License-Identifier: MIT
#include "analysis/job/job_reduce.h"

#include "analysis/job/rank_summary.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <unordered_map>

namespace placescope {
namespace {

using InstanceKey = std::pair<std::string, int64_t>; // (group, seq)

int64_t medianOf(std::vector<int64_t> values)
{
    if (values.empty())
        return 0;
    auto middle = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2); // the lower median
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

// Nearest-rank quantile over (duration, count) pairs sorted by duration.
int64_t quantile(const std::map<int64_t, int64_t>& durations, int64_t count, double q)
{
    int64_t wanted = std::max<int64_t>(1, static_cast<int64_t>(q * static_cast<double>(count) + 0.999999999));
    int64_t seen = 0;
    for (const auto& [duration, n] : durations) {
        seen += n;
        if (seen >= wanted)
            return duration;
    }
    return durations.empty() ? 0 : durations.rbegin()->first;
}

// What passes 2 and 3 need of a rank, kept in a temporary file after pass 1 parsed its summary: binary, so that the
// later passes read it back at disk speed instead of parsing the JSON again, and one rank at a time, so that memory
// stays one rank's worth.
struct SpilledCollective
{
    int64_t instance = 0;
    int64_t step = 0;
    int64_t startNs = 0;
    int64_t durationNs = 0;
};

struct SpilledRank
{
    std::vector<RankStep> steps;
    std::vector<SpilledCollective> collectives;
};

class RankSpill
{
public:
    RankSpill()
        : m_file(std::tmpfile())
    { }
    ~RankSpill()
    {
        if (m_file)
            std::fclose(m_file);
    }
    RankSpill(const RankSpill&) = delete;
    RankSpill& operator=(const RankSpill&) = delete;

    // Appends a rank; returns where it starts, or -1 when the file cannot be written.
    long write(const SpilledRank& rank)
    {
        if (!m_file || std::fseek(m_file, 0, SEEK_END) != 0)
            return -1;
        const long at = std::ftell(m_file);
        const uint64_t counts[2] = { rank.steps.size(), rank.collectives.size() };
        const bool ok = std::fwrite(counts, sizeof counts, 1, m_file) == 1
            && std::fwrite(rank.steps.data(), sizeof(RankStep), rank.steps.size(), m_file) == rank.steps.size()
            && std::fwrite(rank.collectives.data(), sizeof(SpilledCollective), rank.collectives.size(), m_file)
                == rank.collectives.size();
        return ok ? at : -1;
    }
    bool read(long at, SpilledRank& rank)
    {
        uint64_t counts[2] = { 0, 0 };
        if (!m_file || std::fseek(m_file, at, SEEK_SET) != 0 || std::fread(counts, sizeof counts, 1, m_file) != 1)
            return false;
        rank.steps.resize(counts[0]);
        rank.collectives.resize(counts[1]);
        return std::fread(rank.steps.data(), sizeof(RankStep), counts[0], m_file) == counts[0]
            && std::fread(rank.collectives.data(), sizeof(SpilledCollective), counts[1], m_file) == counts[1];
    }

private:
    std::FILE* m_file = nullptr;
};

// Rank `rankIndex`'s collectives in the order it did them, each with the gap since its previous one in the same
// step ended (on every rank: the instance's last arrival plus its transfer) or since its step began, on the job's
// clock; and how far the rank's own end of each instance is from that common end.
void addChain(const JobReduction& job, const SpilledRank& rank, size_t rankIndex,
    const std::map<int64_t, size_t>& stepIndexOf, CollectiveChains& chains)
{
    std::vector<SpilledCollective> inOrder = rank.collectives;
    std::stable_sort(inOrder.begin(), inOrder.end(),
        [](const SpilledCollective& a, const SpilledCollective& b) { return a.startNs < b.startNs; });
    const int64_t offset = job.ranks[rankIndex].clockOffsetNs;
    int64_t previous = -1, previousStep = INT64_MIN;
    for (const SpilledCollective& c : inOrder) {
        const auto step = stepIndexOf.find(c.step);
        if (step == stepIndexOf.end()) { // outside every step: not part of a step's chain
            previous = -1;
            continue;
        }
        const JobCollective& instance = job.collectives[static_cast<size_t>(c.instance)];
        const int64_t commonEnd = instance.endNs();
        chains.maxEndDisagreementNs
            = std::max<int64_t>(chains.maxEndDisagreementNs, std::llabs(c.startNs + c.durationNs - offset - commonEnd));
        CollectiveArrival arrival;
        arrival.rankIndex = static_cast<int32_t>(rankIndex);
        arrival.stepIndex = static_cast<int32_t>(step->second);
        const int64_t arrivalNs = c.startNs - offset;
        if (previous >= 0 && previousStep == c.step) {
            const JobCollective& before = job.collectives[static_cast<size_t>(previous)];
            arrival.previous = static_cast<int32_t>(previous);
            arrival.gapNs = arrivalNs - before.endNs();
        } else {
            arrival.gapNs = arrivalNs - job.cells[rankIndex][step->second].startNs;
        }
        chains.arrivalsOf[static_cast<size_t>(c.instance)].push_back(arrival);
        previous = c.instance;
        previousStep = c.step;
    }
}

struct KernelAccumulator
{
    std::map<int64_t, int64_t> durations;
    int64_t ranks = 0;
};

} // namespace

Result<JobReduction> reduceJob(const std::vector<std::string>& summaryPaths)
{
    JobReduction job;
    std::map<InstanceKey, size_t> instanceOf;
    std::vector<int64_t> minEnd; // per instance, raw clock
    std::map<int64_t, size_t> stepIndexOf;
    std::map<std::string, KernelAccumulator> kernels;
    std::map<int64_t, size_t> pathOfRank; // rank -> index in summaryPaths
    std::map<int64_t, long> spillOfRank; // rank -> its place in the spill
    RankSpill spill;

    // Pass 1: ranks, steps, collective instances and their earliest end, kernels.
    for (size_t p = 0; p < summaryPaths.size(); ++p) {
        PLACESCOPE_ASSIGN_OR_RETURN(RankSummary summary, readRankSummary(summaryPaths[p]));
        if (auto [it, inserted] = pathOfRank.emplace(summary.rank, p); !inserted)
            return Status::error("rank " + std::to_string(summary.rank) + " twice: " + summaryPaths[it->second]
                + " and " + summaryPaths[p]);
        job.worldSize = std::max(job.worldSize, summary.worldSize);
        JobRank rank;
        rank.rank = summary.rank;
        rank.hostname = summary.hostname;
        rank.input = summary.input;
        rank.trace = summary.trace;
        job.ranks.push_back(std::move(rank));
        for (const RankStep& step : summary.steps)
            stepIndexOf.emplace(step.step, 0);
        SpilledRank spilled;
        spilled.steps = summary.steps;
        for (const RankCollective& c : summary.collectives) {
            auto [it, inserted] = instanceOf.emplace(InstanceKey { c.group, c.seq }, job.collectives.size());
            spilled.collectives.push_back({ static_cast<int64_t>(it->second), c.step, c.startNs, c.durationNs });
            if (inserted) {
                JobCollective instance;
                instance.group = c.group;
                instance.seq = c.seq;
                instance.kind = c.kind;
                instance.step = c.step;
                instance.bytes = c.bytes;
                instance.groupSize = c.groupSize;
                job.collectives.push_back(std::move(instance));
                minEnd.push_back(INT64_MAX);
            }
            minEnd[it->second] = std::min(minEnd[it->second], c.startNs + c.durationNs);
        }
        const long at = spill.write(spilled);
        if (at < 0)
            return Status::error("cannot write the reduce's temporary file");
        spillOfRank[summary.rank] = at;
        for (const KernelDurations& k : summary.kernels) {
            KernelAccumulator& accumulator = kernels[k.name];
            ++accumulator.ranks;
            for (const auto& [duration, count] : k.durations)
                accumulator.durations[duration] += count;
        }
    }
    std::sort(job.ranks.begin(), job.ranks.end(), [](const JobRank& a, const JobRank& b) { return a.rank < b.rank; });
    std::unordered_map<int64_t, size_t> rankIndexOf;
    for (size_t i = 0; i < job.ranks.size(); ++i)
        rankIndexOf[job.ranks[i].rank] = i;
    for (int64_t r = 0; r < job.worldSize; ++r)
        if (!rankIndexOf.count(r))
            job.missingRanks.push_back(r);
    for (auto& [step, index] : stepIndexOf) {
        index = job.steps.size();
        job.steps.push_back(step);
    }
    job.cells.assign(job.ranks.size(), std::vector<JobCell>(job.steps.size()));
    SpilledRank summary; // the rank passes 2 and 3 are at
    auto readRank = [&](size_t rankIndex) {
        return spill.read(spillOfRank[job.ranks[rankIndex].rank], summary)
            ? Status::ok()
            : Status::error("cannot read the reduce's temporary file back");
    };

    // Pass 2a: each host's clock offset. Ranks of one host share its clock; without host names every rank may have
    // its own, and there is no telling a slow rank's late ends from a clock: no correction then.
    std::map<std::string, std::vector<int64_t>> offsetsOfHost;
    for (const JobRank& rank : job.ranks)
        offsetsOfHost[rank.hostname];
    const bool correct = offsetsOfHost.size() > 1 && !offsetsOfHost.count("");
    if (correct)
        for (size_t i = 0; i < job.ranks.size(); ++i) {
            PLACESCOPE_RETURN_IF_ERROR(readRank(i));
            std::vector<int64_t> lags; // how much later than the earliest rank its collectives end
            for (const SpilledCollective& c : summary.collectives)
                lags.push_back(c.startNs + c.durationNs - minEnd[static_cast<size_t>(c.instance)]);
            offsetsOfHost[job.ranks[i].hostname].push_back(medianOf(std::move(lags)));
        }
    std::map<std::string, int64_t> hostOffset;
    int64_t earliest = INT64_MAX;
    for (const auto& [host, offsets] : offsetsOfHost)
        earliest = std::min(earliest, hostOffset[host] = correct ? medianOf(offsets) : 0);
    for (auto& [host, offset] : hostOffset) {
        offset -= earliest;
        job.hosts.push_back({ host, static_cast<int64_t>(offsetsOfHost[host].size()), offset });
    }
    if (!correct && offsetsOfHost.size() > 1)
        job.notes.push_back("some ranks name no host: clock offsets between hosts were not estimated");
    for (JobRank& rank : job.ranks)
        rank.clockOffsetNs = hostOffset[rank.hostname];

    // Pass 2b: arrivals on one clock.
    for (JobCollective& instance : job.collectives) {
        instance.firstArrivalNs = INT64_MAX;
        instance.lastArrivalNs = INT64_MIN;
        instance.secondLastArrivalNs = INT64_MIN;
        instance.transferNs = INT64_MAX;
    }
    for (size_t i = 0; i < job.ranks.size(); ++i) {
        PLACESCOPE_RETURN_IF_ERROR(readRank(i));
        const int64_t offset = job.ranks[i].clockOffsetNs;
        for (const RankStep& step : summary.steps) {
            JobCell& cell = job.cells[i][stepIndexOf[step.step]];
            cell.present = true;
            cell.startNs = step.startNs - offset;
            cell.durationNs = step.endNs - step.startNs;
            cell.computeNs = step.computeNs;
            cell.communicationNs = step.communicationNs;
            cell.copyNs = step.copyNs;
            cell.idleNs = step.idleNs;
        }
        for (const SpilledCollective& c : summary.collectives) {
            JobCollective& instance = job.collectives[static_cast<size_t>(c.instance)];
            const int64_t arrival = c.startNs - offset;
            ++instance.ranks;
            instance.firstArrivalNs = std::min(instance.firstArrivalNs, arrival);
            instance.transferNs = std::min(instance.transferNs, c.durationNs);
            if (arrival > instance.lastArrivalNs) { // ranks come in numeric order: ties keep the lowest rank
                instance.secondLastArrivalNs = instance.lastArrivalNs;
                instance.lastArrivalNs = arrival;
                instance.lastRank = job.ranks[i].rank;
            } else if (arrival > instance.secondLastArrivalNs) {
                instance.secondLastArrivalNs = arrival;
            }
        }
    }
    for (JobCollective& instance : job.collectives)
        if (instance.secondLastArrivalNs == INT64_MIN) // one rank only
            instance.secondLastArrivalNs = instance.lastArrivalNs;

    // Pass 3: waits, and each rank's chain of collectives for the straggler replay.
    CollectiveChains chains;
    chains.arrivalsOf.resize(job.collectives.size());
    for (size_t i = 0; i < job.ranks.size(); ++i) {
        PLACESCOPE_RETURN_IF_ERROR(readRank(i));
        JobRank& rank = job.ranks[i];
        addChain(job, summary, i, stepIndexOf, chains);
        for (const SpilledCollective& c : summary.collectives) {
            JobCollective& instance = job.collectives[static_cast<size_t>(c.instance)];
            const int64_t wait = instance.lastArrivalNs - (c.startNs - rank.clockOffsetNs);
            const bool last = wait == 0;
            ++rank.collectives;
            rank.totalWaitNs += wait;
            rank.timesLast += last ? 1 : 0;
            instance.totalWaitNs += wait;
            if (auto step = stepIndexOf.find(c.step); step != stepIndexOf.end()) {
                JobCell& cell = job.cells[i][step->second];
                cell.waitNs += wait;
                cell.timesLast += last ? 1 : 0;
            }
        }
    }

    // Steps: medians, the slowest rank, the culprit.
    for (size_t s = 0; s < job.steps.size(); ++s) {
        JobStep step;
        step.step = job.steps[s];
        std::vector<int64_t> starts, durations;
        for (size_t i = 0; i < job.ranks.size(); ++i) {
            const JobCell& cell = job.cells[i][s];
            if (!cell.present)
                continue;
            ++step.ranks;
            starts.push_back(cell.startNs);
            durations.push_back(cell.durationNs);
            step.totalWaitNs += cell.waitNs;
            if (cell.durationNs > step.slowestDurationNs) {
                step.slowestDurationNs = cell.durationNs;
                step.slowestRank = job.ranks[i].rank;
            }
            if (cell.timesLast > 0 && (step.culpritRank < 0 || cell.waitNs < step.culpritWaitNs)) {
                step.culpritRank = job.ranks[i].rank;
                step.culpritWaitNs = cell.waitNs;
            }
        }
        step.medianStartNs = medianOf(std::move(starts));
        step.medianDurationNs = medianOf(std::move(durations));
        for (const JobCollective& instance : job.collectives)
            if (instance.step == step.step) {
                step.maxSkewNs = std::max(step.maxSkewNs, instance.skewNs());
                if (instance.lastRank == step.culpritRank)
                    step.heldBackNs = std::max(step.heldBackNs, instance.heldBackNs());
            }
        if (step.culpritRank >= 0)
            ++job.ranks[rankIndexOf[step.culpritRank]].culpritSteps;
        job.stepSummaries.push_back(step);
    }

    for (auto& [name, accumulator] : kernels) {
        JobKernel kernel;
        kernel.name = name;
        kernel.ranks = accumulator.ranks;
        for (const auto& [duration, count] : accumulator.durations) {
            kernel.count += count;
            kernel.totalNs += duration * count;
        }
        if (accumulator.durations.empty())
            continue;
        kernel.minNs = accumulator.durations.begin()->first;
        kernel.maxNs = accumulator.durations.rbegin()->first;
        kernel.p50Ns = quantile(accumulator.durations, kernel.count, 0.50);
        kernel.p90Ns = quantile(accumulator.durations, kernel.count, 0.90);
        kernel.p99Ns = quantile(accumulator.durations, kernel.count, 0.99);
        job.kernels.push_back(std::move(kernel));
    }
    std::stable_sort(job.kernels.begin(), job.kernels.end(),
        [](const JobKernel& a, const JobKernel& b) { return a.totalNs > b.totalNs; });
    job.stragglerReplay = replayStragglerAsMedian(job, chains, jobStragglerRank(job));
    for (const JobCollective& instance : job.collectives)
        if (instance.groupSize > 0 && instance.ranks < instance.groupSize && job.missingRanks.empty()) {
            job.notes.push_back("some collectives were seen on fewer ranks than their group holds (group '"
                + instance.group + "', seq " + std::to_string(instance.seq) + ": " + std::to_string(instance.ranks)
                + " of " + std::to_string(instance.groupSize) + ")");
            break;
        }
    return job;
}

} // namespace placescope
