// SPDX-License-Identifier: MIT
// Runs the placescope binary on the real models in tests/data/models and checks what a user and a script see.
#include "placement/graph/model_loader.h"
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace placescope {
namespace {

using testing::CliRun;
using testing::readFile;

bool exists(const std::string& path) { return std::ifstream(path).good(); }

// `placescope place` with `args` split at spaces (the tests' paths hold none).
CliRun runPlace(const std::string& args)
{
    std::vector<std::string> argv { "place" };
    std::istringstream words(args);
    for (std::string word; words >> word;)
        argv.push_back(word);
    return testing::runPlacescope(argv);
}

std::string model(const std::string& name) { return std::string(PLACESCOPE_DATA_DIR) + "/models/" + name; }

nlohmann::json placeJson(const std::string& args)
{
    CliRun run = runPlace(args + " --json");
    EXPECT_EQ(run.exitCode, 0) << run.err;
    auto json = nlohmann::json::parse(run.out, nullptr, false);
    EXPECT_FALSE(json.is_discarded()) << run.out.substr(0, 200);
    return json;
}

TEST(PlaceModelCliTest, ResNet50UnderTensorFlowAssignsEveryOp)
{
    auto graph = loadModelGraph(model("light_resnet50.onnx"));
    ASSERT_TRUE(graph.isOk()) << graph.status().message();
    nlohmann::json json = placeJson("--model " + model("light_resnet50.onnx") + " --framework tf");
    ASSERT_TRUE(json.contains("ops"));
    ASSERT_EQ(json["ops"].size(), graph->ops.size());
    std::set<std::string> names;
    for (const auto& op : json["ops"]) {
        const std::string device = op["device"];
        EXPECT_TRUE(device == "cpu" || device == "gpu") << op.dump();
        names.insert(op["name"].get<std::string>());
    }
    EXPECT_EQ(names.size(), graph->ops.size());
    // The engine's assignment covers every graph op (model ops plus the host ends of inputs and outputs).
    EXPECT_GE(json["assignment"].size(), 1u);
    EXPECT_GT(json["objective_us"].get<double>(), 0.0);
    ASSERT_EQ(json["comparisons"].size(), 4u);
    for (const auto& row : json["comparisons"])
        EXPECT_LE(json["objective_us"].get<double>(), row["objective_us"].get<double>() + 1e-6) << row.dump();
    EXPECT_FALSE(json["layout"]["regions"].empty());
    EXPECT_FALSE(json["assumptions"].empty());
}

TEST(PlaceModelCliTest, PinChangesAssignmentAndPredictedTime)
{
    const std::string base = "--model " + model("light_resnet50.onnx") + " --framework tf";
    nlohmann::json before = placeJson(base);
    std::string conv;
    for (const auto& op : before["ops"])
        if (op["type"] == "Conv" && op["device"] == "gpu") {
            conv = op["name"];
            break;
        }
    ASSERT_FALSE(conv.empty());
    nlohmann::json after = placeJson(base + " --pin " + conv + "=cpu");
    for (const auto& op : after["ops"])
        if (op["name"] == conv) {
            EXPECT_EQ(op["device"], "cpu");
            EXPECT_EQ(op["reason"], "pinned");
        }
    EXPECT_GT(after["objective_us"].get<double>(), before["objective_us"].get<double>());
}

TEST(PlaceModelCliTest, SuperResolutionShowsCpuOpsAndTransfers)
{
    const std::string path = model("superres_prepost_op18.onnx");
    nlohmann::json json = placeJson("--model " + path + " --framework ort");
    int cpuOps = 0;
    for (const auto& op : json["ops"])
        cpuOps += op["device"] == "cpu" && op["reason"] == "no_kernel";
    EXPECT_GT(cpuOps, 0);
    EXPECT_GT(json["transfer_count"].get<int>(), 0);
    EXPECT_FALSE(json["transfers"].empty());

    CliRun text = runPlace("--model " + path + " --framework ort");
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("no kernel"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Transfers left:"), std::string::npos);
    EXPECT_NE(text.out.find("all on the GPU"), std::string::npos);
    EXPECT_NE(text.out.find("framework default"), std::string::npos);
}

TEST(PlaceModelCliTest, OutputFileMatchesJson)
{
    const testing::TempDir dir("place_model_cli");
    const std::string out = dir.file("proposal.json");
    CliRun run = runPlace("--model " + model("mnist.onnx") + " -o " + out);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("Placement proposal"), std::string::npos);
    auto json = nlohmann::json::parse(readFile(out), nullptr, false);
    ASSERT_FALSE(json.is_discarded());
    EXPECT_TRUE(json.contains("ops"));
    EXPECT_FALSE(exists(out + ".partial"));
}

// Each bad input: exit non-zero, exactly one line on stderr naming the cause, no -o file left behind.
void expectOneLineError(const std::string& args, const std::string& expected)
{
    const testing::TempDir dir("place_model_cli");
    const std::string out = dir.file("bad_proposal.json");
    CliRun run = runPlace(args + " -o " + out);
    EXPECT_NE(run.exitCode, 0) << args;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_NE(run.err.find(expected), std::string::npos) << run.err;
    EXPECT_FALSE(exists(out)) << args;
    EXPECT_FALSE(exists(out + ".partial")) << args;
}

TEST(PlaceModelCliTest, BadInputsFailWithOneLine)
{
    const std::string resnet = "--model " + model("light_resnet50.onnx") + " --framework tf";
    expectOneLineError(resnet + " --pin no_such_op=cpu", "unknown op 'no_such_op'");
    expectOneLineError(resnet + " --pin no_device=tpu", "not cpu or gpu");
    expectOneLineError(resnet + " --gpu-memory 16XB", "bad size '16XB'");
    expectOneLineError("--model /nonexistent/model.onnx", "/nonexistent/model.onnx");

    // A truncated model.
    const testing::TempDir dir("place_model_cli");
    const std::string truncated = dir.file("truncated.onnx");
    {
        std::string bytes = readFile(model("mnist.onnx"));
        std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 3);
    }
    expectOneLineError("--model " + truncated, "truncated.onnx");

    // Pinning a CPU-only op of the super-resolution model to the GPU.
    nlohmann::json json = placeJson("--model " + model("superres_prepost_op18.onnx") + " --framework ort");
    std::string cpuOnly;
    for (const auto& op : json["ops"])
        if (op["reason"] == "no_kernel" && op["device"] == "cpu") {
            cpuOnly = op["name"];
            break;
        }
    ASSERT_FALSE(cpuOnly.empty());
    expectOneLineError("--model " + model("superres_prepost_op18.onnx") + " --framework ort --pin " + cpuOnly + "=gpu",
        "no gpu kernel");
}

} // namespace
} // namespace placescope

namespace placescope {
namespace {

// With --trace, the proposal sits next to the measured step: the mean of the trace's steps (the bundled
// ResNet-50 capture has three NVTX ranges 'step 0'..'step 2', ~36 ms each on an H100).
TEST(PlaceModelCliTest, MeasuredStepComesFromTheTracesSteps)
{
    const testing::TempDir dir("place_model_cli");
    const std::string trace = dir.file("place_sample.sqlite");
    {
        std::ifstream in(
            std::string(PLACESCOPE_SOURCE_DIR) + "/resources/samples/resnet50_train_3steps.sqlite", std::ios::binary);
        std::ofstream out(trace, std::ios::binary);
        out << in.rdbuf(); // a copy in the test's own folder, so nothing the test does touches the sources
    }
    nlohmann::json proposal
        = placeJson("--model " + model("light_resnet50.onnx") + " --trace " + trace + " --gpu from-trace");
    ASSERT_TRUE(proposal["measured_step_us"].is_number()) << proposal.dump().substr(0, 400);
    EXPECT_GT(proposal["measured_step_us"].get<double>(), 20000.0);
    EXPECT_LT(proposal["measured_step_us"].get<double>(), 60000.0);
}

} // namespace
} // namespace placescope
