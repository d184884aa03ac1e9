// SPDX-License-Identifier: MIT
// The placement engine behind the findings' estimator seam, on real models.
#include "placement/proposal/engine_estimator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace placescope {
namespace {

std::string model(const std::string& name) { return std::string(PLACESCOPE_DATA_DIR) + "/models/" + name; }

TEST(EngineEstimatorTest, LayoutSavingIsTheMeasuredConversionsLessTheTransposesThatStay)
{
    EnginePlacementEstimator estimator;
    LayoutQuery query { model("light_resnet50.onnx"), 2'000'000, 200, "NVIDIA H100 80GB HBM3" };
    auto estimate = estimator.estimateLayout(query);
    ASSERT_TRUE(estimate.has_value());
    // ResNet-50 is one NCHW region that the pass runs NHWC on an H100: only the border transposes stay.
    EXPECT_GT(estimate->savingMsPerStep, 1.5);
    EXPECT_LE(estimate->savingMsPerStep, 2.0);
    EXPECT_NE(estimate->explanation.find("H100"), std::string::npos) << estimate->explanation;
    EXPECT_NE(estimate->explanation.find("200 conversion kernels"), std::string::npos) << estimate->explanation;
}

TEST(EngineEstimatorTest, FallbackComparesTheFrameworkDefaultWithTheProposal)
{
    EnginePlacementEstimator estimator("ort");
    FallbackQuery query { model("superres_prepost_op18.onnx"), { "DecodeImage", "aten::split" }, 500'000, 200'000,
        1 << 20, "NVIDIA A100-SXM4-80GB" };
    auto estimate = estimator.estimateFallback(query);
    ASSERT_TRUE(estimate.has_value());
    EXPECT_GE(estimate->savingMsPerStep, 0.0);
    EXPECT_NE(estimate->explanation.find("DecodeImage"), std::string::npos) << estimate->explanation;
    EXPECT_NE(estimate->explanation.find("Split"), std::string::npos) << "aten::split matches the ONNX Split op";
}

TEST(EngineEstimatorTest, NoAnswerWithoutAModelOrMatchingOps)
{
    EnginePlacementEstimator estimator;
    EXPECT_FALSE(estimator.estimateLayout({ "", 1000, 1, "H100" }).has_value());
    EXPECT_FALSE(estimator.estimateLayout({ model("missing.onnx"), 1000, 1, "H100" }).has_value());
    FallbackQuery unrelated { model("mnist.onnx"), { "aten::nonzero" }, 1000, 0, 0, "H100" };
    EXPECT_FALSE(estimator.estimateFallback(unrelated).has_value());
}

TEST(EngineEstimatorTest, BothQuestionsShareOneLoadOfTheModelPerGpu)
{
    // A copy of the model that disappears after the first question: the second is answered from the model the
    // first one planned, and a question for another GPU has to load it again (and now cannot).
    const std::filesystem::path copy
        = std::filesystem::temp_directory_path() / ("estimator_" + std::to_string(::getpid()) + ".onnx");
    std::filesystem::copy_file(model("light_resnet50.onnx"), copy, std::filesystem::copy_options::overwrite_existing);
    EnginePlacementEstimator estimator;
    ASSERT_TRUE(estimator.estimateLayout({ copy.string(), 2'000'000, 200, "NVIDIA H100 80GB HBM3" }).has_value());
    std::filesystem::remove(copy);
    EXPECT_TRUE(estimator.estimateLayout({ copy.string(), 1'000'000, 100, "NVIDIA H100 80GB HBM3" }).has_value());
    EXPECT_FALSE(estimator.estimateLayout({ copy.string(), 1'000'000, 100, "NVIDIA A100-SXM4-80GB" }).has_value());
}

} // namespace
} // namespace placescope
