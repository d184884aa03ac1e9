// SPDX-License-Identifier: MIT
// collectives (HTA's / the TB plugin's NCCL summary, with nccl-tests' bandwidths): per collective kind, algorithm,
// protocol, dtype, group size and message size, how many collectives ran, their time, the bytes they moved, and the
// algorithm and bus bandwidth. Algorithm and protocol come from NCCL's kernel names ("ncclKernel_AllReduce_RING_LL_
// Sum_float", "ncclDevKernel_AllGather_RING_LL"); the message from the op PyTorch recorded around the call
// (record_param_comms: "In msg nelems", dtype, group size; PS_FRAMEWORK_OPS.extra), which a kernel reaches through
// its launch's correlation id -> PS_EXTERNAL_CORRELATION -> the op with that external id in the same process.
// One collective is the kernels of one such op (usually one): its time runs from its first kernel's start to its
// last kernel's end. Kernels no op describes (nsys traces, older PyTorch) are one collective each, without sizes.
#include "analysis/reports/nccl_collective.h"
#include "analysis/reports/report_math.h"
#include "analysis/reports/reports.h"
#include "analysis/trace/device_timeline.h"
#include "profiler/model/global_ids.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace placescope {
namespace {

struct KernelCollective
{
    std::string kind, algorithm, protocol;
};

bool isLetter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool isWordChar(char c) { return isLetter(c) || (c >= '0' && c <= '9') || c == '_'; }

// nccl[Dev]Kernel_<Kind>[_<tokens>]: the kind, then the first algorithm and the first protocol among the '_'-separated
// tokens. Read by hand, not with std::regex, whose matching recursed once per character and died (SIGSEGV) on a
// 200 kB kernel name.
KernelCollective parseKernelName(const std::string& name)
{
    KernelCollective out { "other", "", "" };
    std::string_view rest;
    bool found = false;
    for (size_t at = name.find("nccl"); at != std::string::npos && !found; at = name.find("nccl", at + 1)) {
        size_t p = at + 4;
        if (name.compare(p, 3, "Dev") == 0)
            p += 3;
        if (name.compare(p, 7, "Kernel_") != 0)
            continue;
        p += 7;
        size_t kindEnd = p;
        while (kindEnd < name.size() && isLetter(name[kindEnd]))
            ++kindEnd;
        if (kindEnd == p)
            continue;
        found = true;
        out.kind = name.substr(p, kindEnd - p);
        if (kindEnd + 1 < name.size() && name[kindEnd] == '_' && isWordChar(name[kindEnd + 1])) {
            size_t restEnd = kindEnd + 1;
            while (restEnd < name.size() && isWordChar(name[restEnd]))
                ++restEnd;
            rest = std::string_view(name).substr(kindEnd + 1, restEnd - kindEnd - 1);
        }
    }
    if (!found)
        return out;
    std::vector<std::string_view> tokens;
    for (size_t begin = 0; begin <= rest.size();) {
        const size_t end = std::min(rest.find('_', begin), rest.size());
        tokens.push_back(rest.substr(begin, end - begin));
        begin = end + 1;
    }
    static const std::pair<std::string_view, std::string_view> kTwoTokenAlgorithms[]
        = { { "COLLNET", "DIRECT" }, { "COLLNET", "CHAIN" }, { "NVLS", "TREE" } };
    static const std::string_view kAlgorithms[] = { "RING", "TREE", "COLLNET", "NVLS", "PAT" };
    static const std::string_view kProtocols[] = { "LL128", "LL", "SIMPLE" };
    for (size_t i = 0; i < tokens.size() && out.algorithm.empty(); ++i) {
        for (const auto& [first, second] : kTwoTokenAlgorithms)
            if (tokens[i] == first && i + 1 < tokens.size() && tokens[i + 1] == second && out.algorithm.empty())
                out.algorithm = std::string(first) + "_" + std::string(second);
        for (std::string_view algorithm : kAlgorithms)
            if (tokens[i] == algorithm && out.algorithm.empty())
                out.algorithm = algorithm;
    }
    for (size_t i = 0; i < tokens.size() && out.protocol.empty(); ++i)
        for (std::string_view protocol : kProtocols)
            if (tokens[i] == protocol && out.protocol.empty())
                out.protocol = protocol;
    return out;
}

// One collective: the kernels of one recorded op, or one kernel no op describes.
struct Collective
{
    const KernelCollective* kernel = nullptr; // of its first kernel
    const CollectiveMessage* message = nullptr;
    int64_t startNs = 0, endNs = 0, kernels = 0;
};

// kind, algorithm, protocol, dtype, ranks, bytes of one collective (-1: unknown)
using GroupKey = std::tuple<std::string, std::string, std::string, std::string, int64_t, int64_t>;

struct GroupTotals
{
    int64_t count = 0, kernels = 0, ns = 0;
};

} // namespace

ReportTable collectivesReport(const ReportContext& ctx)
{
    const TraceData& trace = ctx.trace();
    // The recorded messages by (process, external id).
    std::map<std::pair<int64_t, int64_t>, CollectiveMessage> messages;
    for (const HostRange& r : trace.hostRanges)
        if (!r.isNvtx && r.externalId >= 0 && !r.extra.empty())
            if (auto message = parseCollectiveMessage(r.extra))
                messages.emplace(std::pair { pidOfGlobalId(r.globalTid), r.externalId }, std::move(*message));

    std::unordered_map<int64_t, std::optional<KernelCollective>> parsed; // name id -> NCCL kernel, none if not one
    std::map<std::pair<int64_t, int64_t>, Collective> described; // (process, external id) -> its kernels
    std::vector<Collective> undescribed;
    for (const GpuOp& op : trace.gpuOps) {
        if (op.kind != GpuOp::Kind::Kernel || !ctx.inScope(op))
            continue;
        auto [it, inserted] = parsed.emplace(op.nameId, std::nullopt);
        if (inserted && isCommunicationKernel(trace.name(op.nameId)))
            it->second = parseKernelName(trace.name(op.nameId));
        if (!it->second)
            continue;
        const CollectiveMessage* message = nullptr;
        std::pair<int64_t, int64_t> key;
        if (op.correlationId >= 0) {
            auto external
                = trace.externalIdOfCorrelation.find(TraceData::correlationKey(op.globalPid, op.correlationId));
            if (external != trace.externalIdOfCorrelation.end()) {
                key = { pidOfGlobalId(op.globalPid), external->second };
                if (auto m = messages.find(key); m != messages.end())
                    message = &m->second;
            }
        }
        if (!message) {
            undescribed.push_back({ &*it->second, nullptr, op.startNs, op.endNs, 1 });
            continue;
        }
        auto [c, first] = described.emplace(key, Collective { &*it->second, message, op.startNs, op.endNs, 0 });
        c->second.startNs = std::min(c->second.startNs, op.startNs);
        c->second.endNs = std::max(c->second.endNs, op.endNs);
        ++c->second.kernels;
    }

    std::map<GroupKey, GroupTotals> groups;
    auto add = [&groups](const Collective& c) {
        const CollectiveMessage* m = c.message;
        // The message names the collective the user called (an all_to_all runs as SendRecv kernels).
        GroupKey key { m ? ncclCollectiveKind(m->name) : c.kernel->kind, c.kernel->algorithm, c.kernel->protocol,
            m ? m->dtype : "", m ? m->groupSize : -1, m ? collectiveBytes(*m) : -1 };
        GroupTotals& t = groups[key];
        ++t.count;
        t.kernels += c.kernels;
        t.ns += c.endNs - c.startNs;
    };
    for (const auto& [key, c] : described)
        add(c);
    for (const Collective& c : undescribed)
        add(c);

    std::vector<std::pair<GroupKey, GroupTotals>> rows(groups.begin(), groups.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.ns > b.second.ns; });
    ReportTable table;
    table.title = "Collectives by kind and message size (bandwidths as nccl-tests computes them)";
    table.columns = { { "collective", "Collective", ColumnKind::Text }, { "algorithm", "Algorithm", ColumnKind::Text },
        { "protocol", "Protocol", ColumnKind::Text }, { "dtype", "Dtype", ColumnKind::Text },
        { "ranks", "Ranks", ColumnKind::Count }, { "message_bytes", "Message", ColumnKind::Bytes },
        { "count", "Count", ColumnKind::Count }, { "kernels", "Kernels", ColumnKind::Count },
        { "total_ns", "Total", ColumnKind::Ns }, { "mean_ns", "Mean", ColumnKind::Ns },
        { "bytes", "Bytes", ColumnKind::Bytes }, { "alg_gbps", "Alg GB/s", ColumnKind::Real },
        { "bus_gbps", "Bus GB/s", ColumnKind::Real } };
    int64_t unsized = 0;
    for (const auto& [key, t] : rows) {
        const auto& [kind, algorithm, protocol, dtype, ranks, bytes] = key;
        auto text = [](const std::string& s) { return s.empty() ? ReportCell() : ReportCell(s); };
        ReportCell total, alg, bus;
        if (bytes >= 0) {
            total = bytes * t.count;
            if (t.ns > 0) {
                // bytes per ns is GB/s (10^9 bytes per second), as nccl-tests prints it: algbw = S / t.
                const double algbw = static_cast<double>(bytes * t.count) / static_cast<double>(t.ns);
                alg = algbw;
                if (auto factor = busBandwidthFactor(kind, ranks))
                    bus = algbw * *factor;
            }
        } else {
            unsized += t.count;
        }
        table.rows.push_back({ kind, text(algorithm), text(protocol), text(dtype), nullIfNegative(ranks),
            nullIfNegative(bytes), t.count, t.kernels, t.ns, roundedMean(t.ns, t.count), total, alg, bus });
    }
    if (rows.empty())
        table.notes.push_back("no communication kernels (NCCL, collectives) in scope");
    if (unsized > 0)
        table.notes.push_back(std::to_string(unsized)
            + " collective(s) without a message size: no record_param_comms "
              "op with In/Out msg nelems and dtype reaches their kernels (nsys traces, older PyTorch, "
              "or an unknown dtype)");
    if (!rows.empty())
        table.notes.push_back("bus GB/s = alg GB/s x AllReduce 2(n-1)/n, AllGather/ReduceScatter/AllToAll (n-1)/n, "
                              "Broadcast/Reduce 1 (nccl-tests doc/PERFORMANCE.md); message = the larger of in and out");
    return table;
}

} // namespace placescope
