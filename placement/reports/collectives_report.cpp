// SPDX-License-Identifier: MIT
// collectives (HTA's / the TB plugin's NCCL summary): per collective kind, algorithm and protocol as NCCL's kernel
// names spell them ("ncclKernel_AllReduce_RING_LL_Sum_float", "ncclDevKernel_AllGather_RING_LL"), the count and time
// of the kernels. Bytes and bus bandwidth need the message sizes PyTorch records on record_param_comms ("In msg
// nelems", dtype, group size), which the importers do not keep yet: those columns stay empty and a note says so.
#include "placement/findings/device_timeline.h"
#include "placement/reports/report_math.h"
#include "placement/reports/reports.h"

#include <algorithm>
#include <map>
#include <regex>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace placescope {
namespace {

struct CollectiveName
{
    std::string kind, algorithm, protocol;
};

CollectiveName parseCollective(const std::string& name)
{
    static const std::regex kKernel(R"(nccl(?:Dev)?Kernel_([A-Za-z]+)(?:_([A-Za-z0-9_]+))?)");
    static const std::regex kAlgorithm(R"((^|_)(RING|TREE|COLLNET_DIRECT|COLLNET_CHAIN|COLLNET|NVLS_TREE|NVLS|PAT)(_|$))");
    static const std::regex kProtocol(R"((^|_)(LL128|LL|SIMPLE)(_|$))");
    CollectiveName out { "other", "", "" };
    std::smatch match;
    if (!std::regex_search(name, match, kKernel))
        return out;
    out.kind = match[1];
    const std::string rest = match[2];
    std::smatch part;
    if (std::regex_search(rest, part, kAlgorithm))
        out.algorithm = part[2];
    if (std::regex_search(rest, part, kProtocol))
        out.protocol = part[2];
    return out;
}

} // namespace

ReportTable collectivesReport(const ReportContext& ctx)
{
    struct Totals
    {
        int64_t count = 0, ns = 0;
    };
    std::map<std::tuple<std::string, std::string, std::string>, Totals> groups;
    std::unordered_map<int64_t, std::optional<CollectiveName>> parsed;
    for (const GpuOp& op : ctx.trace().gpuOps) {
        if (op.kind != GpuOp::Kind::Kernel || !ctx.inScope(op))
            continue;
        auto [it, inserted] = parsed.emplace(op.nameId, std::nullopt);
        if (inserted && isCommunicationKernel(ctx.trace().name(op.nameId)))
            it->second = parseCollective(ctx.trace().name(op.nameId));
        if (!it->second)
            continue;
        Totals& t = groups[{ it->second->kind, it->second->algorithm, it->second->protocol }];
        ++t.count;
        t.ns += op.durationNs();
    }
    std::vector<std::pair<std::tuple<std::string, std::string, std::string>, Totals>> rows(groups.begin(), groups.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.ns > b.second.ns; });
    ReportTable table;
    table.title = "Collectives by kind, algorithm and protocol (from NCCL kernel names)";
    table.columns = { { "collective", "Collective", ColumnKind::Text },
                      { "algorithm", "Algorithm", ColumnKind::Text },
                      { "protocol", "Protocol", ColumnKind::Text },
                      { "count", "Kernels", ColumnKind::Count },
                      { "total_ns", "Total", ColumnKind::Ns },
                      { "mean_ns", "Mean", ColumnKind::Ns },
                      { "bytes", "Bytes", ColumnKind::Bytes },
                      { "bus_gbps", "Bus GB/s", ColumnKind::Real } };
    for (const auto& [key, t] : rows) {
        const auto& [kind, algorithm, protocol] = key;
        auto text = [](const std::string& s) { return s.empty() ? ReportCell() : ReportCell(s); };
        table.rows.push_back({ kind, text(algorithm), text(protocol), t.count, t.ns, roundedMean(t.ns, t.count),
                               ReportCell(), ReportCell() });
    }
    if (rows.empty())
        table.notes.push_back("no communication kernels (NCCL, collectives) in scope");
    else
        table.notes.push_back("bytes and bus bandwidth need the message sizes of record_param_comms (In msg nelems, "
                              "dtype, group size), which the importers do not keep yet");
    return table;
}

} // namespace placescope
