// SPDX-License-Identifier: MIT
// `placescope diff` run as a user runs it (PLACESCOPE_BIN_DIR/placescope): a missing side or a file that is not a
// trace is one line on stderr and exit 1, usage errors exit 2, -o naming either trace is refused and leaves it as
// it was, a predicted trace from `whatif -o` is a valid side (named as a prediction, with its error against a
// measured run), and JSON/HTML outputs are what they say.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using placescope::testing::CliRun;
using placescope::testing::readFile;

class DiffCli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_temp = std::make_unique<placescope::testing::TempDir>("diff_cli");
        s_dir = s_temp->path();
        const std::string traces = std::string(PLACESCOPE_DATA_DIR) + "/traces/";
        ASSERT_EQ(
            run({ "import", traces + "hta_alexnet_a100_1rank.json.gz", "-o", path("alexnet.sqlite"), "-q" }).exitCode,
            0);
        ASSERT_EQ(run({ "import", traces + "kineto_resnet50_v100_legacy2021.pt.trace.json.gz", "-o",
                          path("resnet.sqlite"), "-q" })
                      .exitCode,
            0);
    }
    static void TearDownTestSuite() { s_temp.reset(); }

    static std::string path(const std::string& name) { return (s_dir / name).string(); }

    static CliRun run(const std::vector<std::string>& args) { return placescope::testing::runPlacescope(args, s_dir); }
    static void expectOneLine(const CliRun& r, int exitCode, const std::string& contains)
    {
        placescope::testing::expectOneLineError(r, exitCode, contains);
    }

    static std::unique_ptr<placescope::testing::TempDir> s_temp;

    static fs::path s_dir;
};
std::unique_ptr<placescope::testing::TempDir> DiffCli::s_temp;
fs::path DiffCli::s_dir;

TEST_F(DiffCli, MissingSideIsOneLineAndExitOne)
{
    expectOneLine(run({ "diff", path("alexnet.sqlite"), path("nothing.sqlite") }), 1, "no such trace file");
    expectOneLine(run({ "diff", path("nothing.sqlite"), path("alexnet.sqlite") }), 1, "no such trace file");
}

TEST_F(DiffCli, NotATraceIsOneLineAndExitOne)
{
    const std::string model = std::string(PLACESCOPE_DATA_DIR) + "/models/mnist.onnx";
    expectOneLine(run({ "diff", path("alexnet.sqlite"), model }), 1, "not a SQLite database");
}

TEST_F(DiffCli, UsageErrorsExitTwo)
{
    EXPECT_EQ(run({ "diff", path("alexnet.sqlite") }).exitCode, 2); // one side only
    EXPECT_EQ(run({ "diff", path("alexnet.sqlite"), path("resnet.sqlite"), "--by", "layer" }).exitCode, 2);
    EXPECT_EQ(run({ "diff", path("alexnet.sqlite"), path("resnet.sqlite"), "--step", "1", "--all-steps" }).exitCode, 2);
    expectOneLine(
        run({ "diff", path("alexnet.sqlite"), path("resnet.sqlite"), "--format", "pdf" }), 2, "unknown format");
    expectOneLine(run({ "diff", path("alexnet.sqlite"), path("resnet.sqlite"), "--step", "5" }), 2, "--step 5");
}

TEST_F(DiffCli, OutputNamingEitherTraceIsRefused)
{
    for (const std::string side : { "alexnet.sqlite", "resnet.sqlite" }) {
        const std::string before = readFile(path(side));
        expectOneLine(run({ "diff", path("alexnet.sqlite"), path("resnet.sqlite"), "-o", path(side) }), 1, "input");
        EXPECT_TRUE(readFile(path(side)) == before) << side << " was changed";
    }
}

TEST_F(DiffCli, PredictedTraceIsAValidSide)
{
    ASSERT_EQ(
        run({ "whatif", path("alexnet.sqlite"), "--edit", "no-sync", "-o", path("predicted.sqlite") }).exitCode, 0);
    const CliRun r = run({ "diff", path("alexnet.sqlite"), path("predicted.sqlite"), "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    // The prediction keeps every kernel (no-sync moves work, it drops none): same names and counts.
    ASSERT_FALSE(json["kernels"].empty());
    for (const auto& k : json["kernels"])
        EXPECT_EQ(k["count_a"], k["count_b"]) << k["name"];
    EXPECT_TRUE(json["steps"]["mean_ns_b"].is_number_integer());
    EXPECT_LE(json["steps"]["mean_ns_b"].get<int64_t>(), json["steps"]["mean_ns_a"].get<int64_t>());
}

TEST_F(DiffCli, GpuPatternStepsKeepTheirKernelsAfterNoSync)
{
    // CloverLeaf's steps come from its kernel pattern (GPU time). Without syncs the predicted host runs far ahead
    // of the GPU, so attributing kernels by launch time would move every one of them out of the steps.
    const std::string nsys = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
    ASSERT_EQ(run({ "import", nsys, "-o", path("clover.sqlite"), "-q" }).exitCode, 0);
    ASSERT_EQ(
        run({ "whatif", path("clover.sqlite"), "--edit", "no-sync", "-o", path("clover_pred.sqlite") }).exitCode, 0);
    const CliRun r = run({ "diff", path("clover.sqlite"), path("clover_pred.sqlite"), "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    const auto& outside = json["steps"]["kernels"]["outside_steps"];
    EXPECT_EQ(outside["count_a"], outside["count_b"]);
    EXPECT_LT(json["steps"]["mean_ns_b"].get<int64_t>(), json["steps"]["mean_ns_a"].get<int64_t>()); // 55.0 -> 50.8 ms
    for (const auto& k : json["steps"]["kernels"]["compared"])
        EXPECT_EQ(k["change"], "same") << k["name"];
}

TEST_F(DiffCli, PredictionAgainstAMeasuredRunReportsTheError)
{
    // The sync-free CloverLeaf was never measured: a copy of the measured run stands for "after the change" (a file
    // of another name, as a new measurement would be). The diff names the prediction and gives its error.
    const std::string nsys = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
    ASSERT_EQ(run({ "import", nsys, "-o", path("clover_src.sqlite"), "-q" }).exitCode, 0);
    ASSERT_EQ(
        run({ "whatif", path("clover_src.sqlite"), "--edit", "no-sync", "-o", path("clover_nosync.sqlite"), "-q" })
            .exitCode,
        0);
    fs::copy_file(path("clover_src.sqlite"), path("clover_after.sqlite"), fs::copy_options::overwrite_existing);

    CliRun r = run({ "diff", path("clover_nosync.sqlite"), path("clover_after.sqlite"), "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["a"]["prediction"]["from"], "clover_src.sqlite");
    EXPECT_EQ(json["a"]["prediction"]["edits"], "no-sync");
    EXPECT_TRUE(json["b"]["prediction"].is_null());
    ASSERT_TRUE(json.contains("prediction_error"));
    const auto& error = json["prediction_error"];
    EXPECT_EQ(error["predicted_side"], "a");
    // Error = predicted - measured, on the same figures the step table compares.
    const int64_t predicted = json["steps"]["mean_ns_a"], measured = json["steps"]["mean_ns_b"];
    EXPECT_EQ(error["mean_step"]["predicted_ns"], predicted);
    EXPECT_EQ(error["mean_step"]["measured_ns"], measured);
    EXPECT_EQ(error["mean_step"]["error_ns"], predicted - measured);
    EXPECT_LT(predicted, measured); // no-sync predicts a faster step than the run with its syncs
    ASSERT_EQ(error["steps"].size(), json["steps"]["compared"].size());
    ASSERT_FALSE(error["steps"].empty());
    for (const auto& step : error["steps"]) {
        const auto& pair = json["steps"]["steps"][step["position"].get<size_t>()];
        EXPECT_EQ(step["predicted_ns"], pair["ns_a"]);
        EXPECT_EQ(step["measured_ns"], pair["ns_b"]);
        EXPECT_EQ(step["error_ns"], pair["ns_a"].get<int64_t>() - pair["ns_b"].get<int64_t>());
    }
    // whatif --compare measures the same error with the replay's own step rule: they agree within 0.1 point.
    r = run({ "whatif", path("clover_src.sqlite"), "--edit", "no-sync", "--compare", path("clover_after.sqlite"),
        "--json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const double whatifError = nlohmann::json::parse(r.out)["compare"]["prediction_step_error"];
    EXPECT_NEAR(error["mean_step"]["relative_error"].get<double>(), whatifError, 1e-3);

    r = run({ "diff", path("clover_nosync.sqlite"), path("clover_after.sqlite") });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("A (before, predicted)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("comparing a prediction with a measured run"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Prediction error"), std::string::npos) << r.out;

    // Against the run it was predicted from, the deltas are the edit's predicted effect: said so, and no error.
    r = run({ "diff", path("clover_src.sqlite"), path("clover_nosync.sqlite"), "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    json = nlohmann::json::parse(r.out);
    EXPECT_FALSE(json.contains("prediction_error"));
    EXPECT_EQ(json["b"]["prediction"]["from"], "clover_src.sqlite");
    bool said = false;
    for (const auto& note : json["notes"])
        said = said || note.get<std::string>().find("predicted to change, not an error") != std::string::npos;
    EXPECT_TRUE(said) << json["notes"];
}

TEST_F(DiffCli, PredictionErrorPerClassInEveryFormat)
{
    // AlexNet on an A100 predicted with its cuBLAS sgemm kernels twice as fast, against the measured run (a copy under
    // another name): the GEMM class carries the error, every other class none.
    ASSERT_EQ(
        run({ "whatif", path("alexnet.sqlite"), "--edit", "kernels:sgemm=x0.5", "-o", path("alex_gemm.sqlite"), "-q" })
            .exitCode,
        0);
    fs::copy_file(path("alexnet.sqlite"), path("alex_after.sqlite"), fs::copy_options::overwrite_existing);
    CliRun r = run({ "diff", path("alex_gemm.sqlite"), path("alex_after.sqlite"), "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    const auto& classes = json["prediction_error"]["classes"];
    ASSERT_GE(classes.size(), 3u);
    int64_t sgemmNs = 0; // the sgemm kernels' measured time, from the kernel table
    for (const auto& k : json["kernels"])
        if (k["name"].get<std::string>().find("sgemm") != std::string::npos)
            sgemmNs += k["ns_b"].get<int64_t>();
    ASSERT_GT(sgemmNs, 0);
    bool gemm = false;
    for (const auto& c : classes) {
        for (const char* key : { "predicted_ns", "measured_ns", "error_ns" })
            EXPECT_TRUE(c[key].is_number_integer()) << c["class"] << " " << key;
        const int64_t error = c["whole_trace"]["error_ns"];
        if (c["class"] == "GEMM") {
            gemm = true;
            EXPECT_NEAR(error, -sgemmNs / 2, 8); // halved per kernel, rounded per kernel
        } else {
            EXPECT_EQ(error, 0) << c["class"];
        }
    }
    EXPECT_TRUE(gemm) << classes;

    r = run({ "diff", path("alex_gemm.sqlite"), path("alex_after.sqlite") });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("Prediction error per class of GPU work"), std::string::npos) << r.out;
    r = run({ "diff", path("alex_gemm.sqlite"), path("alex_after.sqlite"), "-o", path("alex_class.html"), "-q" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string html = readFile(path("alex_class.html"));
    EXPECT_NE(html.find("Per class of GPU work"), std::string::npos);
    EXPECT_NE(html.find("<td>GEMM</td>"), std::string::npos);

    // whatif --compare gives the error per class too, and --by class is a grouping like the others.
    r = run({ "whatif", path("alexnet.sqlite"), "--edit", "kernels:sgemm=x0.5", "--compare", path("alex_after.sqlite"),
        "--json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto compare = nlohmann::json::parse(r.out)["compare"]["classes"];
    ASSERT_FALSE(compare.empty());
    for (const auto& c : compare)
        if (c["class"] != "GEMM")
            EXPECT_EQ(c["error_ns"], 0) << c["class"];
        else
            EXPECT_LT(c["error_ns"].get<int64_t>(), 0);
    r = run({ "diff", path("alex_gemm.sqlite"), path("alex_after.sqlite"), "--by", "class", "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto byClass = nlohmann::json::parse(r.out);
    ASSERT_TRUE(byClass.contains("classes"));
    EXPECT_EQ(byClass["classes"].size(), classes.size());
}

// rule -> the savings `analyze --format json` gives its findings, in order: the replay's where simulated, else the
// rule's estimate.
std::map<std::string, std::vector<std::pair<double, bool>>> analyzeSavings(const CliRun& r)
{
    std::map<std::string, std::vector<std::pair<double, bool>>> out;
    const auto json = nlohmann::json::parse(r.out); // kept alive: the loop walks into it
    for (const auto& f : json["findings"]) {
        const auto& saving = f["saving"];
        const bool simulated = saving.contains("simulated_ms");
        out[f["rule"].get<std::string>()].push_back(
            { simulated ? saving["simulated_ms"].get<double>() : saving["per_step_ms"].get<double>(), simulated });
    }
    return out;
}

TEST_F(DiffCli, SimulateComparesFindingsOnTheSavingsAnalyzeReports)
{
    const std::string nsys = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
    ASSERT_EQ(run({ "import", nsys, "-o", path("sim_src.sqlite"), "-q" }).exitCode, 0);
    ASSERT_EQ(
        run({ "whatif", path("sim_src.sqlite"), "--edit", "no-sync", "-o", path("sim_nosync.sqlite"), "-q" }).exitCode,
        0);
    const CliRun analyzeA = run({ "analyze", path("sim_src.sqlite"), "--format", "json" });
    const CliRun analyzeB = run({ "analyze", path("sim_nosync.sqlite"), "--format", "json" });
    ASSERT_EQ(analyzeA.exitCode, 0) << analyzeA.err;
    ASSERT_EQ(analyzeB.exitCode, 0) << analyzeB.err;
    auto expectedA = analyzeSavings(analyzeA), expectedB = analyzeSavings(analyzeB);

    CliRun r = run({ "diff", path("sim_src.sqlite"), path("sim_nosync.sqlite"), "--simulate", "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto findings = nlohmann::json::parse(r.out)["findings"];
    ASSERT_FALSE(findings.empty());
    size_t simulated = 0;
    for (const auto& f : findings) {
        const std::string rule = f["rule"];
        const std::string status = f["status"];
        if (status != "new") {
            ASSERT_FALSE(expectedA[rule].empty()) << rule;
            EXPECT_NEAR(f["saving_ms_a"].get<double>(), expectedA[rule].front().first, 1e-3) << rule;
            EXPECT_EQ(f["simulated_a"], expectedA[rule].front().second) << rule;
            expectedA[rule].erase(expectedA[rule].begin());
            simulated += f["simulated_a"].get<bool>();
        }
        if (status != "resolved") {
            ASSERT_FALSE(expectedB[rule].empty()) << rule;
            EXPECT_NEAR(f["saving_ms_b"].get<double>(), expectedB[rule].front().first, 1e-3) << rule;
            EXPECT_EQ(f["simulated_b"], expectedB[rule].front().second) << rule;
            expectedB[rule].erase(expectedB[rule].begin());
        }
    }
    EXPECT_GT(simulated, 0u); // CloverLeaf's sync wait is simulated with the no-sync edit
    // Without --simulate: the rules' estimates, said so.
    r = run({ "diff", path("sim_src.sqlite"), path("sim_nosync.sqlite"), "--format", "json" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto estimated = nlohmann::json::parse(r.out);
    ASSERT_FALSE(estimated["findings"].empty());
    for (const auto& f : estimated["findings"]) {
        EXPECT_FALSE(f["simulated_a"].get<bool>() || f["simulated_b"].get<bool>()) << f["rule"];
        EXPECT_EQ(f["saving_ms_a"], f["estimated_ms_a"]);
        EXPECT_EQ(f["saving_ms_b"], f["estimated_ms_b"]);
    }
}

TEST_F(DiffCli, JsonAndHtmlOutputs)
{
    CliRun r = run({ "diff", path("alexnet.sqlite"), path("resnet.sqlite"), "--by", "op", "-o", path("diff.json") });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(readFile(path("diff.json")));
    for (const char* key : { "kernels", "ops", "steps", "copies", "figures", "findings", "notes" })
        EXPECT_TRUE(json.contains(key)) << key;
    for (const char* key : { "name", "count_a", "count_b", "ns_a", "ns_b" })
        EXPECT_TRUE(json["kernels"][0].contains(key)) << key;
    EXPECT_TRUE(json["kernels"][0]["ns_b"].is_number_integer());
    EXPECT_TRUE(json["steps"].contains("ops"));

    r = run({ "diff", path("alexnet.sqlite"), path("resnet.sqlite"), "-o", path("diff.html") });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string html = readFile(path("diff.html"));
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("<svg"), std::string::npos);
    EXPECT_EQ(html.find("<script"), std::string::npos); // one self-contained file
    EXPECT_NE(html.find("different GPUs"), std::string::npos);
}

} // namespace
