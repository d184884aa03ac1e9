// SPDX-License-Identifier: MIT
#include "analysis/job/job_tables.h"

#include "analysis/reports/nccl_collective.h"
#include "profiler/base/units.h"

#include <algorithm>
#include <map>

namespace placescope {
namespace {

ReportCell cell(int64_t value) { return ReportCell(value); }
ReportCell cellOrEmpty(int64_t value) { return value < 0 ? ReportCell() : ReportCell(value); }

std::string rankList(const std::vector<int64_t>& ranks)
{
    std::string text;
    for (size_t i = 0; i < ranks.size(); ++i) { // runs shown as a-b
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        text += (text.empty() ? "" : ", ") + std::to_string(ranks[i]);
        if (j > i)
            text += "-" + std::to_string(ranks[j]);
        i = j;
    }
    return text;
}

void addJobNotes(const JobReduction& job, const std::vector<std::string>& failedInputs, ReportTable& table)
{
    if (!job.missingRanks.empty())
        table.notes.push_back("missing ranks (no trace or its import failed): " + rankList(job.missingRanks) + " of "
            + std::to_string(job.worldSize));
    for (const std::string& failed : failedInputs)
        table.notes.push_back("not imported: " + failed);
    for (const std::string& note : job.notes)
        table.notes.push_back(note);
}

ReportTable stragglers(const JobReduction& job)
{
    ReportTable table;
    table.title = "Ranks: wait in collectives, times arrived last, steps as culprit";
    table.columns = { { "rank", "Rank", ColumnKind::Count }, { "host", "Host", ColumnKind::Text },
        { "collectives", "Collectives", ColumnKind::Count }, { "wait_ns", "Wait", ColumnKind::Ns },
        { "mean_wait_ns", "Mean wait", ColumnKind::Ns }, { "times_last", "Arrived last", ColumnKind::Count },
        { "culprit_steps", "Culprit of steps", ColumnKind::Count },
        { "clock_offset_ns", "Clock offset", ColumnKind::Ns } };
    for (const JobRank& rank : job.ranks)
        table.rows.push_back({ cell(rank.rank), rank.hostname, cell(rank.collectives), cell(rank.totalWaitNs),
            rank.collectives ? cell(rank.totalWaitNs / rank.collectives) : ReportCell(), cell(rank.timesLast),
            cell(rank.culpritSteps), cell(rank.clockOffsetNs) });
    table.notes.push_back(jobVerdict(job));
    return table;
}

ReportTable steps(const JobReduction& job)
{
    ReportTable table;
    table.title = "Steps: duration across ranks, the culprit rank (arrived last, waited least)";
    table.columns = { { "step", "Step", ColumnKind::Count }, { "ranks", "Ranks", ColumnKind::Count },
        { "median_duration_ns", "Median", ColumnKind::Ns }, { "slowest_rank", "Slowest rank", ColumnKind::Count },
        { "slowest_duration_ns", "Slowest", ColumnKind::Ns }, { "culprit_rank", "Culprit", ColumnKind::Count },
        { "culprit_wait_ns", "Culprit's wait", ColumnKind::Ns }, { "held_back_ns", "Held back", ColumnKind::Ns },
        { "max_skew_ns", "Max skew", ColumnKind::Ns }, { "wait_ns", "Wait (all ranks)", ColumnKind::Ns },
        { "straggler_at_median_saving_ns", "Saving if straggler at median", ColumnKind::Ns } };
    const StragglerReplay& replay = job.stragglerReplay;
    for (size_t s = 0; s < job.stepSummaries.size(); ++s) {
        const JobStep& step = job.stepSummaries[s];
        const bool replayed = replay.rank >= 0 && s < replay.replayedEndNs.size() && replay.replayedEndNs[s] >= 0;
        table.rows.push_back({ cell(step.step), cell(step.ranks), cell(step.medianDurationNs),
            cellOrEmpty(step.slowestRank), cell(step.slowestDurationNs), cellOrEmpty(step.culpritRank),
            step.culpritRank < 0 ? ReportCell() : cell(step.culpritWaitNs),
            step.culpritRank < 0 ? ReportCell() : cell(step.heldBackNs), cell(step.maxSkewNs), cell(step.totalWaitNs),
            replayed ? cell(replay.savingNs(s)) : ReportCell() });
    }
    if (replay.rank >= 0)
        table.notes.push_back("Saving if straggler at median: how much sooner the step's collectives end on every "
                              "rank when rank "
            + std::to_string(replay.rank) + "'s work before each collective takes the median rank's time (a replay of "
            + "the collectives)");
    return table;
}

ReportTable breakdown(const JobReduction& job)
{
    ReportTable table;
    table.title = "Rank x step: GPU time by kind, wait in collectives";
    table.columns = { { "rank", "Rank", ColumnKind::Count }, { "step", "Step", ColumnKind::Count },
        { "duration_ns", "Step time", ColumnKind::Ns }, { "compute_ns", "Compute", ColumnKind::Ns },
        { "communication_ns", "Exposed comm", ColumnKind::Ns }, { "copy_ns", "Copies", ColumnKind::Ns },
        { "idle_ns", "Idle", ColumnKind::Ns }, { "wait_ns", "Wait", ColumnKind::Ns },
        { "times_last", "Arrived last", ColumnKind::Count }, { "culprit", "Culprit", ColumnKind::Text } };
    for (size_t i = 0; i < job.ranks.size(); ++i)
        for (size_t s = 0; s < job.steps.size(); ++s) {
            const JobCell& c = job.cells[i][s];
            if (!c.present)
                continue;
            const bool culprit = job.stepSummaries[s].culpritRank == job.ranks[i].rank;
            table.rows.push_back({ cell(job.ranks[i].rank), cell(job.steps[s]), cell(c.durationNs), cell(c.computeNs),
                cell(c.communicationNs), cell(c.copyNs), cell(c.idleNs), cell(c.waitNs), cell(c.timesLast),
                std::string(culprit ? "yes" : "") });
        }
    return table;
}

ReportTable pacing(const JobReduction& job)
{
    ReportTable table;
    table.title = "Pacing: when each rank starts each step, against the median rank";
    table.columns = { { "rank", "Rank", ColumnKind::Count }, { "steps", "Steps", ColumnKind::Count },
        { "mean_start_delta_ns", "Mean start - median", ColumnKind::Ns },
        { "max_start_delta_ns", "Max start - median", ColumnKind::Ns },
        { "max_at_step", "At step", ColumnKind::Count } };
    for (size_t i = 0; i < job.ranks.size(); ++i) {
        int64_t count = 0, sum = 0, maxDelta = INT64_MIN, maxStep = -1;
        for (size_t s = 0; s < job.steps.size(); ++s) {
            const JobCell& c = job.cells[i][s];
            if (!c.present)
                continue;
            const int64_t delta = c.startNs - job.stepSummaries[s].medianStartNs;
            ++count;
            sum += delta;
            if (delta > maxDelta) {
                maxDelta = delta;
                maxStep = job.steps[s];
            }
        }
        ReportCell mean, latest, latestStep; // empty for a rank without steps
        if (count > 0) {
            mean = sum / count;
            latest = maxDelta;
            latestStep = maxStep;
        }
        table.rows.push_back({ cell(job.ranks[i].rank), cell(count), mean, latest, latestStep });
    }
    return table;
}

ReportTable collectives(const JobReduction& job)
{
    ReportTable table;
    table.title = "Collectives matched across ranks by process group and sequence number";
    table.columns = { { "group", "Group", ColumnKind::Text }, { "seq", "Seq", ColumnKind::Count },
        { "kind", "Kind", ColumnKind::Text }, { "step", "Step", ColumnKind::Count },
        { "ranks", "Ranks", ColumnKind::Count }, { "bytes", "Bytes", ColumnKind::Bytes },
        { "first_arrival_ns", "First arrival", ColumnKind::Timestamp }, { "skew_ns", "Skew", ColumnKind::Ns },
        { "last_rank", "Last rank", ColumnKind::Count }, { "held_back_ns", "Held back", ColumnKind::Ns },
        { "transfer_ns", "Transfer", ColumnKind::Ns }, { "wait_ns", "Wait (all ranks)", ColumnKind::Ns },
        { "algbw_gbps", "Alg GB/s", ColumnKind::Real }, { "busbw_gbps", "Bus GB/s", ColumnKind::Real } };
    table.originNs = INT64_MAX;
    for (const JobCollective& c : job.collectives) {
        table.originNs = std::min(table.originNs, c.firstArrivalNs);
        ReportCell algbw, busbw;
        if (c.bytes > 0 && c.transferNs > 0) { // from the transfer time alone: the skew is not the link's
            const double gbps = static_cast<double>(c.bytes) / static_cast<double>(c.transferNs);
            algbw = gbps;
            if (auto factor = busBandwidthFactor(c.kind, c.groupSize > 0 ? c.groupSize : c.ranks))
                busbw = gbps * *factor;
        }
        table.rows.push_back({ c.group, cell(c.seq), c.kind, cellOrEmpty(c.step), cell(c.ranks), cellOrEmpty(c.bytes),
            cell(c.firstArrivalNs), cell(c.skewNs()), cellOrEmpty(c.lastRank), cell(c.heldBackNs()), cell(c.transferNs),
            cell(c.totalWaitNs), algbw, busbw });
    }
    if (job.collectives.empty())
        table.originNs = 0;
    return table;
}

ReportTable kernels(const JobReduction& job)
{
    ReportTable table;
    table.title = "Kernels across ranks (exact quantiles over every instance)";
    table.columns = { { "name", "Kernel", ColumnKind::Text }, { "ranks", "Ranks", ColumnKind::Count },
        { "count", "Count", ColumnKind::Count }, { "total_ns", "Total", ColumnKind::Ns },
        { "min_ns", "Min", ColumnKind::Ns }, { "p50_ns", "Median", ColumnKind::Ns },
        { "p90_ns", "P90", ColumnKind::Ns }, { "p99_ns", "P99", ColumnKind::Ns }, { "max_ns", "Max", ColumnKind::Ns } };
    for (const JobKernel& k : job.kernels)
        table.rows.push_back({ k.name, cell(k.ranks), cell(k.count), cell(k.totalNs), cell(k.minNs), cell(k.p50Ns),
            cell(k.p90Ns), cell(k.p99Ns), cell(k.maxNs) });
    return table;
}

ReportTable clocks(const JobReduction& job)
{
    ReportTable table;
    table.title = "Clock offsets between hosts (from collective end times)";
    table.columns = { { "host", "Host", ColumnKind::Text }, { "ranks", "Ranks", ColumnKind::Count },
        { "offset_ns", "Offset", ColumnKind::Ns } };
    for (const JobHost& host : job.hosts)
        table.rows.push_back({ host.hostname, cell(host.ranks), cell(host.clockOffsetNs) });
    return table;
}

} // namespace

const std::vector<JobReportInfo>& jobReports()
{
    static const std::vector<JobReportInfo> kReports {
        { "stragglers", "per rank: wait in collectives, times arrived last, steps as culprit, clock offset" },
        { "steps", "per step: median and slowest rank, the culprit rank and how long it held the others back" },
        { "breakdown", "rank x step: compute, exposed communication, copies, idle, wait" },
        { "pacing", "per rank: when it starts each step against the median rank" },
        { "collectives", "every collective instance: arrival skew, last rank, transfer time, bandwidth" },
        { "kernels", "kernels across ranks with exact quantiles" },
        { "clocks", "clock offset of each host, estimated from collective end times" },
    };
    return kReports;
}

std::string jobReportNames()
{
    std::string names;
    for (const JobReportInfo& report : jobReports())
        names += (names.empty() ? "" : ", ") + report.name;
    return names;
}

std::optional<ReportTable> jobReportTable(
    const JobReduction& job, const std::string& name, const std::vector<std::string>& failedInputs)
{
    ReportTable table;
    if (name == "stragglers")
        table = stragglers(job);
    else if (name == "steps")
        table = steps(job);
    else if (name == "breakdown")
        table = breakdown(job);
    else if (name == "pacing")
        table = pacing(job);
    else if (name == "collectives")
        table = collectives(job);
    else if (name == "kernels")
        table = kernels(job);
    else if (name == "clocks")
        table = clocks(job);
    else
        return std::nullopt;
    addJobNotes(job, failedInputs, table);
    return table;
}

std::string jobVerdict(const JobReduction& job)
{
    std::map<int64_t, std::pair<int64_t, int64_t>> culprits; // rank -> (steps, most held back)
    int64_t stepsWithCollectives = 0;
    for (const JobStep& step : job.stepSummaries) {
        stepsWithCollectives += step.culpritRank >= 0 ? 1 : 0;
        if (step.culpritRank >= 0 && step.heldBackNs > 0) {
            auto& [count, heldBack] = culprits[step.culpritRank];
            ++count;
            heldBack = std::max(heldBack, step.heldBackNs);
        }
    }
    const int64_t straggler = jobStragglerRank(job);
    if (straggler < 0)
        return stepsWithCollectives
            ? "No rank held the others back: in every collective the last ranks arrived together"
            : "No collectives were matched across ranks";
    const auto& [steps, heldBack] = culprits[straggler];
    std::string text = "Rank " + std::to_string(straggler) + " arrived last and waited least in "
        + std::to_string(steps) + " of " + std::to_string(stepsWithCollectives)
        + " steps, holding the others back by up to " + formatNanoseconds(static_cast<double>(heldBack))
        + " per collective";
    text += steps > 1 ? " (it repeats: a straggler)" : " (once: not a repeating straggler)";
    if (culprits.size() > 1)
        text += "; " + std::to_string(culprits.size() - 1) + " other rank(s) were the culprit of some step";
    const StragglerReplay& replay = job.stragglerReplay;
    if (replay.rank == straggler && replay.stepsReplayed > 0)
        text += ". Were rank " + std::to_string(straggler) + " as fast as the median rank, each step's collectives "
            + "would end " + formatNanoseconds(static_cast<double>(replay.meanSavingNs)) + " sooner on every rank ("
            + (replay.stepsReplayed == 1 ? std::string("its one step")
                                         : "mean of " + std::to_string(replay.stepsReplayed) + " steps")
            + "; simulated by replaying the collectives with its work before each one cut to the median "
              "rank's, so every rank's wait shrinks; the replay as measured is off by at most "
            + formatNanoseconds(static_cast<double>(replay.maxReplayErrorNs))
            + ", and the ranks' own ends of a collective differ from its common end by up to "
            + formatNanoseconds(static_cast<double>(replay.maxEndDisagreementNs)) + ")";
    return text;
}

} // namespace placescope
