// SPDX-License-Identifier: MIT
#include "placement/cost/device_table.h"
#include "placement/cost/link_model.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/store/trace_writer.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace placescope {
namespace {

// A real trace file in a temporary directory, removed afterwards.
class TempTrace
{
public:
    explicit TempTrace(const std::string& name)
        : m_dir(std::filesystem::temp_directory_path() / ("placescope_cost_" + name + "_" + std::to_string(::getpid())))
    {
        std::filesystem::create_directories(m_dir);
        path = (m_dir / "trace.sqlite").string();
        auto created = TraceWriter::create(path);
        EXPECT_TRUE(created.isOk()) << created.status().message();
        writer = std::move(created.value());
    }
    ~TempTrace() { std::filesystem::remove_all(m_dir); }
    void commit() { ASSERT_TRUE(writer->commit().isOk()); }

    std::string path;
    std::unique_ptr<TraceWriter> writer;

private:
    std::filesystem::path m_dir;
};

// Copies whose duration is exactly latency + bytes / bandwidth, with +-3% noise alternating in sign.
void addCopies(TraceWriter& writer, CopyKind kind, MemKind hostKind, double latencyUs, double gbps, int64_t& clock)
{
    const int64_t sizes[] = { 4096, 65536, 1 << 20, 4 << 20, 16 << 20, 64 << 20 };
    int i = 0;
    for (int64_t bytes : sizes) {
        for (double noise : { 1.03, 0.97 }) {
            double us = (latencyUs + double(bytes) / (gbps * 1e3)) * (i++ % 3 == 2 ? 1.0 : noise);
            MemcpyEvent copy;
            copy.start = clock;
            copy.end = clock + static_cast<int64_t>(us * 1000.0);
            copy.bytes = bytes;
            copy.copyKind = static_cast<int64_t>(kind);
            bool toDevice = kind == CopyKind::HtoD;
            copy.srcKind = static_cast<int64_t>(toDevice ? hostKind : MemKind::Device);
            copy.dstKind = static_cast<int64_t>(toDevice ? MemKind::Device : hostKind);
            writer.add(copy);
            clock = copy.end + 1000;
        }
    }
}

TEST(LinkModel, FitRecoversExactLatencyAndBandwidth)
{
    std::vector<MemcpySample> samples;
    for (int64_t bytes : { 1000, 100000, 10000000 })
        samples.push_back({ bytes, 12.0 + double(bytes) / 25e3 });
    auto fit = fitLink(samples);
    ASSERT_TRUE(fit.isOk()) << fit.status().message();
    EXPECT_NEAR(fit->latencyUs, 12.0, 1e-6);
    EXPECT_NEAR(fit->bandwidthGBps, 25.0, 1e-6);
    EXPECT_EQ(fit->samples, 3);
    EXPECT_NEAR(fit->transferUs(50'000'000), 12.0 + 2000.0, 1e-3);

    EXPECT_FALSE(fitLink({ { 100, 5 }, { 100, 6 } }).isOk()); // one size only
    EXPECT_FALSE(fitLink({ { 100, 50 }, { 10000, 5 } }).isOk()); // shrinking with size
}

TEST(LinkModel, FitsPinnedAndPageableFromATraceSeparately)
{
    TempTrace trace("link");
    int64_t clock = 1'000'000;
    addCopies(*trace.writer, CopyKind::HtoD, MemKind::Pinned, 8.0, 22.0, clock);
    addCopies(*trace.writer, CopyKind::HtoD, MemKind::Pageable, 15.0, 6.0, clock);
    addCopies(*trace.writer, CopyKind::DtoH, MemKind::Pinned, 9.0, 20.0, clock);
    // Device-to-device copies and a lone pageable DtoH copy must not disturb anything.
    MemcpyEvent dtod;
    dtod.start = clock;
    dtod.end = clock + 1;
    dtod.bytes = 1 << 30;
    dtod.copyKind = static_cast<int64_t>(CopyKind::DtoD);
    trace.writer->add(dtod);
    MemcpyEvent lone;
    lone.start = clock + 10;
    lone.end = clock + 100000;
    lone.bytes = 1000;
    lone.copyKind = static_cast<int64_t>(CopyKind::DtoH);
    lone.srcKind = static_cast<int64_t>(MemKind::Device);
    lone.dstKind = static_cast<int64_t>(MemKind::Pageable);
    trace.writer->add(lone);
    trace.commit();

    LinkSpec defaults { "test", 10.0, 5.0, 1.0, 2.0 };
    std::vector<std::string> notes;
    auto model = fitPcieFromTrace(trace.path, PcieModel::fromSpec(defaults), &notes);
    ASSERT_TRUE(model.isOk()) << model.status().message();
    EXPECT_TRUE(model->htodPinned.fitted);
    EXPECT_NEAR(model->htodPinned.bandwidthGBps, 22.0, 22.0 * 0.03);
    EXPECT_NEAR(model->htodPinned.latencyUs, 8.0, 2.0);
    EXPECT_NEAR(model->htodPageable.bandwidthGBps, 6.0, 6.0 * 0.03);
    EXPECT_NEAR(model->htodPageable.latencyUs, 15.0, 3.0);
    EXPECT_NEAR(model->dtohPinned.bandwidthGBps, 20.0, 20.0 * 0.03);
    EXPECT_EQ(model->htodPinned.samples, 12);
    // One pageable DtoH copy cannot be fitted: the default stays, and a note says so.
    EXPECT_FALSE(model->dtohPageable.fitted);
    EXPECT_DOUBLE_EQ(model->dtohPageable.bandwidthGBps, 5.0);
    EXPECT_DOUBLE_EQ(model->dtohPageable.latencyUs, 2.0);
    ASSERT_EQ(notes.size(), 4u);
    EXPECT_NE(notes[3].find("not fitted"), std::string::npos) << notes[3];
}

TEST(LinkModel, MissingTraceIsAnError)
{
    auto model = fitPcieFromTrace("/nonexistent/run.sqlite", PcieModel {}, nullptr);
    EXPECT_FALSE(model.isOk());
}

TEST(DeviceTable, GpuFromTraceDerivesPeaksFromSmCountAndClock)
{
    TempTrace trace("gpu");
    GpuInfo gpu;
    gpu.id = 0;
    gpu.name = "NVIDIA H100 80GB HBM3";
    gpu.smCount = 132;
    gpu.clockRate = 1'980'000'000;
    gpu.computeMajor = 9;
    gpu.computeMinor = 0;
    gpu.memoryBandwidth = 3'352'320'000'000;
    gpu.totalMemory = int64_t(79) << 30;
    trace.writer->add(gpu);
    trace.commit();

    auto table = DeviceTable::builtin();
    ASSERT_TRUE(table.isOk());
    std::vector<std::string> notes;
    auto spec = gpuSpecFromTrace(trace.path, *table, &notes);
    ASSERT_TRUE(spec.isOk()) << spec.status().message();
    // 132 SMs x 1.98 GHz x 128 FP32 lanes x 2 = 66.9 TFLOP/s (datasheet: 67).
    EXPECT_NEAR(spec->fp32FlopsPerSecond / 1e12, 66.9, 0.1);
    EXPECT_NEAR(spec->tensorFp16FlopsPerSecond / 1e12, 1070.5, 0.5);
    EXPECT_EQ(spec->memoryBytes, int64_t(79) << 30);
    EXPECT_DOUBLE_EQ(spec->memoryBytesPerSecond, 3'352'320'000'000.0);
    EXPECT_EQ(spec->pcie, "gen5_x16"); // from the matching table entry
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("132 SMs"), std::string::npos) << notes[0];
}

TEST(DeviceTable, ErrorsAreOneLine)
{
    auto table = DeviceTable::builtin();
    ASSERT_TRUE(table.isOk()) << table.status().message();
    auto missing = table->device("h900");
    ASSERT_FALSE(missing.isOk());
    EXPECT_NE(missing.status().message().find("h900"), std::string::npos);
    EXPECT_NE(missing.status().message().find("a100"), std::string::npos); // lists the known ones
    EXPECT_FALSE(DeviceTable::fromJson("{").isOk());
    auto noLink = DeviceTable::fromJson(R"({"devices": {"g": {"kind": "gpu", "fp32_tflops": 1,
        "memory_bandwidth_gbps": 1, "pcie": "gen9"}}})");
    ASSERT_FALSE(noLink.isOk());
    EXPECT_NE(noLink.status().message().find("gen9"), std::string::npos);

    TempTrace empty("nogpu");
    empty.commit();
    auto none = gpuSpecFromTrace(empty.path, *table, nullptr);
    ASSERT_FALSE(none.isOk());
    EXPECT_EQ(none.status().message().find('\n'), std::string::npos);
}

} // namespace
} // namespace placescope

namespace placescope {
namespace {

const std::string kNsysA100 = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";

TEST(RealTrace, GpuFromAnNsysExportMatchesTheA100Datasheet)
{
    auto table = DeviceTable::builtin();
    ASSERT_TRUE(table.isOk());
    auto spec = gpuSpecFromTrace(kNsysA100, *table, nullptr);
    ASSERT_TRUE(spec.isOk()) << spec.status().message();
    DeviceSpec datasheet = table->device("a100").value();
    EXPECT_EQ(spec->name, "NVIDIA A100-SXM4-80GB");
    // Derived from 108 SMs x 1410 MHz; the datasheet says 19.5 and 312 TFLOP/s.
    EXPECT_NEAR(spec->fp32FlopsPerSecond / datasheet.fp32FlopsPerSecond, 1.0, 0.01);
    EXPECT_NEAR(spec->tensorFp16FlopsPerSecond / datasheet.tensorFp16FlopsPerSecond, 1.0, 0.01);
    EXPECT_NEAR(spec->memoryBytesPerSecond / datasheet.memoryBytesPerSecond, 1.0, 0.01);
}

TEST(RealTrace, PageableHostToDeviceCopiesOfAnA100RunFitWithinThePcieLimit)
{
    auto table = DeviceTable::builtin();
    ASSERT_TRUE(table.isOk());
    PcieModel defaults = PcieModel::fromSpec(table->link("gen4_x16").value());
    std::vector<std::string> notes;
    auto model = fitPcieFromTrace(kNsysA100, defaults, &notes);
    ASSERT_TRUE(model.isOk()) << model.status().message();
    // The run copies HtoD from pageable memory only (254 copies of 8 B .. 1.2 MB) and DtoH 2 KB at a time.
    EXPECT_TRUE(model->htodPageable.fitted);
    EXPECT_EQ(model->htodPageable.samples, 254);
    EXPECT_GT(model->htodPageable.bandwidthGBps, 1.0);
    EXPECT_LT(model->htodPageable.bandwidthGBps, 31.5); // PCIe 4.0 x16 per direction
    EXPECT_FALSE(model->htodPinned.fitted);
    EXPECT_FALSE(model->dtohPageable.fitted); // one size only
    EXPECT_DOUBLE_EQ(model->dtohPageable.bandwidthGBps, defaults.dtohPageable.bandwidthGBps);
}

} // namespace
} // namespace placescope
