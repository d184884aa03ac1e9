// SPDX-License-Identifier: MIT
#include "analysis/job/summarize_rank.h"

#include "analysis/reports/nccl_collective.h"
#include "analysis/trace/intervals.h"
#include "analysis/trace/kernel_class.h"
#include "analysis/trace/step_detector.h"
#include "analysis/trace/trace_data.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace placescope {
namespace {

// Union of intervals that arrive in start order, kept merged as they come.
struct RunningUnion
{
    IntervalList list;
    void add(int64_t startNs, int64_t endNs)
    {
        if (endNs <= startNs)
            return;
        if (list.empty() || startNs > list.back().endNs)
            list.push_back({ startNs, endNs });
        else
            list.back().endNs = std::max(list.back().endNs, endNs);
    }
};

struct StepLanes
{
    RunningUnion compute, communication, copies, any;
};

struct CollectiveMeta
{
    std::string group;
    int64_t seq = -1;
    std::string kind;
    int64_t bytes = -1;
    int64_t groupSize = -1;
};

// correlation id -> what the collective's framework op (record_param_comms) recorded.
Result<std::unordered_map<int64_t, CollectiveMeta>> collectiveMessages(SqliteDb& db)
{
    std::unordered_map<int64_t, CollectiveMeta> byCorrelation;
    if (!db.hasTable("PS_FRAMEWORK_OPS") || !db.hasTable("PS_EXTERNAL_CORRELATION"))
        return byCorrelation;
    PLACESCOPE_ASSIGN_OR_RETURN(auto stmt,
        db.prepare("SELECT x.correlationId, o.extra FROM PS_FRAMEWORK_OPS o JOIN PS_EXTERNAL_CORRELATION x "
                   "ON x.externalId = o.externalId WHERE o.extra LIKE '%Collective name%'"));
    while (stmt.step()) {
        const std::string extra = stmt.columnText(1);
        auto message = parseCollectiveMessage(extra);
        if (!message)
            continue;
        CollectiveMeta meta;
        meta.kind = ncclCollectiveKind(message->name);
        meta.bytes = collectiveBytes(*message);
        meta.groupSize = message->groupSize;
        meta.group = std::move(message->processGroup);
        meta.seq = message->seq;
        byCorrelation.emplace(stmt.columnInt(0), std::move(meta));
    }
    PLACESCOPE_RETURN_IF_ERROR(stmt.status());
    return byCorrelation;
}

Result<std::string> metaValue(SqliteDb& db, const std::string& key)
{
    if (!db.hasTable("PS_META"))
        return std::string();
    PLACESCOPE_ASSIGN_OR_RETURN(auto stmt, db.prepare("SELECT value FROM PS_META WHERE key = ?"));
    stmt.bind(1, std::string_view(key));
    std::string value = stmt.step() ? stmt.columnText(0) : std::string();
    PLACESCOPE_RETURN_IF_ERROR(stmt.status());
    return value;
}

} // namespace

std::string collectiveKindFromKernel(const std::string& kernelName)
{
    const std::string name = kernelName.substr(0, kernelName.find('('));
    for (const char* prefix : { "ncclDevKernel_", "ncclKernel_" })
        if (name.rfind(prefix, 0) == 0) {
            const size_t from = std::string(prefix).size();
            return name.substr(from, name.find('_', from) - from);
        }
    return name;
}

Result<RankSummary> summarizeRank(SqliteDb& db)
{
    PLACESCOPE_ASSIGN_OR_RETURN(TraceData trace, TraceData::load(db, TraceParts::ForReplay));
    RankSummary summary;
    std::set<int64_t> ranks;
    for (const ProcessRank& process : trace.ranks)
        if (process.rank >= 0)
            ranks.insert(process.rank);
    if (ranks.empty())
        return Status::error("the trace names no rank (Kineto's distributedInfo.rank)");
    if (ranks.size() > 1)
        return Status::error("the trace holds " + std::to_string(ranks.size()) + " ranks; give one file per rank");
    summary.rank = *ranks.begin();
    PLACESCOPE_ASSIGN_OR_RETURN(std::string worldSize, metaValue(db, "world_size"));
    if (!worldSize.empty() && worldSize.find_first_not_of("0123456789") == std::string::npos && worldSize.size() < 10)
        summary.worldSize = std::stoll(worldSize);
    if (db.hasTable("PS_PROCESSES")) {
        PLACESCOPE_ASSIGN_OR_RETURN(auto host,
            db.prepare("SELECT hostname FROM PS_PROCESSES WHERE hostname IS NOT NULL AND hostname != '' LIMIT 1"));
        if (host.step())
            summary.hostname = host.columnText(0);
        PLACESCOPE_RETURN_IF_ERROR(host.status());
    }

    StepSet steps = detectSteps(trace);
    std::vector<StepWindow> windows = steps.steps;
    std::sort(windows.begin(), windows.end(), [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
    const bool wholeTrace = windows.empty(); // no recorded or annotated steps: the GPU work's span is step 0
    std::vector<StepLanes> lanes(std::max<size_t>(windows.size(), 1));
    if (wholeTrace)
        windows.push_back({ 0, INT64_MAX, INT64_MIN, -1 });
    auto stepOf = [&windows](int64_t timeNs) -> int64_t {
        auto after = std::upper_bound(
            windows.begin(), windows.end(), timeNs, [](int64_t t, const StepWindow& w) { return t < w.startNs; });
        if (after == windows.begin())
            return -1;
        const auto index = static_cast<int64_t>(after - windows.begin()) - 1;
        return timeNs < windows[static_cast<size_t>(index)].endNs ? index : -1;
    };

    PLACESCOPE_ASSIGN_OR_RETURN(auto messages, collectiveMessages(db));
    std::map<int64_t, std::map<int64_t, int64_t>> durationsByName; // nameId -> duration -> count
    std::map<std::string, int64_t> nextSeq; // per group, when the trace has no "Seq"
    std::unordered_map<int64_t, GpuWorkClass> classOfName;
    PLACESCOPE_RETURN_IF_ERROR(forEachGpuOp(db, true, [&](const GpuOp& op) {
        if (wholeTrace) { // grow the one step to cover every GPU op
            windows[0].startNs = std::min(windows[0].startNs, op.startNs);
            windows[0].endNs = std::max(windows[0].endNs, op.endNs);
        }
        const int64_t step = wholeTrace ? 0 : stepOf(op.startNs);
        GpuWorkClass work = GpuWorkClass::Memcpy;
        if (op.kind == GpuOp::Kind::Kernel) {
            auto known = classOfName.find(op.nameId);
            if (known == classOfName.end())
                known = classOfName.emplace(op.nameId, classifyKernel(trace.name(op.nameId))).first;
            work = known->second;
            ++durationsByName[op.nameId][op.durationNs()];
        }
        if (step >= 0) {
            StepLanes& lane = lanes[static_cast<size_t>(step)];
            const int64_t end = std::min(op.endNs, windows[static_cast<size_t>(step)].endNs);
            lane.any.add(op.startNs, end);
            if (op.kind != GpuOp::Kind::Kernel)
                lane.copies.add(op.startNs, end);
            else if (work == GpuWorkClass::Communication)
                lane.communication.add(op.startNs, end);
            else
                lane.compute.add(op.startNs, end);
        }
        if (op.kind != GpuOp::Kind::Kernel || work != GpuWorkClass::Communication)
            return;
        RankCollective collective;
        collective.seq = -1; // none yet: the trace's "Seq", else the position in the group below
        if (auto meta = messages.find(op.correlationId); meta != messages.end()) {
            collective.group = meta->second.group;
            collective.seq = meta->second.seq;
            collective.kind = meta->second.kind;
            collective.bytes = meta->second.bytes;
            collective.groupSize = meta->second.groupSize;
        }
        if (collective.kind.empty())
            collective.kind = collectiveKindFromKernel(trace.name(op.nameId));
        int64_t& position = nextSeq[collective.group];
        ++position;
        if (collective.seq < 0)
            collective.seq = position;
        collective.step = step >= 0 ? windows[static_cast<size_t>(step)].stepNumber : -1;
        collective.startNs = op.startNs;
        collective.durationNs = op.durationNs();
        summary.collectives.push_back(std::move(collective));
    }));

    for (size_t i = 0; i < lanes.size() && i < windows.size(); ++i) {
        const StepWindow& window = windows[i];
        if (window.endNs <= window.startNs)
            continue; // a whole-trace step without GPU work
        const StepLanes& lane = lanes[i];
        RankStep step;
        step.step = window.stepNumber;
        step.startNs = window.startNs;
        step.endNs = window.endNs;
        step.computeNs = totalLength(lane.compute.list);
        const IntervalList exposed = subtractIntervals(lane.communication.list, lane.compute.list);
        step.communicationNs = totalLength(exposed);
        step.copyNs = totalLength(subtractIntervals(subtractIntervals(lane.copies.list, lane.compute.list), exposed));
        step.idleNs = (window.endNs - window.startNs) - totalLength(lane.any.list);
        summary.steps.push_back(step);
    }
    std::sort(
        summary.collectives.begin(), summary.collectives.end(), [](const RankCollective& a, const RankCollective& b) {
            return a.group != b.group ? a.group < b.group : a.seq < b.seq;
        });
    for (auto& [nameId, durations] : durationsByName)
        summary.kernels.push_back({ trace.name(nameId), { durations.begin(), durations.end() } });
    std::sort(summary.kernels.begin(), summary.kernels.end(),
        [](const KernelDurations& a, const KernelDurations& b) { return a.name < b.name; });
    return summary;
}

} // namespace placescope
