// SPDX-License-Identifier: MIT
// TensorBoard's trace-viewer JSON: the TF BERT V100 step read from its .trace.json.gz (made from the .xplane.pb of the
// same capture by scripts/make_tensorboard_trace_json.py, TensorBoard's converter reproduced) gives the kernels and
// copies its .xplane.pb gives, and both the figures of the independent reader (protoc --decode, summed in Python):
//   python3 tests/data/xplane_ref.py tests/data/traces/tf_bert_v100_step_excerpt.xplane.pb
//   -> kernels 665, kernel_ns 14825385, memcpys 23, memcpy_bytes 73873, api_calls 688, steps 1
// Damaged copies get one line and leave nothing behind.
#include "profiler/importers/common/byte_source.h"
#include "profiler/importers/importer.h"
#include "tests/support/query_int.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace placescope {
namespace {

const std::string kXPlane = std::string(PLACESCOPE_DATA_DIR) + "/traces/tf_bert_v100_step_excerpt.xplane.pb";
const std::string kJson = std::string(PLACESCOPE_DATA_DIR) + "/traces/tf_bert_v100_step_excerpt.trace.json.gz";

class TensorBoardTraceTest : public ::testing::Test
{
protected:
    std::string out(const std::string& name) const { return m_dir.file(name); }

    static int64_t query(const std::string& trace, const std::string& sql) { return testing::queryInt(trace, sql); }
    // The JSON text inside the .gz (read with the importers' own gzip reader).
    static std::string jsonText()
    {
        auto source = ByteSource::open(kJson);
        EXPECT_TRUE(source.isOk());
        std::string text;
        char chunk[1 << 16];
        for (;;) {
            auto n = source.value()->read(chunk, sizeof chunk);
            if (!n.isOk() || *n == 0)
                break;
            text.append(chunk, *n);
        }
        return text;
    }
    std::string write(const std::string& name, const std::string& bytes) const { return m_dir.write(name, bytes); }
    // A failed import: one line, no file left.
    void expectRefused(const std::string& input, const std::string& words)
    {
        const std::string output = out("refused.sqlite");
        auto summary = importTraces({ input }, output, {});
        ASSERT_FALSE(summary.isOk()) << input;
        EXPECT_NE(summary.status().message().find(words), std::string::npos) << summary.status().message();
        EXPECT_EQ(summary.status().message().find('\n'), std::string::npos);
        EXPECT_FALSE(std::filesystem::exists(output));
        EXPECT_FALSE(std::filesystem::exists(output + ".partial"));
    }

    const testing::TempDir m_dir { "tensorboard" };
};

TEST_F(TensorBoardTraceTest, SniffsTheDialectFromContentNotName)
{
    const std::string gz = testing::fileBytes(kJson);
    for (const std::string& path : { write("capture.bin", gz), write("plain.json", jsonText()) }) {
        auto format = sniffTraceFormat(path);
        ASSERT_TRUE(format.isOk()) << format.status().message();
        EXPECT_EQ(format.value(), TraceFormat::TensorBoardTrace) << path;
    }
    // A PyTorch profiler trace is an object with traceEvents too: still Kineto.
    auto kineto = sniffTraceFormat(std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz");
    ASSERT_TRUE(kineto.isOk());
    EXPECT_EQ(kineto.value(), TraceFormat::KinetoJson);
}

TEST_F(TensorBoardTraceTest, SameKernelsAndCopiesAsTheCapturesXPlane)
{
    const std::string fromJson = out("json.sqlite"), fromXPlane = out("xplane.sqlite");
    auto json = importTraces({ kJson }, fromJson, {});
    ASSERT_TRUE(json.isOk()) << json.status().message();
    ASSERT_TRUE(importTraces({ kXPlane }, fromXPlane, {}).isOk());
    EXPECT_EQ(query(fromJson, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 665);
    EXPECT_EQ(query(fromJson, "SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 14825385);
    EXPECT_EQ(query(fromJson, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"), 23);
    EXPECT_EQ(query(fromJson, "SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY"), 73873);
    EXPECT_EQ(query(fromJson, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 688);
    EXPECT_EQ(query(fromJson, "SELECT COUNT(*) FROM PS_STEPS"), 1);
    // Event by event: the same start, end, stream, name and correlation id; copies with the same kind and bytes.
    for (const char* sql :
        { "SELECT SUM(start) FROM CUPTI_ACTIVITY_KIND_KERNEL", "SELECT SUM(end) FROM CUPTI_ACTIVITY_KIND_KERNEL",
            "SELECT SUM(streamId * correlationId) FROM CUPTI_ACTIVITY_KIND_KERNEL",
            "SELECT SUM(LENGTH(s.value)) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName",
            "SELECT SUM(start) FROM CUPTI_ACTIVITY_KIND_MEMCPY", "SELECT SUM(end) FROM CUPTI_ACTIVITY_KIND_MEMCPY",
            "SELECT SUM(copyKind * bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY",
            "SELECT SUM(streamId * correlationId) FROM CUPTI_ACTIVITY_KIND_MEMCPY",
            "SELECT SUM(start) + SUM(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME",
            "SELECT SUM(correlationId) FROM CUPTI_ACTIVITY_KIND_RUNTIME", "SELECT SUM(start) + SUM(end) FROM PS_STEPS",
            "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE category = 'tf_op'",
            "SELECT COUNT(*) FROM PS_EXTERNAL_CORRELATION" })
        EXPECT_EQ(query(fromJson, sql), query(fromXPlane, sql)) << sql;
    // What TensorBoard's JSON leaves out (internal to it): memory events and kernel launch shapes.
    EXPECT_EQ(query(fromJson, "SELECT COUNT(*) FROM PS_MEMORY_EVENTS"), 0);
    EXPECT_EQ(query(fromJson, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE gridX IS NOT NULL"), 0);
}

TEST_F(TensorBoardTraceTest, DamagedTracesGetOneLineAndLeaveNothing)
{
    const std::string text = jsonText();
    expectRefused(write("cut.trace.json", text.substr(0, text.size() / 2)), "not a readable TensorBoard trace");
    const std::string gz = testing::fileBytes(kJson);
    expectRefused(write("cut.trace.json.gz", gz.substr(0, gz.size() / 2)), "");
    std::string nonUtf8 = text;
    nonUtf8.replace(nonUtf8.find("MemcpyH2D"), 9, "Memcpy\xff\xfe\xfd");
    expectRefused(write("non_utf8.trace.json", nonUtf8), "not a readable TensorBoard trace");
    // The host plane alone: no GPU plane to read kernels from.
    expectRefused(write("host_only.trace.json",
                      R"({"traceEvents":[{"ph":"M","pid":1,"name":"process_name","args":{"name":"/host:CPU"}},)"
                      R"({"ph":"X","pid":1,"tid":5,"ts":1.5,"dur":2,"name":"Identity:Identity"},{}]})"),
        "holds no GPU plane");
}

// Elements that are not events, and events with a bad field, are counted by kind; the rest is imported.
TEST_F(TensorBoardTraceTest, BadEventsAreCountedAndSkipped)
{
    std::string text = jsonText();
    const size_t firstX = text.find(R"({"ph":"X")");
    ASSERT_NE(firstX, std::string::npos);
    text.insert(firstX,
        R"(7,{"ph":"X","pid":1004,"tid":134,"ts":"soon","dur":1,"name":"k"},)"
        R"({"ph":"X","pid":77,"tid":1,"ts":5,"dur":1,"name":"no plane"},{"ph":"C","pid":1,"name":"c"},)");
    const std::string output = out("bad.sqlite");
    auto summary = importTraces({ write("bad.trace.json", text) }, output, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(query(output, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 665);
    for (const char* kind : { "tensorboard.bad_event", "tensorboard.bad_timestamp", "tensorboard.unknown_process",
             "tensorboard.unsupported_phase" })
        EXPECT_EQ(query(output, std::string("SELECT SUM(count) FROM PS_PROBLEMS WHERE kind = '") + kind + "'"), 1)
            << kind;
}

} // namespace
} // namespace placescope
