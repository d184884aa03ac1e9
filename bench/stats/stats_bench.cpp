// SPDX-License-Identifier: MIT
// stats_bench [kernels] [dir]: times `placescope stats`'s computation (computeTraceStats) on a synthetic trace
// with many kernels, against two baselines measured in the same run on the same file:
//   scan  - one SQL pass reading every kernel's duration (the least any summary must do);
//   naive - load every kernel/copy interval into memory, sort, merge, and sort durations per name for medians
//           (what a simple implementation does).
// and times the Chrome JSON export of the same trace against the scan (streaming: its RSS must stay flat).
// Prints the times, the ratios, and peak RSS.
#include "profiler/base/units.h"
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/stats/trace_stats.h"
#include "profiler/store/trace_file.h"
#include "profiler/store/trace_writer.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace placescope;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int64_t peakRssBytes()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<int64_t>(usage.ru_maxrss) * 1024; // Linux reports KiB
}

std::string seconds(double s) { return formatNanoseconds(s * 1e9); }

bool writeTrace(const std::string& path, int64_t kernels)
{
    auto writer = TraceWriter::create(path);
    if (!writer.isOk())
        return false;
    std::mt19937_64 random(42);
    std::vector<std::string> names;
    for (int i = 0; i < 400; ++i)
        names.push_back("void kernel_" + std::to_string(i) + "<float, 128>(float const*, float*, int)");
    std::vector<int64_t> streamClock(16, 0);
    for (int64_t i = 0; i < kernels; ++i) {
        KernelEvent k;
        k.deviceId = static_cast<int64_t>(i % 2);
        k.streamId = 7 + static_cast<int64_t>(random() % 8);
        int64_t& clock = streamClock[static_cast<size_t>(k.deviceId * 8 + k.streamId - 7)];
        clock += static_cast<int64_t>(random() % 3000);
        k.start = clock;
        k.end = clock + 1000 + static_cast<int64_t>(random() % 50000);
        clock = k.end;
        k.correlationId = i;
        k.demangledName = names[random() % names.size()];
        (*writer)->add(k);
        if (i % 10 == 0) {
            MemcpyEvent m;
            m.deviceId = k.deviceId;
            m.streamId = 3;
            m.start = k.start;
            m.end = k.start + 5000;
            m.bytes = 1 << 20;
            m.copyKind = 1;
            m.srcKind = static_cast<int64_t>(random() % 2);
            m.dstKind = 2;
            (*writer)->add(m);
        }
    }
    return (*writer)->commit().isOk();
}

// The naive way: everything in memory.
int64_t naiveStats(SqliteDb& db)
{
    std::map<int64_t, std::vector<int64_t>> byName;
    std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> byDevice;
    auto k = db.prepare("SELECT demangledName, deviceId, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL");
    while (k->step()) {
        byName[k->columnInt(0)].push_back(k->columnInt(3) - k->columnInt(2));
        byDevice[k->columnInt(1)].emplace_back(k->columnInt(2), k->columnInt(3));
    }
    auto m = db.prepare("SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY");
    while (m->step())
        byDevice[m->columnInt(0)].emplace_back(m->columnInt(1), m->columnInt(2));
    int64_t checksum = 0;
    for (auto& [name, durations] : byName) {
        std::sort(durations.begin(), durations.end());
        checksum += durations[durations.size() / 2];
    }
    for (auto& [device, intervals] : byDevice) {
        std::sort(intervals.begin(), intervals.end());
        int64_t runStart = intervals[0].first, runEnd = intervals[0].second;
        for (const auto& [start, end] : intervals) {
            if (start > runEnd) {
                checksum += runEnd - runStart;
                runStart = start;
            }
            runEnd = std::max(runEnd, end);
        }
        checksum += runEnd - runStart;
    }
    return checksum;
}

} // namespace

int main(int argc, char** argv)
{
    int64_t kernels = argc > 1 ? std::stoll(argv[1]) : 1000000;
    std::string dir = argc > 2 ? argv[2] : std::filesystem::temp_directory_path().string();
    std::string path = dir + "/stats_bench_" + std::to_string(kernels) + ".sqlite";
    auto start = std::chrono::steady_clock::now();
    if (!std::filesystem::exists(path) && !writeTrace(path, kernels)) {
        std::fprintf(stderr, "stats_bench: cannot write %s\n", path.c_str());
        return 1;
    }
    std::printf("trace: %s, %lld kernels (+%lld memcpys), %s, written in %s\n", path.c_str(),
        static_cast<long long>(kernels), static_cast<long long>(kernels / 10),
        formatBytes(static_cast<int64_t>(std::filesystem::file_size(path))).c_str(),
        seconds(secondsSince(start)).c_str());
    auto db = openTrace(path);
    if (!db.isOk()) {
        std::fprintf(stderr, "stats_bench: %s\n", db.status().message().c_str());
        return 1;
    }
    // Warm the page cache so every variant reads from memory.
    (void)db->queryInt("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");

    start = std::chrono::steady_clock::now();
    auto scan = db->queryInt("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    double scanSeconds = secondsSince(start);

    const int64_t rssBefore = peakRssBytes();
    start = std::chrono::steady_clock::now();
    auto stats = computeTraceStats(*db, { 20, KernelNameKind::Demangled });
    double statsSeconds = secondsSince(start);
    const int64_t rssStats = peakRssBytes();
    if (!stats.isOk() || !scan.isOk()) {
        std::fprintf(stderr, "stats_bench: %s\n", stats.status().message().c_str());
        return 1;
    }

    std::string json = path + ".json";
    start = std::chrono::steady_clock::now();
    auto exported = exportChromeTrace(*db, json);
    double exportSeconds = secondsSince(start);
    const int64_t rssExport = peakRssBytes();
    if (!exported.isOk()) {
        std::fprintf(stderr, "stats_bench: %s\n", exported.status().message().c_str());
        return 1;
    }
    std::filesystem::remove(json);
    std::printf("export (Chrome JSON)              : %s  = %.2fx the scan; %s, %.0f MB/s, %.0f events/s;"
                " peak RSS %s (+%s)\n",
        seconds(exportSeconds).c_str(), exportSeconds / scanSeconds,
        formatBytes(static_cast<int64_t>(exported->bytes)).c_str(),
        static_cast<double>(exported->bytes) / 1e6 / exportSeconds,
        static_cast<double>(exported->events) / exportSeconds, formatBytes(rssExport).c_str(),
        formatBytes(rssExport - rssStats).c_str());
    start = std::chrono::steady_clock::now();
    int64_t checksum = naiveStats(*db);
    double naiveSeconds = secondsSince(start);
    const int64_t rssNaive = peakRssBytes(); // last: it is the one that holds everything in memory

    std::printf("scan  (one SUM over kernels)      : %s\n", seconds(scanSeconds).c_str());
    std::printf("stats (computeTraceStats, top 20) : %s  = %.2fx the scan; peak RSS %s (+%s)\n",
        seconds(statsSeconds).c_str(), statsSeconds / scanSeconds, formatBytes(rssStats).c_str(),
        formatBytes(rssStats - rssBefore).c_str());
    std::printf("naive (all intervals in memory)   : %s  = %.2fx the scan; peak RSS %s (+%s)\n",
        seconds(naiveSeconds).c_str(), naiveSeconds / scanSeconds, formatBytes(rssNaive).c_str(),
        formatBytes(rssNaive - rssExport).c_str());
    std::printf("ratio naive / stats: %.2fx (checksum %lld, busy device 0 %s)\n", naiveSeconds / statsSeconds,
        static_cast<long long>(checksum), formatNanoseconds(static_cast<double>(stats->devices.at(0).busyNs)).c_str());

    return 0;
}
