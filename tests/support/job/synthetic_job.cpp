// SPDX-License-Identifier: MIT
#include "tests/support/job/synthetic_job.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace placescope::testing {
namespace {

constexpr int64_t kBaseNs = 1'000'000'000; // 1 s: small enough that every time stays exact in a double of us
constexpr int64_t kStepLeadNs = 50'000; // from the step's start to its first compute kernel
constexpr int64_t kMaxJitterNs = 10'000;
constexpr int64_t kCopyNs = 20'000;
constexpr int64_t kStepTailNs = 100'000;

int64_t jitterNs(int rank, int step, int collective)
{
    if (collective == 0)
        return 0;
    return static_cast<int64_t>((rank * 131 + step * 17 + collective * 7) % 11) * 1000;
}

int64_t stepPeriodNs(const SyntheticJobSpec& spec)
{
    int64_t period = kStepLeadNs + spec.stragglerDelayNs + kCopyNs + kStepTailNs + 30'000;
    for (int c = 0; c < spec.collectivesPerStep; ++c)
        period += spec.computeNs + kMaxJitterNs + spec.transferNs * (c + 1);
    return period;
}

int64_t cursorNs(const SyntheticJobSpec& spec, int step, int collective)
{
    return collective == 0 ? syntheticStepStartNs(spec, step) + kStepLeadNs
                           : syntheticCollectiveEndNs(spec, step, collective - 1);
}

// Kineto's microseconds, exact: every time here is a whole number of microseconds.
std::string us(int64_t ns) { return std::to_string(ns / 1000); }

} // namespace

int64_t syntheticStepStartNs(const SyntheticJobSpec& spec, int step) { return kBaseNs + step * stepPeriodNs(spec); }

int64_t syntheticClockOffsetNs(const SyntheticJobSpec& spec, int rank)
{
    return static_cast<int64_t>(rank / spec.ranksPerHost) * spec.hostClockOffsetNs;
}

int64_t syntheticArrivalNs(const SyntheticJobSpec& spec, int rank, int step, int collective)
{
    int64_t late = rank == spec.stragglerRank && collective == 0 ? spec.stragglerDelayNs : 0;
    return cursorNs(spec, step, collective) + spec.computeNs + jitterNs(rank, step, collective) + late;
}

int64_t syntheticCollectiveEndNs(const SyntheticJobSpec& spec, int step, int collective)
{
    // The jitter repeats every 11 ranks, so the latest arrival is found among the first 11 (and the straggler).
    int64_t latest = 0;
    for (int r = 0; r < std::min(spec.ranks, 11); ++r)
        latest = std::max(latest, syntheticArrivalNs(spec, r, step, collective));
    if (spec.stragglerRank >= 0)
        latest = std::max(latest, syntheticArrivalNs(spec, spec.stragglerRank, step, collective));
    return latest + spec.transferNs * (collective + 1);
}

int64_t syntheticSeq(const SyntheticJobSpec& spec, int step, int collective)
{
    // Far from the collective's position in the trace: PyTorch counts from the group's creation, before profiling.
    return 1000 + static_cast<int64_t>(step) * spec.collectivesPerStep + collective;
}

std::string syntheticRankJson(const SyntheticJobSpec& spec, int rank)
{
    const int64_t clock = syntheticClockOffsetNs(spec, rank);
    const int pid = 1000 + rank;
    const int device = rank % 8;
    const std::string host = "\"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(pid);
    const std::string dev = "\"pid\": " + std::to_string(device) + ", \"tid\": ";
    int64_t correlation = 1;
    int64_t external = 1;
    std::string out;
    out.reserve(1 << 16);
    out += "{\n  \"schemaVersion\": 1,\n  \"hostname\": \"node-" + std::to_string(rank / spec.ranksPerHost) + "\",\n";
    out += "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + std::to_string(rank)
        + ", \"world_size\": " + std::to_string(spec.ranks) + "},\n  \"traceEvents\": [\n";
    bool first = true;
    auto event = [&](const std::string& cat, const std::string& name, const std::string& where, int64_t startNs,
                     int64_t endNs, const std::string& args) {
        out += first ? "    " : ",\n    ";
        first = false;
        out += "{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name + "\", " + where
            + ", \"ts\": " + us(startNs + clock) + ", \"dur\": " + us(endNs - startNs) + ", \"args\": {" + args + "}}";
    };
    auto launch = [&](int64_t startNs, int64_t ext) {
        event("cuda_runtime", "cudaLaunchKernel", host, startNs, startNs + 4'000,
            "\"External id\": " + std::to_string(ext) + ", \"correlation\": " + std::to_string(correlation));
    };
    auto kernelArgs = [&](int stream, int64_t ext) {
        return "\"External id\": " + std::to_string(ext) + ", \"device\": " + std::to_string(device)
            + ", \"context\": 1, \"stream\": " + std::to_string(stream)
            + ", \"correlation\": " + std::to_string(correlation) + ", \"grid\": [80, 1, 1], \"block\": [256, 1, 1]";
    };
    for (int s = 0; s < spec.steps; ++s) {
        const int64_t stepStart = syntheticStepStartNs(spec, s);
        event("cpu_op", "ProfilerStep#" + std::to_string(s), host, stepStart, stepStart + stepPeriodNs(spec) - 60'000,
            "\"External id\": " + std::to_string(external++));
        for (int c = 0; c < spec.collectivesPerStep; ++c) {
            const int64_t cursor = cursorNs(spec, s, c);
            const int64_t arrival = syntheticArrivalNs(spec, rank, s, c);
            const int64_t end = syntheticCollectiveEndNs(spec, s, c);
            int64_t ext = external++;
            launch(cursor - 8'000, ext);
            event("kernel", "ampere_sgemm_128x64_nn", dev + "7", cursor, arrival, kernelArgs(7, ext));
            ++correlation;
            ext = external++;
            event("cpu_op", "record_param_comms", host, arrival - 10'000, arrival - 2'000,
                "\"External id\": " + std::to_string(ext) + ", \"Collective name\": \"allreduce\", \"In msg nelems\": "
                    + std::to_string(spec.elementsPerCollective) + ", \"Out msg nelems\": "
                    + std::to_string(spec.elementsPerCollective) + ", \"Group size\": " + std::to_string(spec.ranks)
                    + ", \"dtype\": \"Float\", \"Process Group Name\": \"0\", \"Process Group Description\": "
                      "\"default_pg\", \"Seq\": "
                    + std::to_string(syntheticSeq(spec, s, c)));
            launch(arrival - 7'000, ext);
            event("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", dev + "20",
                arrival, end, kernelArgs(20, ext));
            ++correlation;
        }
        const int64_t last = syntheticCollectiveEndNs(spec, s, spec.collectivesPerStep - 1);
        event("cuda_runtime", "cudaMemcpyAsync", host, last, last + 5'000,
            "\"correlation\": " + std::to_string(correlation));
        event("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", dev + "7", last + 10'000, last + 10'000 + kCopyNs,
            "\"device\": " + std::to_string(device) + ", \"context\": 1, \"stream\": 7, \"correlation\": "
                + std::to_string(correlation) + ", \"bytes\": 1048576");
        ++correlation;
    }
    out += "\n  ],\n  \"traceName\": \"worker" + std::to_string(rank) + ".pt.trace.json\"\n}\n";
    return out;
}

std::vector<std::string> writeSyntheticJob(const SyntheticJobSpec& spec, const std::string& folder)
{
    std::filesystem::create_directories(folder);
    std::vector<std::string> paths;
    // Largest rank first, then the rest interleaved: neither numeric nor lexical order.
    std::vector<int> order;
    for (int r = spec.ranks - 1; r >= 0; r -= 2)
        order.push_back(r);
    for (int r = spec.ranks - 2; r >= 0; r -= 2)
        order.push_back(r);
    for (int rank : order) {
        if (std::find(spec.leaveOut.begin(), spec.leaveOut.end(), rank) != spec.leaveOut.end())
            continue;
        const std::string path = folder + "/worker-" + std::to_string(rank) + ".pt.trace.json";
        std::ofstream file(path, std::ios::binary);
        file << syntheticRankJson(spec, rank);
        if (!file.flush())
            throw std::runtime_error("cannot write " + path);
        paths.push_back(path);
    }
    return paths;
}

} // namespace placescope::testing
