// SPDX-License-Identifier: MIT
// Choosing the graph source by content.
#include "placement/graph/model_loader.h"

#include "graph_test_files.h"
#include "profiler/importers/importer.h"

#include <gtest/gtest.h>

#include <random>

namespace placescope {
namespace {

using test::modelPath;
using test::TempFile;
using test::tracePath;

TEST(ModelLoader, PicksTheSourceFromTheContent)
{
    // An ONNX model under a misleading name is still read as ONNX.
    TempFile renamed(".json");
    renamed.write(test::readBytes(modelPath("mnist.onnx")));
    auto onnx = loadModelGraph(renamed.path());
    ASSERT_TRUE(onnx) << onnx.status().message();
    EXPECT_EQ(onnx->source, "onnx");
    EXPECT_EQ(onnx->ops.size(), 12u);

    auto et = loadModelGraph(tracePath("hta_benchmark_simple_add_et.json.gz"));
    ASSERT_TRUE(et) << et.status().message();
    EXPECT_EQ(et->source, "pytorch-et");

    TempFile trace(".sqlite");
    auto imported = importTraces({ tracePath("hta_benchmark_simple_add_trace.json.gz") }, trace.path(), {});
    ASSERT_TRUE(imported) << imported.status().message();
    auto sniffed = sniffGraphSource(trace.path());
    ASSERT_TRUE(sniffed);
    EXPECT_EQ(*sniffed, GraphSourceKind::PlacescopeTrace);
    auto ops = loadModelGraph(trace.path());
    ASSERT_TRUE(ops) << ops.status().message();
    EXPECT_EQ(ops->source, "trace-ops");
}

TEST(ModelLoader, AnythingElseIsAOneLineError)
{
    auto expectError = [](const Result<ModelGraph>& result, const std::string& mentions) {
        ASSERT_FALSE(result);
        EXPECT_EQ(result.status().message().find('\n'), std::string::npos) << result.status().message();
        EXPECT_NE(result.status().message().find(mentions), std::string::npos) << result.status().message();
    };
    std::mt19937 random(11);
    std::string noise(2048, '\0');
    for (char& c : noise)
        c = static_cast<char>(random() & 0xff);
    noise[0] = 0x55; // not a protobuf tag an ONNX writer starts with, not '{', not gzip
    TempFile garbage(".bin");
    garbage.write(noise);
    expectError(loadModelGraph(garbage.path()), "not a model");

    const std::string real = test::readBytes(modelPath("light_resnet50.onnx"));
    TempFile truncated(".onnx");
    truncated.write(real.substr(0, 4000));
    expectError(loadModelGraph(truncated.path()), "not an ONNX model");

    TempFile empty(".onnx");
    empty.write("");
    expectError(loadModelGraph(empty.path()), "empty");
    expectError(loadModelGraph(PLACESCOPE_DATA_DIR), "directory");
    expectError(loadModelGraph(modelPath("missing.onnx")), "cannot open");
}

} // namespace
} // namespace placescope
