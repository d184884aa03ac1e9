// SPDX-License-Identifier: MIT
// import_bench [--trace FILE] [--xplane FILE] [--ort FILE] [--rounds N] [--synthetic EVENTS] [--dir DIR]
// Times `placescope import` of a real Kineto trace (default: the 53.7 MB V100 trace in ../shared/traces)
// against the baseline measured in the same run on the same file: python3 -c 'json.load(gzip.open(f))', a
// parse that builds nothing. Each side runs in its own child process, interleaved, so peak RSS is the
// child's own (wait4). Prints the speed ratio (goal: >= 4x), peak RSS over the uncompressed JSON size
// (goal: < 2x), and bytes per event in the store. With --synthetic it also writes a gzipped synthetic trace
// of that many events (10M in the issue) and imports it, printing time, peak RSS and bytes per event. Then it
// imports an XPlane file (default: the TensorFlow BERT capture in ../shared/traces) interleaved with the same capture
// written as Kineto JSON (scripts/xplane_to_kineto.py: the same kernels, copies, calls, ops, memory events and
// links, so both imports write the same rows and pay the same fixed costs) and prints both per-event rates and their
// ratio (goal: XPlane at least as fast per event as Kineto). It prints the same against the Kineto trace above, where
// the two files differ twelvefold in size and the fixed cost of creating and committing a trace weighs on the smaller,
// and for an ONNX Runtime profile (default: the ultraface profile in tests/data/traces) against that trace.
#include "bench/common/best_of_rounds.h"
#include "profiler/base/units.h"
#include "profiler/importers/common/byte_source.h"
#include "profiler/importers/importer.h"
#include "synthetic_kineto.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

using namespace placescope;

namespace {

using bench::ChildRun;
using bench::runInChild;

uint64_t uncompressedBytes(const std::string& path)
{
    auto source = ByteSource::open(path);
    if (!source.isOk())
        return 0;
    std::vector<char> buffer(1 << 20);
    uint64_t total = 0;
    for (;;) {
        auto n = (*source)->read(buffer.data(), buffer.size());
        if (!n.isOk() || *n == 0)
            break;
        total += *n;
    }
    return total;
}

// The import as `placescope import` does it, in the process started by runImport; the event count goes to
// `eventsFile` for the parent to read.
int importChild(const std::string& input, const std::string& output, const std::string& eventsFile)
{
    std::filesystem::remove(output);
    auto summary = importTraces({ input }, output, {});
    if (!summary.isOk()) {
        std::fprintf(stderr, "import failed: %s\n", summary.status().message().c_str());
        return 1;
    }
    if (FILE* f = std::fopen(eventsFile.c_str(), "w")) {
        std::fprintf(f, "%llu\n", static_cast<unsigned long long>(summary->events));
        std::fclose(f);
    }
    return 0;
}

// Runs importChild in a fresh process: this program again, with --import-child.
int runImport(const std::string& input, const std::string& output, const std::string& eventsFile)
{
    execl("/proc/self/exe", "import_bench", "--import-child", input.c_str(), output.c_str(), eventsFile.c_str(),
        static_cast<char*>(nullptr));
    return 127;
}

uint64_t readCount(const std::string& path)
{
    unsigned long long value = 0;
    if (FILE* f = std::fopen(path.c_str(), "r")) {
        if (std::fscanf(f, "%llu", &value) != 1)
            value = 0;
        std::fclose(f);
    }
    return value;
}

int pythonChild(const std::string& input)
{
    execlp("python3", "python3", "-c", "import gzip, json, sys; json.load(gzip.open(sys.argv[1]))", input.c_str(),
        static_cast<char*>(nullptr));
    return 127;
}

bool benchRealTrace(const std::string& trace, int rounds, const std::string& dir)
{
    const uint64_t jsonBytes = uncompressedBytes(trace);
    const std::string output = dir + "/real.sqlite";
    const std::string eventsFile = dir + "/real.events";
    const auto best = bench::bestOfRounds("import_bench", rounds,
        { { "import", [&] { return runImport(trace, output, eventsFile); } },
            { "python3", [&] { return pythonChild(trace); } } });
    if (!best)
        return false;
    const ChildRun& bestImport = (*best)[0].fastest;
    const ChildRun& bestPython = (*best)[1].fastest;
    const int64_t importPeak = (*best)[0].largestPeakBytes, pythonPeak = (*best)[1].largestPeakBytes;
    const uint64_t events = readCount(eventsFile);
    const double jsonMb = static_cast<double>(jsonBytes) / 1e6; // for the decimal MB/s rates
    const auto storeBytes = static_cast<int64_t>(std::filesystem::file_size(output));
    std::printf("import_bench: %s (%s of JSON, %llu events), best of %d interleaved rounds\n",
        std::filesystem::path(trace).filename().c_str(), formatBytes(static_cast<int64_t>(jsonBytes)).c_str(),
        static_cast<unsigned long long>(events), rounds);
    std::printf("  placescope import:                %s (%.0f MB/s of JSON), peak RSS %s\n",
        formatNanoseconds(bestImport.seconds * 1e9).c_str(), jsonMb / bestImport.seconds,
        formatBytes(importPeak).c_str());
    std::printf("  python3 json.load(gzip.open(f)):  %s (%.0f MB/s), peak RSS %s\n",
        formatNanoseconds(bestPython.seconds * 1e9).c_str(), jsonMb / bestPython.seconds,
        formatBytes(pythonPeak).c_str());
    std::printf("  ratio python / import:            %.2fx (goal >= 4x)\n", bestPython.seconds / bestImport.seconds);
    std::printf("  peak RSS / uncompressed JSON:     %.2fx (goal < 2x)\n",
        static_cast<double>(importPeak) / static_cast<double>(jsonBytes));
    std::printf("  store: %s, %.0f bytes per event\n", formatBytes(storeBytes).c_str(),
        events ? static_cast<double>(storeBytes) / static_cast<double>(events) : 0.0);
    return true;
}

bool benchSynthetic(uint64_t targetEvents, const std::string& dir)
{
    const std::string input = dir + "/synthetic.json.gz";
    const std::string output = dir + "/synthetic.sqlite";
    const std::string eventsFile = dir + "/synthetic.events";
    bench::SyntheticTrace written;
    if (!bench::writeSyntheticKinetoTrace(input, targetEvents, &written)) {
        std::fprintf(stderr, "import_bench: cannot write %s\n", input.c_str());
        return false;
    }
    ChildRun import = runInChild([&] { return runImport(input, output, eventsFile); });
    if (!import.ok) {
        std::fprintf(stderr, "import_bench: synthetic import failed\n");
        return false;
    }
    const uint64_t events = readCount(eventsFile);
    const double storeBytes = static_cast<double>(std::filesystem::file_size(output));
    std::printf("synthetic: %llu events written (%s of JSON, %s gzipped), %llu imported\n",
        static_cast<unsigned long long>(written.events),
        formatBytes(static_cast<int64_t>(written.uncompressedBytes)).c_str(),
        formatBytes(static_cast<int64_t>(std::filesystem::file_size(input))).c_str(),
        static_cast<unsigned long long>(events));
    std::printf("  import: %s (%.2f M events/s), peak RSS %s (%.3fx the JSON), store %.0f bytes per event\n",
        formatNanoseconds(import.seconds * 1e9).c_str(), events / import.seconds / 1e6,
        formatBytes(import.peakBytes).c_str(),
        static_cast<double>(import.peakBytes) / static_cast<double>(written.uncompressedBytes),
        events ? storeBytes / events : 0.0);
    std::filesystem::remove(input);
    std::filesystem::remove(output);
    return true;
}

// Another format's import (XPlane, ONNX Runtime) and a Kineto import in interleaved rounds: events per second of
// each, from the best round of each, and their ratio; `goal` follows the ratio when the two hold the same events.
bool benchFormatAgainstKinetoPerEvent(const char* format, const std::string& file, const std::string& kineto,
    const char* kinetoIs, const char* goal, int rounds, const std::string& dir)
{
    const std::string otherOut = dir + "/" + format + ".sqlite", otherEvents = dir + "/" + format + ".events";
    const std::string kinetoOut = dir + "/kineto.sqlite", kinetoEvents = dir + "/kineto.events";
    const auto best = bench::bestOfRounds("import_bench", rounds,
        { { format, [&] { return runImport(file, otherOut, otherEvents); } },
            { "kineto", [&] { return runImport(kineto, kinetoOut, kinetoEvents); } } });
    if (!best)
        return false;
    const double otherSeconds = (*best)[0].fastest.seconds, kinetoSeconds = (*best)[1].fastest.seconds;
    const double otherRate = static_cast<double>(readCount(otherEvents)) / otherSeconds;
    const double kinetoRate = static_cast<double>(readCount(kinetoEvents)) / kinetoSeconds;
    std::printf("%s vs kineto (%s), best of %d interleaved rounds:\n", format, kinetoIs, rounds);
    std::printf("  %s %s: %llu events in %s (%.2f M events/s)\n", format,
        std::filesystem::path(file).filename().c_str(), static_cast<unsigned long long>(readCount(otherEvents)),
        formatNanoseconds(otherSeconds * 1e9).c_str(), otherRate / 1e6);
    std::printf("  kineto %s: %llu events in %s (%.2f M events/s)\n", std::filesystem::path(kineto).filename().c_str(),
        static_cast<unsigned long long>(readCount(kinetoEvents)), formatNanoseconds(kinetoSeconds * 1e9).c_str(),
        kinetoRate / 1e6);
    std::printf("  ratio %s / kineto per event:   %.2fx%s\n", format, otherRate / kinetoRate, goal);
    return true;
}

// scripts/xplane_to_kineto.py: the XPlane capture's events as a Kineto trace, read with protoc, not our importer.
bool writeXPlaneAsKineto(const std::string& xplane, const std::string& out)
{
    const std::string script = std::string(PLACESCOPE_SOURCE_DIR) + "/scripts/xplane_to_kineto.py";
    const ChildRun run = runInChild([&] {
        if (!std::freopen("/dev/null", "w", stdout)) // the script names what it wrote
            return 1;
        execlp("python3", "python3", script.c_str(), xplane.c_str(), out.c_str(), static_cast<char*>(nullptr));
        return 127;
    });
    if (!run.ok)
        std::fprintf(
            stderr, "import_bench: %s could not write %s (needs python3 and protoc)\n", script.c_str(), out.c_str());
    return run.ok;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc == 5 && std::string(argv[1]) == "--import-child")
        return importChild(argv[2], argv[3], argv[4]);
    std::string trace = std::string(PLACESCOPE_SOURCE_DIR) + "/../shared/traces/hta_v100_rank1of2_memory.json.gz";
    std::string dir = std::filesystem::temp_directory_path() / "placescope_import_bench";
    std::string xplane = std::string(PLACESCOPE_SOURCE_DIR) + "/../shared/traces/tf_bert_v100x8_multiworker.xplane.pb";
    std::string ort = std::string(PLACESCOPE_SOURCE_DIR) + "/tests/data/traces/ort130_ultraface_rfb320_cpu.json";
    int rounds = 3;
    uint64_t synthetic = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string flag = argv[i];
        if (flag == "--trace")
            trace = argv[i + 1];
        else if (flag == "--xplane")
            xplane = argv[i + 1];
        else if (flag == "--ort")
            ort = argv[i + 1];
        else if (flag == "--rounds")
            rounds = std::max(1, std::atoi(argv[i + 1]));
        else if (flag == "--synthetic")
            synthetic = std::strtoull(argv[i + 1], nullptr, 10);
        else if (flag == "--dir")
            dir = argv[i + 1];
        else {
            std::fprintf(stderr,
                "usage: import_bench [--trace FILE] [--xplane FILE] [--ort FILE] [--rounds N] [--synthetic EVENTS] "
                "[--dir DIR]\n");
            return 2;
        }
    }
    std::filesystem::create_directories(dir);
    if (!std::filesystem::exists(trace)) {
        std::fprintf(stderr, "import_bench: %s: no such trace (give --trace FILE)\n", trace.c_str());
        return 1;
    }
    bool ok = benchRealTrace(trace, rounds, dir);
    if (ok && synthetic > 0)
        ok = benchSynthetic(synthetic, dir);
    if (ok && std::filesystem::exists(xplane)) {
        const std::string sameEvents = dir + "/xplane_as_kineto.json.gz";
        ok = writeXPlaneAsKineto(xplane, sameEvents)
            && benchFormatAgainstKinetoPerEvent("xplane", xplane, sameEvents,
                "the same capture as Kineto JSON: the same rows", " (goal >= 1x)", rounds, dir)
            && benchFormatAgainstKinetoPerEvent(
                "xplane", xplane, trace, "another trace: fixed costs weigh on the smaller file", "", rounds, dir);
    }
    if (ok && std::filesystem::exists(ort))
        ok = benchFormatAgainstKinetoPerEvent(
            "onnxruntime", ort, trace, "another trace; no ORT profile has a Kineto twin", "", rounds, dir);
    std::filesystem::remove_all(dir);
    return ok ? 0 : 1;
}
