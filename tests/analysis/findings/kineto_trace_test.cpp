// SPDX-License-Identifier: MIT
// Findings on the real Kineto traces, imported with `placescope`'s Kineto importer, against the figures that
// the independent stdlib-only parser prints. Reference figures, from
//   python3 tests/data/kineto_ref.py tests/data/traces/<file>
//   hta_alexnet_a100_1rank.json.gz:        kernel_count 79, kernel_ns 10692000, layout_kernel_count 12,
//                                          layout_kernel_ns 277000, memcpy_pageable 16
//   hta_nccl_a100_rank0of2_layout.json.gz: kernel_count 2700, kernel_ns 162532340, layout_kernel_count 633,
//                                          layout_kernel_ns 15120910, memcpy_pageable 0
//   kineto_resnet50_v100_legacy2021...:    kernel_count 8772, kernel_ns 591532000, layout_kernel_count 18,
//                                          layout_kernel_ns 558000, memcpy_pageable 12
//   hta_sampled_rank-0_of128.json.gz:      memcpy_pageable 24 (16 HtoD + 8 DtoH)
//   data/layout_nchw.json.gz (H100, this project): kernel_count 893, kernel_ns 241971134,
//                                          layout_kernel_count 321, layout_kernel_ns 58820352
// kineto_ref rounds ts and dur to ns separately; an importer that rounds start and end may differ by 1 ns per
// event, so durations are compared with a tolerance of one nanosecond per event.
#include "profiler/importers/importer.h"
#include "tests/analysis/findings/trace_builder.h"

namespace placescope::testing {
namespace {

struct Imported
{
    explicit Imported(const std::string& file, const std::string& folder = std::string(PLACESCOPE_DATA_DIR) + "/traces")
    {
        dir = std::filesystem::temp_directory_path()
            / ("ps_findings_kineto_" + std::to_string(::getpid()) + "_" + file);
        std::filesystem::create_directories(dir);
        std::string path = (dir / "run.sqlite").string();
        auto imported = importTraces({ folder + "/" + file }, path, ImportOptions {});
        EXPECT_TRUE(imported.isOk()) << imported.status().message();
        if (!imported.isOk())
            return;
        auto db = openTrace(path);
        EXPECT_TRUE(db.isOk()) << db.status().message();
        auto r = analyzeTrace(*db, AnalysisOptions {});
        EXPECT_TRUE(r.isOk()) << r.status().message();
        ok = r.isOk();
        if (ok)
            report = std::move(r.value());
    }
    ~Imported() { std::filesystem::remove_all(dir); }
    std::filesystem::path dir;
    AnalysisReport report;
    bool ok = false;
};

int64_t pageableCount(const AnalysisReport& report)
{
    const Finding* f = findRule(report, "copies.pageable");
    int64_t count = 0;
    for (size_t i = 0; f && i < f->evidence.size(); ++i)
        count += f->evidence[i].count;
    return count;
}

void expectLayoutFigures(const AnalysisReport& report, int64_t count, int64_t ns, int64_t kernelCount, int64_t kernelNs)
{
    EXPECT_EQ(report.kernelCount, kernelCount);
    EXPECT_NEAR(static_cast<double>(report.kernelNs), static_cast<double>(kernelNs), static_cast<double>(kernelCount));
    EXPECT_EQ(report.layoutKernelCount, count);
    EXPECT_NEAR(static_cast<double>(report.layoutKernelNs), static_cast<double>(ns), static_cast<double>(count));
}

void expectLayout(const AnalysisReport& report, int64_t count, int64_t ns, int64_t kernelCount, int64_t kernelNs)
{
    expectLayoutFigures(report, count, ns, kernelCount, kernelNs);
    const Finding* f = findRule(report, "layout.conversions");
    ASSERT_NE(f, nullptr) << ruleIds(report);
    ASSERT_FALSE(f->evidence.empty());
    EXPECT_EQ(f->evidence[0].count, count);
    EXPECT_NEAR(static_cast<double>(f->evidence[0].totalNs), static_cast<double>(ns), static_cast<double>(count));
    EXPECT_NEAR(static_cast<double>(f->evidence.back().totalNs), static_cast<double>(kernelNs),
        static_cast<double>(kernelCount)); // "all kernels"
}

TEST(FindingsKinetoTraces, AlexNetLayoutShareAndPageableCopies)
{
    Imported t("hta_alexnet_a100_1rank.json.gz");
    ASSERT_TRUE(t.ok);
    expectLayout(t.report, 12, 277000, 79, 10692000);
    EXPECT_EQ(pageableCount(t.report), 16);
}

TEST(FindingsKinetoTraces, NcclTraceLayoutShare)
{
    Imported t("hta_nccl_a100_rank0of2_layout.json.gz");
    ASSERT_TRUE(t.ok);
    expectLayout(t.report, 633, 15120910, 2700, 162532340);
    EXPECT_EQ(pageableCount(t.report), 0);
    EXPECT_EQ(findRule(t.report, "copies.pageable"), nullptr);
    EXPECT_EQ(t.report.stepCount, 3); // ProfilerStep#4-6
}

TEST(FindingsKinetoTraces, ResNet50WithoutWorkersIsInputBound)
{
    // The TensorBoard plugin's own sample of a DataLoader bottleneck (num_workers=0).
    Imported t("kineto_resnet50_v100_legacy2021.pt.trace.json.gz");
    ASSERT_TRUE(t.ok);
    expectLayoutFigures(t.report, 18, 558000, 8772, 591532000);
    // 0.09 % of kernel time: below the 1 % reporting threshold, so no layout finding.
    EXPECT_EQ(findRule(t.report, "layout.conversions"), nullptr);
    EXPECT_EQ(pageableCount(t.report), 12);
    const Finding* f = findRule(t.report, "gpu_idle.input_bound");
    ASSERT_NE(f, nullptr) << ruleIds(t.report);
    EXPECT_GE(f->saving.percentOfStep, 5.0);
}

TEST(FindingsKinetoTraces, SampledRankPageableCopies)
{
    Imported t("hta_sampled_rank-0_of128.json.gz");
    ASSERT_TRUE(t.ok);
    EXPECT_EQ(pageableCount(t.report), 24);
}

TEST(FindingsKinetoTraces, H100ChannelsLastValidation)
{
    // Recorded for this project (data/SOURCES.md): NCHW 36.79 ms/step, channels_last 20.09 ms/step measured.
    const std::string folder = std::string(PLACESCOPE_SOURCE_DIR) + "/tests/analysis/findings/data";
    Imported nchw("layout_nchw.json.gz", folder);
    ASSERT_TRUE(nchw.ok);
    expectLayout(nchw.report, 321, 58820352, 893, 241971134);
    const Finding* f = findRule(nchw.report, "layout.conversions");
    ASSERT_NE(f, nullptr);
    EXPECT_NEAR(f->saving.perStepMs, 58.820352 / 5, 0.01); // 5 active ProfilerSteps
    EXPECT_FALSE(f->saving.upperBound);
    EXPECT_LT(f->saving.perStepMs, 36.79 - 20.09); // the measured gain was larger still
    Imported channelsLast("layout_channels_last.json.gz", folder);
    ASSERT_TRUE(channelsLast.ok);
    EXPECT_EQ(findRule(channelsLast.report, "layout.conversions"), nullptr);
}

} // namespace
} // namespace placescope::testing
