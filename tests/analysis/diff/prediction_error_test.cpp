// SPDX-License-Identifier: MIT
// The prediction error per class of GPU work, with `whatif -o`'s predicted trace on one side:
//   - a synthetic pair whose error per class follows by hand from how it was built (the prediction halves the GEMMs,
//     the run measured after the change got them only to 60 %, and its elementwise kernels grew by a quarter);
//   - a real pair: ResNet-50 on a V100 (shared/traces) predicted with its elementwise kernels halved, against the
//     measured run; each class's measured time equals SQL over the trace's own rows, and the predicted one is that
//     time halved for elementwise and unchanged for every other class;
//   - whatif --compare's error per class (the replay's own step rule) agrees with the diff's.
#include "analysis/diff/diff_format.h"
#include "analysis/diff/diff_report.h"
#include "analysis/trace/kernel_class.h"
#include "profiler/importers/importer.h"
#include "tests/analysis/findings/trace_builder.h"
#include "tests/whatif/replay/whatif_fixture.h"
#include "whatif/prediction_file.h"

#include <nlohmann/json.hpp>

#include <map>

namespace placescope::testing {
namespace {

constexpr int kSteps = 4;
const std::string kGemm = "volta_sgemm_128x64_nn";
const std::string kConv = "void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false>()";
const std::string kElementwise = "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float> >()";
const std::string kNccl = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";

// Per step of 10 ms: 10 GEMMs, 5 convolutions, 8 elementwise kernels, one all-reduce and one host-to-device copy,
// one after the other on one stream, each launched 50 us before the previous one ends. `gemmUs` and
// `elementwiseUs` set those kernels' durations.
void writeRun(TraceBuilder& t, int64_t gemmUs, int64_t elementwiseUs)
{
    t.gpu(0, "Tesla V100-SXM2-16GB", 16LL << 30, 7);
    for (int n = 0; n < kSteps; ++n) {
        const int64_t s = n * 10 * kMs;
        t.step(n, s, s + 10 * kMs);
        int64_t at = s + 100 * kUs;
        auto add = [&](const std::string& name, int64_t us) {
            t.kernel(at, at + us * kUs, name, at - 50 * kUs);
            at += us * kUs + 10 * kUs;
        };
        for (int i = 0; i < 10; ++i)
            add(kGemm, gemmUs);
        for (int i = 0; i < 5; ++i)
            add(kConv, 200);
        for (int i = 0; i < 8; ++i)
            add(kElementwise, elementwiseUs);
        add(kNccl, 300);
        t.copy(at, at + 50 * kUs, CopyKind::HtoD, 1 << 20, MemKind::Pinned);
    }
}

const PredictionError::Class* classRow(const PredictionError& e, const std::string& name)
{
    for (const PredictionError::Class& c : e.classes)
        if (c.name == name)
            return &c;
    return nullptr;
}

Result<RunDiff> diffFiles(const std::string& a, const std::string& b)
{
    PLACESCOPE_ASSIGN_OR_RETURN(RunProfile pa, profileRun(a, {}));
    PLACESCOPE_ASSIGN_OR_RETURN(RunProfile pb, profileRun(b, {}));
    return diffRuns(pa, pb, {});
}

TEST(KernelClass, NamesFromRealTracesFallInTheirClass)
{
    const std::map<std::string, GpuWorkClass> expected {
        { "ampere_sgemm_32x32_sliced1x4_tn", GpuWorkClass::Gemm },
        { "void "
          "cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>(cutlass_80_tensorop_s1688gemm_256x64_"
          "16x4_nn_align4::Params)",
            GpuWorkClass::Gemm },
        { "cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1", GpuWorkClass::Convolution },
        { "volta_scudnn_128x128_stridedB_splitK_small_nn_v1", GpuWorkClass::Convolution },
        { "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw", GpuWorkClass::Convolution },
        { "void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int, int, int, float const*)",
            GpuWorkClass::Convolution },
        { kConv, GpuWorkClass::Convolution }, { kNccl, GpuWorkClass::Communication },
        { "void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>()",
            GpuWorkClass::LayoutConversion },
        { "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float)",
            GpuWorkClass::Normalization },
        { kElementwise, GpuWorkClass::Elementwise },
        { "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda>()",
            GpuWorkClass::Elementwise },
        { "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float> >()", GpuWorkClass::OtherKernel },
        { "void clover::par_ranged2d_kernel<advec_mom_kernel(int, int, int, int)>()", GpuWorkClass::OtherKernel },
        { "void at::native::convert_kernel<float>()", GpuWorkClass::OtherKernel }, // a type conversion, not a conv
    };
    for (const auto& [name, work] : expected)
        EXPECT_EQ(gpuWorkClassName(classifyKernel(name)), gpuWorkClassName(work)) << name;
    // Copies and memsets by kind, whatever the name.
    EXPECT_EQ(classifyGpuWork(GpuOp::Kind::Memcpy, kGemm), GpuWorkClass::Memcpy);
    EXPECT_EQ(classifyGpuWork(GpuOp::Kind::Memset, ""), GpuWorkClass::Memset);
    EXPECT_EQ(classifyGpuWork(GpuOp::Kind::Kernel, kNccl), GpuWorkClass::Communication);
}

TEST(PredictionErrorPerClass, SyntheticPairByHand)
{
    TraceBuilder before("class_before"), after("class_after");
    writeRun(before, 100, 20); // GEMM 100 us, elementwise 20 us
    writeRun(after, 60, 25); // the change got the GEMMs to 60 us; the elementwise kernels grew to 25 us
    before.analyze();
    after.analyze();
    // The prediction: GEMMs twice as fast (kernels:volta_sgemm=x0.5), written as whatif -o writes it.
    WhatIfRun predicted = runEdits(before.path(), { "kernels:volta_sgemm=x0.5" });
    const std::string predictedPath = (before.dir() / "predicted.sqlite").string();
    ASSERT_TRUE(writePredictedTrace(before.path(), predictedPath, predicted.result).isOk());

    // Both builders name their file trace.sqlite, and a diff takes a measured file of the prediction's source name
    // for the run it was predicted from: the measured run gets a name of its own.
    const std::string measuredPath = (after.dir() / "measured_after.sqlite").string();
    std::filesystem::copy_file(after.path(), measuredPath);
    auto diff = diffFiles(predictedPath, measuredPath);
    ASSERT_TRUE(diff.isOk()) << diff.status().message();
    ASSERT_TRUE(diff->predictionError.has_value()) << renderDiffText(*diff);
    const PredictionError& e = *diff->predictionError;
    EXPECT_TRUE(e.predictedIsA);
    // By hand, over the 4 compared steps: GEMM 40 x 50 us predicted against 40 x 60 us measured; elementwise
    // 32 x 20 us against 32 x 25 us; convolution, communication and the copy unchanged. No memset in either run.
    struct Expected
    {
        const char* name;
        int64_t count, predictedNs, measuredNs;
    };
    const Expected expected[] = { { "GEMM", 40, 40 * 50 * kUs, 40 * 60 * kUs },
        { "convolution", 20, 20 * 200 * kUs, 20 * 200 * kUs }, { "communication", 4, 4 * 300 * kUs, 4 * 300 * kUs },
        { "elementwise", 32, 32 * 20 * kUs, 32 * 25 * kUs }, { "memcpy", 4, 4 * 50 * kUs, 4 * 50 * kUs } };
    ASSERT_EQ(e.classes.size(), std::size(expected)) << renderDiffText(*diff);
    for (size_t i = 0; i < std::size(expected); ++i) {
        const PredictionError::Class& c = e.classes[i]; // in the classification's order
        EXPECT_EQ(c.name, expected[i].name);
        EXPECT_EQ(c.predictedCount, expected[i].count) << c.name;
        EXPECT_EQ(c.measuredCount, expected[i].count) << c.name;
        EXPECT_EQ(c.predictedNs, expected[i].predictedNs) << c.name;
        EXPECT_EQ(c.measuredNs, expected[i].measuredNs) << c.name;
        EXPECT_EQ(c.wholePredictedNs, expected[i].predictedNs) << c.name; // every op ran inside a step
        EXPECT_EQ(c.wholeMeasuredNs, expected[i].measuredNs) << c.name;
    }
    EXPECT_DOUBLE_EQ(
        PredictionError::relative(classRow(e, "GEMM")->predictedNs, classRow(e, "GEMM")->measuredNs), -1.0 / 6.0);
    EXPECT_DOUBLE_EQ(
        PredictionError::relative(classRow(e, "elementwise")->predictedNs, classRow(e, "elementwise")->measuredNs),
        -0.2);

    // The JSON carries the same rows in integer nanoseconds, with the error and its sign.
    const auto json = nlohmann::json::parse(renderDiffJson(*diff));
    const auto& classes = json["prediction_error"]["classes"];
    ASSERT_EQ(classes.size(), std::size(expected));
    EXPECT_EQ(classes[0]["class"], "GEMM");
    EXPECT_TRUE(classes[0]["error_ns"].is_number_integer());
    EXPECT_EQ(classes[0]["error_ns"].get<int64_t>(), -40 * 10 * kUs);
    EXPECT_EQ(classes[3]["error_ns"].get<int64_t>(), -32 * 5 * kUs);
    EXPECT_EQ(classes[3]["whole_trace"]["measured_ns"].get<int64_t>(), 32 * 25 * kUs);
    // Text and HTML name each class with its error.
    const std::string text = renderDiffText(*diff), html = renderDiffHtml(*diff);
    EXPECT_NE(text.find("Prediction error per class of GPU work"), std::string::npos) << text;
    EXPECT_NE(text.find(diff_format::signedDuration(-400 * kUs)), std::string::npos) << text; // the GEMMs' error
    EXPECT_NE(html.find("Per class of GPU work"), std::string::npos);
    EXPECT_NE(html.find("<td>elementwise</td>"), std::string::npos);

    // The same pair through whatif --compare: per step, GEMM 10 x 50 us against 10 x 60 us, elementwise 8 x 20 us
    // against 8 x 25 us.
    auto afterDb = openTrace(measuredPath);
    ASSERT_TRUE(afterDb.isOk());
    ASSERT_TRUE(compareWithMeasured(predicted.result, *afterDb).isOk());
    const auto whatif = nlohmann::json::parse(whatIfJson(predicted.result, predicted.trace));
    std::map<std::string, std::pair<int64_t, int64_t>> perStep;
    for (const auto& c : whatif["compare"]["classes"])
        perStep[c["class"]] = { c["predicted_ns_per_step"].get<int64_t>(), c["measured_ns_per_step"].get<int64_t>() };
    EXPECT_EQ(perStep.size(), std::size(expected));
    EXPECT_EQ(perStep["GEMM"], std::make_pair(10 * 50 * kUs, 10 * 60 * kUs));
    EXPECT_EQ(perStep["elementwise"], std::make_pair(8 * 20 * kUs, 8 * 25 * kUs));
    EXPECT_EQ(perStep["convolution"], std::make_pair(5 * 200 * kUs, 5 * 200 * kUs));
}

TEST(PredictionErrorPerClass, NoClassErrorWithoutAMeasuredSide)
{
    // Against the run it was predicted from, the deltas are the edit's effect: no error, per class or otherwise.
    TraceBuilder before("class_source");
    writeRun(before, 100, 20);
    before.analyze();
    WhatIfRun predicted = runEdits(before.path(), { "kernels:volta_sgemm=x0.5" });
    const std::string predictedPath = (before.dir() / "predicted.sqlite").string();
    ASSERT_TRUE(writePredictedTrace(before.path(), predictedPath, predicted.result).isOk());
    auto diff = diffFiles(before.path(), predictedPath);
    ASSERT_TRUE(diff.isOk());
    EXPECT_FALSE(diff->predictionError.has_value());
    EXPECT_EQ(nlohmann::json::parse(renderDiffJson(*diff)).count("prediction_error"), 0u);
    // The class table itself is there for every diff: the GEMMs' time halved.
    bool gemm = false;
    for (const DeltaRow& r : diff->classes.whole)
        if (r.name == "GEMM") {
            gemm = true;
            EXPECT_EQ(r.nsA, 40 * 100 * kUs);
            EXPECT_EQ(r.nsB, 40 * 50 * kUs);
        }
    EXPECT_TRUE(gemm);
}

// ResNet-50 on a V100, imported from shared/traces, predicted with every elementwise kernel twice as fast, against
// the measured run (a copy under another name stands for the run measured after the change).
class PredictionErrorRealPair : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = std::filesystem::temp_directory_path() / ("ps_class_error_" + std::to_string(::getpid()));
        std::filesystem::create_directories(s_dir);
        const std::string raw
            = std::string(PLACESCOPE_DATA_DIR) + "/traces/kineto_resnet50_v100_legacy2021.pt.trace.json.gz";
        auto imported = importTraces({ raw }, path("resnet.sqlite"), ImportOptions {});
        ASSERT_TRUE(imported.isOk()) << imported.status().message();
        std::filesystem::copy_file(path("resnet.sqlite"), path("resnet_after.sqlite"));
        WhatIfRun run = runEditsFromStore(path("resnet.sqlite"), { "kernels:elementwise=x0.5" });
        ASSERT_TRUE(writePredictedTrace(path("resnet.sqlite"), path("resnet_pred.sqlite"), run.result).isOk());
    }
    static void TearDownTestSuite() { std::filesystem::remove_all(s_dir); }
    static std::string path(const std::string& name) { return (s_dir / name).string(); }
    static std::filesystem::path s_dir;
};
std::filesystem::path PredictionErrorRealPair::s_dir;

// Summed duration of a table's rows whose name matches `like` (kernels: demangledName), straight from the file.
int64_t sqlNs(const std::string& file, const std::string& table, const std::string& like = "")
{
    auto db = openTrace(file);
    EXPECT_TRUE(db.isOk());
    const std::string sql = "SELECT COALESCE(SUM(t.end - t.start), 0) FROM " + table + " t"
        + (like.empty() ? "" : " JOIN StringIds s ON s.id = t.demangledName WHERE s.value LIKE '" + like + "'");
    auto scan = db->prepare(sql);
    EXPECT_TRUE(scan.isOk()) << sql;
    EXPECT_TRUE(scan->step());
    return scan->columnInt(0);
}

TEST_F(PredictionErrorRealPair, ElementwiseHalvedEveryOtherClassUnchanged)
{
    auto diff = diffFiles(path("resnet_pred.sqlite"), path("resnet_after.sqlite"));
    ASSERT_TRUE(diff.isOk()) << diff.status().message();
    ASSERT_TRUE(diff->predictionError.has_value());
    const PredictionError& e = *diff->predictionError;
    const std::string measured = path("resnet_after.sqlite");
    const int64_t elementwiseNs = sqlNs(measured, "CUPTI_ACTIVITY_KIND_KERNEL", "%elementwise%");
    ASSERT_GT(elementwiseNs, 0);
    const PredictionError::Class* elementwise = classRow(e, "elementwise");
    ASSERT_NE(elementwise, nullptr);
    EXPECT_EQ(elementwise->wholeMeasuredNs, elementwiseNs);
    // Halved per kernel: each odd duration rounds, so within 1 ns per kernel.
    EXPECT_NEAR(elementwise->wholePredictedNs, elementwiseNs / 2, elementwise->measuredCount);
    EXPECT_NEAR(PredictionError::relative(elementwise->predictedNs, elementwise->measuredNs), -0.5, 1e-4);
    const PredictionError::Class* copies = classRow(e, "memcpy");
    ASSERT_NE(copies, nullptr);
    EXPECT_EQ(copies->wholeMeasuredNs, sqlNs(measured, "CUPTI_ACTIVITY_KIND_MEMCPY"));
    int64_t kernelNs = 0, predictedKernelNs = 0;
    for (const PredictionError::Class& c : e.classes) {
        if (c.name != "memcpy" && c.name != "memset") {
            kernelNs += c.wholeMeasuredNs;
            predictedKernelNs += c.wholePredictedNs;
        }
        if (c.name == "elementwise")
            continue;
        EXPECT_EQ(c.wholePredictedNs, c.wholeMeasuredNs) << c.name;
        EXPECT_EQ(c.predictedNs, c.measuredNs) << c.name;
        EXPECT_EQ(c.predictedCount, c.measuredCount) << c.name;
    }
    EXPECT_GE(e.classes.size(), 6u); // GEMM, convolution, normalization, elementwise, other kernels, copies...
    // The classes split the kernel time without losing any.
    EXPECT_EQ(kernelNs, sqlNs(measured, "CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(kernelNs, e.kernelMeasuredNs);
    EXPECT_EQ(predictedKernelNs, e.kernelPredictedNs);

    // whatif --compare, by its own step rule, gives the same relative error per class within 0.1 point.
    WhatIfRun run = runEditsFromStore(path("resnet.sqlite"), { "kernels:elementwise=x0.5" });
    auto afterDb = openTrace(measured);
    ASSERT_TRUE(afterDb.isOk());
    ASSERT_TRUE(compareWithMeasured(run.result, *afterDb).isOk());
    const auto whatif = nlohmann::json::parse(whatIfJson(run.result, run.trace));
    size_t compared = 0;
    for (const auto& c : whatif["compare"]["classes"]) {
        const PredictionError::Class* row = classRow(e, c["class"].get<std::string>());
        ASSERT_NE(row, nullptr) << c["class"];
        EXPECT_NEAR(
            c["relative_error"].get<double>(), PredictionError::relative(row->predictedNs, row->measuredNs), 1e-3)
            << c["class"];
        ++compared;
    }
    EXPECT_EQ(compared, e.classes.size());
}

} // namespace
} // namespace placescope::testing
