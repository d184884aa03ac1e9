// SPDX-License-Identifier: MIT
#include "placement/proposal/model_proposal.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace placescope {
namespace {

constexpr int kCpu = 0;
constexpr int kGpu = 1;

// decode (CPU only) -> weight producer -> conv (much faster on the GPU) -> nms (pinned to the CPU).
struct Fixture
{
    ModelGraph model;
    PlacementModel placement;

    Fixture()
    {
        auto value = [&](const std::string& name, int64_t bytes, bool weight = false) {
            ModelValue v;
            v.name = name;
            v.bytes = bytes;
            v.isWeight = weight;
            model.values.push_back(v);
            return static_cast<int>(model.values.size()) - 1;
        };
        int jpeg = value("jpeg", 100000);
        int image = value("image", 600000);
        int weight = value("w", 1000, true);
        int features = value("features", 3000000);
        int boxes = value("boxes", 4000);
        auto op = [&](const std::string& name, const std::string& type, std::vector<int> in, std::vector<int> out) {
            ModelOp o;
            o.name = name;
            o.type = type;
            o.inputs = in;
            o.outputs = out;
            for (int v : out)
                model.values[v].producer = static_cast<int>(model.ops.size());
            model.ops.push_back(o);
        };
        op("decode", "DecodeImage", { jpeg }, { image });
        op("weights", "Constant", {}, { weight });
        model.ops.back().producesWeight = true;
        op("conv", "Conv", { image, weight }, { features });
        op("nms", "NonMaxSuppression", { features }, { boxes });

        OpGraph& g = placement.graph;
        g.devices = { { "cpu", DeviceKind::Cpu, 0 }, { "NVIDIA Test GPU", DeviceKind::Gpu, 0 } };
        g.links = { { 0, 1, 10, 10 }, { 1, 0, 10, 10 } };
        g.ops = { { "decode", "DecodeImage", { 800, kNoKernel }, std::nullopt, 0 },
            { "conv", "Conv", { 9000, 40 }, std::nullopt, 0 }, { "nms", "NonMaxSuppression", { 50, 30 }, kCpu, 0 } };
        g.edges = { { 0, 1, 600000 }, { 1, 2, 3000000 } };
        placement.graphOpOfModelOp = { 0, -1, 1, 2 };
        placement.modelOpOfGraphOp = { 0, 2, 3 };
        placement.frameworkDefault = { kCpu, kGpu, kGpu };
        placement.assumptions = { "test costs" };
    }
};

TEST(ModelProposalTest, WeightProducersFollowTheirConsumer)
{
    Fixture f;
    std::vector<int> devices = deviceOfModelOps(f.model, f.placement, { kCpu, kGpu, kCpu });
    EXPECT_EQ(devices, (std::vector<int> { kCpu, kGpu, kGpu, kCpu }));
}

TEST(ModelProposalTest, ReasonsComparisonsAndTransfers)
{
    Fixture f;
    auto figures = planPlacementFigures(f.placement, PlanOptions {});
    ASSERT_TRUE(figures.isOk()) << figures.status().message();
    const Proposal* proposal = &figures->proposal;
    EXPECT_EQ(proposal->assignment, (std::vector<int> { kCpu, kGpu, kCpu }));
    ModelProposalContext context;
    context.modelPath = "test.onnx";
    context.framework = "tf";
    context.gpu = "test";
    ModelProposal p = buildModelProposal(f.model, f.placement, *figures, LayoutResult {}, context);

    ASSERT_EQ(p.ops.size(), 4u);
    EXPECT_EQ(p.ops[0].reason, PlacementReason::NoKernel);
    EXPECT_EQ(p.ops[1].reason, PlacementReason::WithConsumer);
    EXPECT_EQ(p.ops[1].device, kGpu);
    EXPECT_EQ(p.ops[2].reason, PlacementReason::FrameworkDefault);
    EXPECT_EQ(p.ops[3].reason, PlacementReason::Pinned);
    EXPECT_EQ(p.ops[3].defaultDevice, kGpu);

    // Two transfers remain: the image up and the features down, largest first.
    ASSERT_EQ(p.transfers.size(), 2u);
    EXPECT_EQ(p.transfers[0].bytes, 3000000);
    EXPECT_EQ(p.transfers[0].fromDevice, kGpu);

    ASSERT_EQ(p.comparisons.size(), 4u);
    EXPECT_EQ(p.comparisons[0].key, "proposal");
    for (const PlacementComparison& row : p.comparisons)
        EXPECT_LE(p.comparisons[0].objectiveUs, row.objectiveUs + 1e-9) << row.key;
    // all-GPU keeps the CPU-only decode and the pinned nms on the CPU.
    EXPECT_EQ(p.comparisons[1].key, "all_gpu");
    EXPECT_EQ(p.comparisons[1].assignment, (std::vector<int> { kCpu, kGpu, kCpu }));
    EXPECT_EQ(p.comparisons[2].assignment, (std::vector<int> { kCpu, kCpu, kCpu }));

    const std::string text = proposalText(p);
    EXPECT_NE(text.find("decode (DecodeImage)"), std::string::npos) << text;
    EXPECT_NE(text.find("no kernel"), std::string::npos) << text;
    EXPECT_NE(text.find("pinned"), std::string::npos) << text;
    EXPECT_NE(text.find("Transfers left: 2"), std::string::npos) << text;
    EXPECT_NE(text.find("test costs"), std::string::npos) << text;

    nlohmann::json json = nlohmann::json::parse(modelProposalJson(p));
    // The engine's fields stay, the model's are added.
    EXPECT_EQ(json["assignment"]["conv"], "NVIDIA Test GPU");
    EXPECT_DOUBLE_EQ(json["objective_us"].get<double>(), proposal->objectiveUs);
    ASSERT_EQ(json["ops"].size(), 4u);
    EXPECT_EQ(json["ops"][0]["reason"], "no_kernel");
    EXPECT_EQ(json["ops"][3]["device"], "cpu");
    EXPECT_EQ(json["ops"][3]["default_device"], "gpu");
    EXPECT_EQ(json["transfers"].size(), 2u);
    EXPECT_EQ(json["comparisons"].size(), 4u);
    EXPECT_TRUE(json["measured_step_us"].is_null());
}

TEST(ModelProposalTest, MovedOpIsExplainedWithItsTransfers)
{
    Fixture f;
    f.placement.frameworkDefault = { kCpu, kCpu, kGpu }; // a framework that would keep conv on the CPU
    auto figures = planPlacementFigures(f.placement, PlanOptions {});
    ASSERT_TRUE(figures.isOk());
    ModelProposal p = buildModelProposal(f.model, f.placement, *figures, LayoutResult {}, ModelProposalContext {});
    EXPECT_EQ(p.ops[2].reason, PlacementReason::Cheaper);
    EXPECT_NE(p.ops[2].why.find("transfers"), std::string::npos) << p.ops[2].why;
    EXPECT_NE(proposalText(p).find("(default cpu)"), std::string::npos);
}

} // namespace
} // namespace placescope
