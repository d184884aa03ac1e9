// SPDX-License-Identifier: MIT
// Chrome trace export: the JSON parses (nlohmann), has one event per trace row of each kind, keeps ns precision,
// pairs its flows, and is written all-or-nothing. On the CloverLeaf nsys export and on a trace written with
// TraceWriter holding every kind of event.
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/importers/importer.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/store/trace_file.h"
#include "profiler/store/trace_writer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace placescope {
namespace {

const std::string kCloverleaf
    = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";

class ChromeExportTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path()
            / ("ps_export_" + std::to_string(::getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(m_dir);
        m_trace = (m_dir / "trace.sqlite").string();
        m_json = (m_dir / "trace.json").string();
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    std::string readJson()
    {
        std::ifstream in(m_json, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }

    // Events counted by "ph/cat".
    static std::map<std::string, int64_t> countByKind(const nlohmann::json& doc)
    {
        std::map<std::string, int64_t> counts;
        for (const auto& event : doc["traceEvents"])
            ++counts[event["ph"].get<std::string>() + "/" + event.value("cat", "")];
        return counts;
    }

    static int64_t summedDurationNs(const nlohmann::json& doc, const std::string& category)
    {
        int64_t total = 0;
        for (const auto& event : doc["traceEvents"])
            if (event.value("cat", "") == category && event["ph"] == "X")
                total += std::llround(event["dur"].get<double>() * 1000);
        return total;
    }

    std::filesystem::path m_dir;
    std::string m_trace;
    std::string m_json;
};

TEST_F(ChromeExportTest, CloverleafExportHasOneEventPerRow)
{
    ASSERT_TRUE(importTraces({ kCloverleaf }, m_trace, {}).isOk());
    auto db = openTrace(m_trace);
    ASSERT_TRUE(db.isOk());
    uint64_t progressCalls = 0;
    ChromeExportOptions options;
    options.progress = [&](uint64_t, uint64_t) { ++progressCalls; };
    auto summary = exportChromeTrace(*db, m_json, options);
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_GT(progressCalls, 100u);
    std::string text = readJson();
    EXPECT_EQ(summary->bytes, text.size());
    auto doc = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(doc.is_discarded());
    EXPECT_EQ(static_cast<uint64_t>(doc["traceEvents"].size()), summary->events);
    auto counts = countByKind(doc);
    EXPECT_EQ(counts["X/kernel"], 1312);
    EXPECT_EQ(counts["X/gpu_memcpy"], 279);
    EXPECT_EQ(counts["X/cuda_runtime"], 3047);
    EXPECT_EQ(counts["X/cuda_driver"], 1);
    EXPECT_EQ(counts["X/cuda_sync"], 1312);
    EXPECT_EQ(counts["s/ac2g"], 1312 + 279); // every kernel and copy has its launching call
    EXPECT_EQ(counts["f/ac2g"], 1312 + 279);
    EXPECT_EQ(summedDurationNs(doc, "kernel"), 294404540); // sqlite3: SUM(end - start) of the export's kernels
    EXPECT_EQ(summedDurationNs(doc, "gpu_memcpy"), 9346285 + 44638);
    // ns precision as three decimals, exactly the first kernel's start (533338240 ns).
    EXPECT_NE(text.find("\"ts\":533338.240,"), std::string::npos);
    std::set<std::string> processNames;
    for (const auto& event : doc["traceEvents"])
        if (event["ph"] == "M" && event["name"] == "process_name")
            processNames.insert(event["args"]["name"].get<std::string>());
    EXPECT_EQ(processNames, (std::set<std::string> { "GPU 0", "cuda-cloverleaf" }));
    ASSERT_EQ(doc["deviceProperties"].size(), 4u);
    EXPECT_EQ(doc["deviceProperties"][0]["name"], "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(doc["deviceProperties"][0]["numSms"], 108);
}

TEST_F(ChromeExportTest, EveryKindFromTraceWriter)
{
    {
        auto writer = TraceWriter::create(m_trace);
        ASSERT_TRUE(writer.isOk());
        TraceWriter& w = **writer;
        const int64_t gtid = makeGlobalTid(4242, 4243);
        KernelEvent k;
        k.start = 2000;
        k.end = 2500;
        k.streamId = 7;
        k.correlationId = 11;
        k.demangledName = "bad\xFF name \"quoted\"";
        k.gridX = 4;
        w.add(k);
        RuntimeEvent launch;
        launch.start = 1900;
        launch.end = 1950;
        launch.globalTid = gtid;
        launch.correlationId = 11;
        launch.name = "cudaLaunchKernel";
        w.add(launch);
        FrameworkOp op;
        op.start = 1800;
        op.end = 2600;
        op.globalTid = gtid;
        op.name = "aten::conv2d";
        op.category = "cpu_op";
        op.externalId = 5;
        op.inputDims = "[[1,3,224,224],[64,3,7,7]]";
        op.inputTypes = "not json [";
        op.extra = R"js({"Call stack": "a.py(1);b.py(2)"})js";
        w.add(op);
        w.add(ExternalCorrelation { 11, 5, makeGlobalPid(4242), 0 });
        NvtxEvent range;
        range.start = 1000;
        range.end = 3000;
        range.text = "step 1";
        range.globalTid = gtid;
        w.add(range);
        NvtxEvent mark;
        mark.start = 1500;
        mark.eventType = 34;
        mark.text = "mark";
        mark.globalTid = gtid;
        w.add(mark);
        MemoryEvent memory;
        memory.start = 1850;
        memory.globalTid = gtid;
        memory.deviceType = 1;
        memory.deviceId = 0;
        memory.bytes = 512;
        memory.totalAllocated = 512;
        memory.totalReserved = 2048;
        w.add(memory);
        GpuMemoryEvent cudaAlloc;
        cudaAlloc.start = 100;
        cudaAlloc.deviceId = 0;
        cudaAlloc.bytes = 2048;
        w.add(cudaAlloc);
        w.add(FlowEvent { 11, "ac2g", 1900, gtid, std::nullopt, std::nullopt, 2000, std::nullopt, 0, 7 });
        w.add(
            FlowEvent { 3, "fwdbwd", 1800, gtid, std::nullopt, std::nullopt, 2600, gtid, std::nullopt, std::nullopt });
        w.add(ThreadInfo { gtid, makeGlobalPid(4242), 4243, "main thread", {} });
        w.add(ProcessInfo { makeGlobalPid(4242), 4242, 3, "python", "" });
        ASSERT_TRUE(w.commit().isOk());
    }
    auto db = openTrace(m_trace);
    ASSERT_TRUE(exportChromeTrace(*db, m_json).isOk());
    auto doc = nlohmann::json::parse(readJson(), nullptr, false);
    ASSERT_FALSE(doc.is_discarded());
    auto counts = countByKind(doc);
    EXPECT_EQ(counts["X/kernel"], 1);
    EXPECT_EQ(counts["X/cuda_runtime"], 1);
    EXPECT_EQ(counts["X/cpu_op"], 1);
    EXPECT_EQ(counts["X/nvtx"], 1);
    EXPECT_EQ(counts["i/nvtx"], 1);
    EXPECT_EQ(counts["i/cpu_instant_event"], 1);
    EXPECT_EQ(counts["C/memory"], 2); // framework allocated/reserved + CUDA allocations
    EXPECT_EQ(counts["s/ac2g"], 1); // recorded flows only: none derived on top
    EXPECT_EQ(counts["f/fwdbwd"], 1);
    EXPECT_EQ(doc["distributedInfo"]["rank"], 3);
    for (const auto& e : doc["traceEvents"]) {
        if (e.value("cat", "") == "kernel") {
            EXPECT_EQ(e["name"], "bad\xEF\xBF\xBD name \"quoted\"");
            EXPECT_EQ(e["args"]["External id"], 5);
            EXPECT_EQ(e["args"]["grid"][0], 4);
            EXPECT_EQ(e["pid"], 0);
            EXPECT_EQ(e["tid"], 7);
        } else if (e.value("cat", "") == "cpu_op") {
            EXPECT_EQ(e["args"]["Input Dims"][1][3], 7);
            EXPECT_EQ(e["args"]["Input type"], "not json [");
            EXPECT_EQ(e["args"]["Call stack"], "a.py(1);b.py(2)");
            EXPECT_EQ(e["pid"], 4242);
            EXPECT_EQ(e["tid"], 4243);
        } else if (e["ph"] == "f") {
            EXPECT_EQ(e["bp"], "e");
        } else if (e["ph"] == "C" && e["name"] == "Memory (GPU 0)") {
            EXPECT_EQ(e["args"]["Reserved"], 2048);
        } else if (e["ph"] == "M" && e["name"] == "process_name" && e["pid"] == 4242) {
            EXPECT_EQ(e["args"]["name"], "python (rank 3)");
        }
    }
}

// Correlation ids restart in every process: an activity takes the External id of its own process's API call.
// One whose process is unknown takes the first link of its correlation id.
TEST_F(ChromeExportTest, ExternalIdsAreLookedUpPerProcess)
{
    {
        auto writer = TraceWriter::create(m_trace);
        ASSERT_TRUE(writer.isOk());
        TraceWriter& w = **writer;
        const std::pair<int64_t, int64_t> processes[] = { { 100, 7 }, { 200, 8 } }; // pid, External id
        for (auto [pid, externalId] : processes) {
            w.add(ExternalCorrelation { 11, externalId, makeGlobalPid(pid), 0 });
            KernelEvent k;
            k.start = 2000 + pid;
            k.end = 2100 + pid;
            k.correlationId = 11;
            k.globalPid = makeGlobalPid(pid);
            k.demangledName = "kernel of " + std::to_string(pid);
            w.add(k);
            RuntimeEvent launch;
            launch.start = 1000 + pid;
            launch.end = 1050 + pid;
            launch.globalTid = makeGlobalTid(pid, 1);
            launch.correlationId = 11;
            launch.name = "launch of " + std::to_string(pid);
            w.add(launch);
        }
        KernelEvent orphan;
        orphan.start = 3000;
        orphan.end = 3100;
        orphan.correlationId = 11;
        orphan.demangledName = "kernel of nobody";
        w.add(orphan);
        ASSERT_TRUE(w.commit().isOk());
    }
    auto db = openTrace(m_trace);
    ASSERT_TRUE(exportChromeTrace(*db, m_json).isOk());
    auto doc = nlohmann::json::parse(readJson(), nullptr, false);
    ASSERT_FALSE(doc.is_discarded());
    std::map<std::string, int64_t> externalIdOf;
    for (const auto& e : doc["traceEvents"])
        if (e.contains("args") && e["args"].contains("External id"))
            externalIdOf[e["name"].get<std::string>()] = e["args"]["External id"].get<int64_t>();
    EXPECT_EQ(externalIdOf["kernel of 100"], 7);
    EXPECT_EQ(externalIdOf["kernel of 200"], 8);
    EXPECT_EQ(externalIdOf["launch of 100"], 7);
    EXPECT_EQ(externalIdOf["launch of 200"], 8);
    EXPECT_EQ(externalIdOf["kernel of nobody"], 7);
}

TEST_F(ChromeExportTest, FailureOrCancelLeavesNoFile)
{
    ASSERT_TRUE(importTraces({ kCloverleaf }, m_trace, {}).isOk());
    auto db = openTrace(m_trace);
    auto missingDir = exportChromeTrace(*db, (m_dir / "no" / "such" / "dir.json").string());
    EXPECT_FALSE(missingDir.isOk());
    CancelToken cancel;
    cancel.cancel();
    ChromeExportOptions options;
    options.cancel = &cancel;
    auto cancelled = exportChromeTrace(*db, m_json, options);
    EXPECT_FALSE(cancelled.isOk());
    EXPECT_FALSE(std::filesystem::exists(m_json));
    EXPECT_FALSE(std::filesystem::exists(m_json + ".partial"));
    // An existing file is replaced only by a complete export.
    std::ofstream(m_json) << "previous";
    EXPECT_FALSE(exportChromeTrace(*db, m_json, options).isOk());
    EXPECT_EQ(readJson(), "previous");
}

TEST_F(ChromeExportTest, RefusesToWriteOverTheTraceItReads)
{
    // The GUI and other library callers pass no input list: the exporter knows the file it reads.
    ASSERT_TRUE(importTraces({ kCloverleaf }, m_trace, {}).isOk());
    const auto size = std::filesystem::file_size(m_trace);
    {
        auto db = openTrace(m_trace);
        ASSERT_TRUE(db.isOk());
        const std::string sameFile = (m_dir / "." / std::filesystem::path(m_trace).filename()).string();
        auto exported = exportChromeTrace(*db, sameFile);
        ASSERT_FALSE(exported.isOk());
        EXPECT_NE(exported.status().message().find("is the input"), std::string::npos) << exported.status().message();
    }
    EXPECT_EQ(std::filesystem::file_size(m_trace), size);
    ASSERT_TRUE(openTrace(m_trace).isOk());
}

} // namespace
} // namespace placescope
