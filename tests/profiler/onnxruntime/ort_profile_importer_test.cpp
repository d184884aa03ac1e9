// SPDX-License-Identifier: MIT
// The ONNX Runtime profile importer on real profiles ORT 1.30 wrote (tests/data/traces, made by
// scripts/make_ort_profiles.js; see SOURCES.md), with the figures of an independent reader (Python's json module):
//   python3 tests/data/ort_ref.py tests/data/traces/<file>
// and damaged copies of them (truncated, not events, another phase, an unknown provider, an empty array).
#include "profiler/importers/importer.h"
#include "tests/support/query_int.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace placescope {
namespace {

const std::string kMnist = std::string(PLACESCOPE_DATA_DIR) + "/traces/ort130_mnist_cpu.json";
const std::string kUltraface = std::string(PLACESCOPE_DATA_DIR) + "/traces/ort130_ultraface_rfb320_cpu.json";

class OrtProfileImporterTest : public ::testing::Test
{
protected:
    int64_t count(const std::string& sql) const { return testing::queryInt(m_out, sql); }

    std::string write(const std::string& name, const std::string& bytes) const { return m_dir.write(name, bytes); }

    const testing::TempDir m_dir { "ort" };
    const std::string m_out = m_dir.file("out.sqlite");
};

TEST_F(OrtProfileImporterTest, SniffsProfileFromContentNotName)
{
    auto format = sniffTraceFormat(write("run.trace", testing::fileBytes(kMnist)));
    ASSERT_TRUE(format.isOk()) << format.status().message();
    EXPECT_EQ(format.value(), TraceFormat::OrtProfile);
    // A Kineto trace in the bare-array form stays one.
    auto kineto = sniffTraceFormat(write("k.json", R"([{"ph":"X","cat":"kernel","name":"k","ts":1,"dur":2}])"));
    ASSERT_TRUE(kineto.isOk());
    EXPECT_EQ(kineto.value(), TraceFormat::KinetoJson);
}

// ort_ref.py on ort130_ultraface_rfb320_cpu.json: node_nodes 158, node_ns 103543000, layout_nodes 24,
// layout_ns 281000, nodes_on_CPU 182, session_events 6, session_ns 303360000, steps 2, step_ns 105575000,
// memory_events 182, memory_delta_bytes 12379392.
TEST_F(OrtProfileImporterTest, UltrafaceMatchesIndependentReader)
{
    auto summary = importTraces({ kUltraface }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE category = 'ort_node'"), 158);
    EXPECT_EQ(count("SELECT SUM(end - start) FROM PS_FRAMEWORK_OPS WHERE category = 'ort_node'"), 103543000);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE category = 'ort_layout'"), 24);
    EXPECT_EQ(count("SELECT SUM(end - start) FROM PS_FRAMEWORK_OPS WHERE category = 'ort_layout'"), 281000);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE json_extract(extra, '$.device') = 'CPU' "
                    "AND json_extract(extra, '$.provider') = 'CPUExecutionProvider'"),
        182);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE category = 'ort_session'"), 6);
    EXPECT_EQ(count("SELECT SUM(end - start) FROM PS_FRAMEWORK_OPS WHERE category = 'ort_session'"), 303360000);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_STEPS"), 2);
    EXPECT_EQ(count("SELECT SUM(end - start) FROM PS_STEPS"), 105575000);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_MEMORY_EVENTS WHERE deviceType = 0"), 182);
    EXPECT_EQ(count("SELECT SUM(bytes) FROM PS_MEMORY_EVENTS"), 12379392);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_PROBLEMS"), 0);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_META WHERE key = 'source_format' AND value = 'onnxruntime_profile'"), 1);
}

// ort_ref.py on ort130_mnist_cpu.json: node_nodes 12, node_ns 621000, layout_nodes 4, steps 2; every node's op
// type, node index and shapes as the profile gives them (the first Conv: node 15, input [1,1,28,28] float).
TEST_F(OrtProfileImporterTest, MnistKeepsOpTypeShapesAndNodeIndex)
{
    auto summary = importTraces({ kMnist }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE category = 'ort_node'"), 12);
    EXPECT_EQ(count("SELECT SUM(end - start) FROM PS_FRAMEWORK_OPS WHERE category = 'ort_node'"), 621000);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE category = 'ort_layout' "
                    "AND json_extract(extra, '$.op_name') = 'ReorderOutput'"),
        4);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS f JOIN StringIds s ON s.id = f.nameId "
                    "WHERE s.value = 'ReLU32_Output_0_nchwc' AND json_extract(f.extra, '$.op_name') = 'Conv' "
                    "AND json_extract(f.extra, '$.node_index') = 15 AND f.inputDims = '[[1,1,28,28],[16,1,5,5],[16]]' "
                    "AND f.inputTypes = '[\"float\",\"float\",\"float\"]'"),
        2); // one per run
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_STEPS"), 2);
}

TEST_F(OrtProfileImporterTest, TruncatedProfileKeepsWhatWasReadAndCountsIt)
{
    const std::string bytes = testing::fileBytes(kMnist);
    const std::string cut = write("cut.json", bytes.substr(0, bytes.size() / 2));
    auto summary = importTraces({ cut }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(count("SELECT count FROM PS_PROBLEMS WHERE kind = 'ort.truncated_json'"), 1);
    EXPECT_GT(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 0);
}

TEST_F(OrtProfileImporterTest, BadElementsAreCountedByKind)
{
    const std::string input = write("bad.json",
        "[\n{\"cat\" : \"Session\",\"pid\" :1,\"tid\" :1,\"dur\" :9,\"ts\" :1,\"ph\" : \"X\",\"name\" "
        ":\"model_run\"},\n"
        "{\"cat\" : \"Node\",\"ph\" : \"B\",\"ts\" :2,\"name\" :\"a\"},\n7,\n"
        "{\"cat\" : \"Kernel\",\"ph\" : \"X\",\"ts\" :2,\"dur\" :1,\"name\" :\"sgemm\"},\n"
        "{\"cat\" : \"Node\",\"ph\" : \"X\",\"ts\" :3,\"name\" :\"b_kernel_time\"},\n"
        "{\"cat\" : \"Node\",\"ph\" : \"X\",\"ts\" :3,\"dur\" :2,\"name\" :\"c_kernel_time\",\"args\" : "
        "{\"op_name\" : \"Add\",\"provider\" : \"FooExecutionProvider\"}}\n]\n");
    auto summary = importTraces({ input }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(count("SELECT count FROM PS_PROBLEMS WHERE kind = 'ort.unsupported_phase'"), 1);
    EXPECT_EQ(count("SELECT count FROM PS_PROBLEMS WHERE kind = 'ort.bad_json_record'"), 1);
    EXPECT_EQ(count("SELECT count FROM PS_PROBLEMS WHERE kind = 'ort.unknown_category'"), 1);
    EXPECT_EQ(count("SELECT count FROM PS_PROBLEMS WHERE kind = 'ort.bad_timestamp'"), 1);
    EXPECT_EQ(count("SELECT count FROM PS_PROBLEMS WHERE kind = 'ort.unknown_provider'"), 1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE json_extract(extra, '$.device') = ''"), 1);
}

TEST_F(OrtProfileImporterTest, ProfileWithoutEventsIsOneLineErrorAndNoOutput)
{
    const std::string input = write("empty.json", "[\n{\"cat\" : \"Session\",\"ph\" : \"i\",\"ts\" :1}\n]\n");
    auto summary = importTraces({ input }, m_out, {});
    ASSERT_FALSE(summary.isOk());
    EXPECT_NE(summary.status().message().find("no event of an ONNX Runtime profile"), std::string::npos)
        << summary.status().message();
    EXPECT_EQ(summary.status().message().find('\n'), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(m_out));
}

} // namespace
} // namespace placescope
