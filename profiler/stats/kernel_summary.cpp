// SPDX-License-Identifier: MIT
// Kernel summary (nsys cuda_gpu_kern_sum) in one plain scan of the kernel table, with no index of its own (an
// index used by this one command would cost every import its build): every name's durations are kept (8 bytes
// a kernel), totalled, and for the names shown sorted for their median and standard deviation.
#include "profiler/stats/trace_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace placescope {

namespace {

constexpr int64_t kNoName = std::numeric_limits<int64_t>::min(); // a kernel row whose name column is NULL

struct NameGroup
{
    int64_t nameId = kNoName;
    std::string name;
    DurationStats time;
};

Result<std::string> nameText(SqliteStatement& lookup, int64_t nameId)
{
    if (nameId == kNoName)
        return std::string("[unknown]");
    lookup.bind(1, nameId);
    std::string text = lookup.step() ? lookup.columnText(0) : std::string("[unknown]");
    lookup.reset();
    PLACESCOPE_RETURN_IF_ERROR(lookup.status());
    return text;
}

// Median (the mean of the middle two for an even count) and sample standard deviation; the squared deviations
// are summed in ascending duration order, as SQLite's TOTAL() over the old (name, duration) index did.
void fillDistribution(std::vector<int64_t>& durations, DurationStats& stats)
{
    std::sort(durations.begin(), durations.end());
    const size_t n = durations.size();
    if (n == 0)
        return;
    stats.medianNs = n % 2 ? static_cast<double>(durations[n / 2])
                           : (static_cast<double>(durations[n / 2 - 1]) + static_cast<double>(durations[n / 2])) / 2;
    if (n < 2)
        return;
    double squares = 0;
    for (int64_t duration : durations) {
        double deviation = static_cast<double>(duration) - stats.averageNs;
        squares += deviation * deviation;
    }
    stats.stddevNs = std::sqrt(squares / static_cast<double>(n - 1));
}

} // namespace

Result<KernelSummary> kernelSummary(SqliteDb& db, size_t topN, KernelNameKind nameKind)
{
    const std::string column = nameKind == KernelNameKind::Short ? "shortName" : "demangledName";
    std::unordered_map<int64_t, std::vector<int64_t>> durationsByName;
    PLACESCOPE_ASSIGN_OR_RETURN(
        SqliteStatement scan, db.prepare("SELECT " + column + ", end - start FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    int64_t lastName = kNoName;
    std::vector<int64_t>* lastDurations = nullptr; // kernels of one name often come in runs
    while (scan.step()) {
        int64_t nameId = scan.isNull(0) ? kNoName : scan.columnInt(0);
        if (!lastDurations || nameId != lastName) {
            lastName = nameId;
            lastDurations = &durationsByName[nameId];
        }
        lastDurations->push_back(scan.columnInt(1));
    }
    PLACESCOPE_RETURN_IF_ERROR(scan.status());

    KernelSummary summary;
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement lookup, db.prepare("SELECT value FROM StringIds WHERE id = ?1"));
    std::vector<NameGroup> groups;
    groups.reserve(durationsByName.size());
    for (const auto& [nameId, durations] : durationsByName) {
        NameGroup group;
        group.nameId = nameId;
        PLACESCOPE_ASSIGN_OR_RETURN(group.name, nameText(lookup, nameId));
        group.time.count = static_cast<int64_t>(durations.size());
        const auto [shortest, longest] = std::minmax_element(durations.begin(), durations.end());
        group.time.minNs = *shortest;
        group.time.maxNs = *longest;
        for (int64_t duration : durations)
            group.time.totalNs += duration;
        summary.kernelCount += group.time.count;
        summary.totalNs += group.time.totalNs;
        groups.push_back(std::move(group));
    }
    summary.distinctNames = static_cast<int64_t>(groups.size());
    std::sort(groups.begin(), groups.end(), [](const NameGroup& a, const NameGroup& b) {
        return a.time.totalNs != b.time.totalNs ? a.time.totalNs > b.time.totalNs : a.name < b.name;
    });
    if (topN > 0 && groups.size() > topN)
        groups.resize(topN);
    for (NameGroup& group : groups) {
        KernelSummaryRow row;
        row.name = std::move(group.name);
        row.time = group.time;
        row.time.averageNs = static_cast<double>(row.time.totalNs) / static_cast<double>(row.time.count);
        fillDistribution(durationsByName[group.nameId], row.time);
        row.timePercent = summary.totalNs ? 100.0 * static_cast<double>(row.time.totalNs) / summary.totalNs : 0;
        summary.rows.push_back(std::move(row));
    }
    return summary;
}

} // namespace placescope
