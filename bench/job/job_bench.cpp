// SPDX-License-Identifier: MIT
// job_bench [--ranks N] [--steps S] [--sample K] [--dask]: the figures issue 29 sets for `placescope job`, each printed
// with a baseline measured in the same run:
//   map        MB/s of Kineto JSON per core into trace + summary (`job map`, one process), against `placescope import`
//              of the same file; its peak RSS against import's. On one large synthetic rank.
//   reduce     `job report JOB steps` over N ranks x S steps (default 4,096 x 20): wall time and peak RSS, against
//              reading the summaries' bytes once (the I/O floor).
//   engine     `job import -j 1` on K ranks against running the same K `job map` processes one after another
//              directly: the difference per rank is the engine's overhead; with --dask also a LocalCluster of 2.
#include "bench/common/child_run.h"
#include "tests/support/job/synthetic_job.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using placescope::bench::ChildRun;
using placescope::bench::runInChild;

const std::string kPlacescope = std::string(PLACESCOPE_BIN_DIR) + "/placescope";

ChildRun runCommand(std::vector<std::string> args)
{
    std::fflush(stdout); // or the child's stdio would print what the parent had buffered a second time
    return runInChild([&args]() -> int {
        std::vector<char*> argv;
        for (std::string& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        const int devNull = open("/dev/null", O_WRONLY);
        if (devNull < 0 || dup2(devNull, STDOUT_FILENO) < 0)
            return 126;
        execvp(argv[0], argv.data());
        return 127;
    });
}

double mib(int64_t bytes) { return static_cast<double>(bytes) / (1 << 20); }

void require(const ChildRun& run, const char* what)
{
    if (!run.ok) {
        std::fprintf(stderr, "job_bench: %s failed\n", what);
        std::exit(1);
    }
}

} // namespace

int main(int argc, char** argv)
{
    int ranks = 4096, steps = 20, sample = 64;
    bool dask = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--dask")
            dask = true;
        else if (i + 1 < argc && arg == "--ranks")
            ranks = std::atoi(argv[++i]);
        else if (i + 1 < argc && arg == "--steps")
            steps = std::atoi(argv[++i]);
        else if (i + 1 < argc && arg == "--sample")
            sample = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: job_bench [--ranks N] [--steps S] [--sample K] [--dask]\n");
            return 2;
        }
    }
    const fs::path dir = fs::temp_directory_path() / ("placescope_job_bench_" + std::to_string(::getpid()));
    fs::remove_all(dir);

    // Map throughput and memory on one large rank (200 x the steps: tens of MB).
    placescope::testing::SyntheticJobSpec big;
    big.ranks = 1;
    big.steps = steps * 200;
    big.collectivesPerStep = 3;
    const std::vector<std::string> bigFile = placescope::testing::writeSyntheticJob(big, (dir / "big").string());
    const int64_t bigBytes = static_cast<int64_t>(fs::file_size(bigFile[0]));
    const ChildRun import
        = runCommand({ kPlacescope, "import", bigFile[0], "-o", (dir / "big.sqlite").string(), "-q" });
    require(import, "import");
    const ChildRun map = runCommand({ kPlacescope, "job", "map", bigFile[0], "-o", (dir / "bigjob").string() });
    require(map, "job map");
    const double mapMBps = static_cast<double>(bigBytes) / 1e6 / map.seconds;
    const double importMBps = static_cast<double>(bigBytes) / 1e6 / import.seconds;
    std::printf("map: one rank of %.1f MB JSON (%d steps)\n", static_cast<double>(bigBytes) / 1e6, big.steps);
    std::printf("  job map  %.1f MB/s per core, peak %.1f MiB   (target >= 100 MB/s, <= 256 MiB)\n", mapMBps,
        mib(map.peakBytes));
    std::printf("  import   %.1f MB/s per core, peak %.1f MiB   (baseline)\n", importMBps, mib(import.peakBytes));
    std::printf("  ratio    %.2fx the throughput, %.2fx the memory of import\n", mapMBps / importMBps,
        static_cast<double>(map.peakBytes) / static_cast<double>(import.peakBytes));

    // The job: N ranks x S steps, mapped by the local engine on every core.
    placescope::testing::SyntheticJobSpec spec;
    spec.ranks = ranks;
    spec.steps = steps;
    spec.stragglerRank = ranks / 3;
    spec.stragglerDelayNs = 2'000'000;
    const std::vector<std::string> inputs = placescope::testing::writeSyntheticJob(spec, (dir / "in").string());
    std::vector<std::string> importArgs { kPlacescope, "job", "import" };
    importArgs.insert(importArgs.end(), inputs.begin(), inputs.end());
    importArgs.insert(importArgs.end(), { "-o", (dir / "job").string(), "-q" });
    const ChildRun mapped = runCommand(importArgs);
    require(mapped, "job import");
    std::printf("job import: %d ranks x %d steps in %.1f s on %ld cores (%.1f ms per rank per core)\n", ranks, steps,
        mapped.seconds, sysconf(_SC_NPROCESSORS_ONLN),
        1e3 * mapped.seconds * static_cast<double>(sysconf(_SC_NPROCESSORS_ONLN)) / ranks);

    // Reduce against the I/O floor.
    std::fflush(stdout);
    const ChildRun floor = runInChild([&dir]() -> int {
        int64_t total = 0;
        std::vector<char> buffer(1 << 16);
        for (const auto& entry : fs::directory_iterator(dir / "job" / "ranks"))
            if (entry.path().string().find(".summary.json") != std::string::npos) {
                std::ifstream file(entry.path(), std::ios::binary);
                while (file.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || file.gcount() > 0)
                    total += file.gcount();
            }
        return total > 0 ? 0 : 1;
    });
    require(floor, "reading the summaries");
    const ChildRun reduce = runCommand({ kPlacescope, "job", "report", (dir / "job").string(), "steps" });
    require(reduce, "job report");
    std::printf("reduce: %d ranks x %d steps\n", ranks, steps);
    std::printf("  job report steps  %.2f s, peak %.1f MiB   (target < 10 s, <= 256 MiB)\n", reduce.seconds,
        mib(reduce.peakBytes));
    std::printf("  read summaries    %.2f s, peak %.1f MiB   (baseline: the bytes once)\n", floor.seconds,
        mib(floor.peakBytes));
    std::printf("  ratio             %.1fx the I/O floor's time\n", reduce.seconds / floor.seconds);

    // Engine overhead: the same K map tasks directly, then through the engine(s).
    const std::vector<std::string> some(inputs.begin(), inputs.begin() + std::min<size_t>(sample, inputs.size()));
    const auto direct = std::chrono::steady_clock::now();
    for (const std::string& input : some)
        require(runCommand({ kPlacescope, "job", "map", input, "-o", (dir / "direct").string() }), "job map");
    const double directSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - direct).count();
    auto engine = [&](const std::string& name, const std::vector<std::string>& extra) {
        std::vector<std::string> args { kPlacescope, "job", "import" };
        args.insert(args.end(), some.begin(), some.end());
        args.insert(args.end(), { "-o", (dir / name).string(), "-q" });
        args.insert(args.end(), extra.begin(), extra.end());
        const ChildRun run = runCommand(args);
        require(run, name.c_str());
        return run.seconds;
    };
    const double local = engine("local1", { "-j", "1" });
    std::printf("engine: %zu ranks\n", some.size());
    std::printf("  direct job map, one after another  %.3f s (baseline)\n", directSeconds);
    std::printf("  job import -j 1                    %.3f s: %+.2f ms per rank (target <= 10 ms)\n", local,
        1e3 * (local - directSeconds) / static_cast<double>(some.size()));
    if (dask) {
        const double onDask = engine("dask", { "--dask-local", "2" });
        std::printf("  job import --dask-local 2          %.3f s: %+.2f ms per rank against direct/2 (cluster start "
                    "included)\n",
            onDask, 1e3 * (onDask - directSeconds / 2) / static_cast<double>(some.size()));
    }
    fs::remove_all(dir);
    return 0;
}
