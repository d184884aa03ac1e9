// SPDX-License-Identifier: MIT
// The XPlane importer on real JAX captures from AMD MI300X (tests/data/traces, see SOURCES.md), with the figures of
// an independent reader (protoc --decode of the same file, summed in Python):
//   python3 tests/data/xplane_ref.py tests/data/traces/<file>
// and damaged copies of them (truncated, a byte changed, a string made non-UTF-8, no GPU plane).
#include "profiler/importers/importer.h"
#include "tests/support/query_int.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace placescope {
namespace {

const std::string kGemm = std::string(PLACESCOPE_DATA_DIR) + "/traces/jax08_gemm_mi300x.xplane.pb";
const std::string kSeed
    = std::string(PLACESCOPE_SOURCE_DIR) + "/tests/profiler/fuzz/corpus/xplane/small_xspace.xplane.pb";
const std::string kConv = std::string(PLACESCOPE_DATA_DIR) + "/traces/jax08_conv3d_mi300x8.xplane.pb";
const std::string kTfExcerpt = std::string(PLACESCOPE_DATA_DIR) + "/traces/tf_bert_v100_step_excerpt.xplane.pb";

class XPlaneImporterTest : public ::testing::Test
{
protected:
    int64_t count(const std::string& sql) const { return testing::queryInt(m_out, sql); }

    std::string write(const std::string& name, const std::string& bytes) const { return m_dir.write(name, bytes); }

    const testing::TempDir m_dir { "xplane" };
    const std::string m_out = m_dir.file("out.sqlite");
};

TEST_F(XPlaneImporterTest, SniffsXSpaceFromContentNotName)
{
    std::string renamed = write("capture.bin", testing::fileBytes(kGemm));
    auto format = sniffTraceFormat(renamed);
    ASSERT_TRUE(format.isOk()) << format.status().message();
    EXPECT_EQ(format.value(), TraceFormat::XPlane);
}

// xplane_ref.py on jax08_gemm_mi300x.xplane.pb: kernels 54, kernel_ns 3475484, api_calls 54, memory_events 162,
// gpus 8, host_events 3512.
TEST_F(XPlaneImporterTest, JaxGemmMatchesIndependentReader)
{
    auto summary = importTraces({ kGemm }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 54);
    EXPECT_EQ(count("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 3475484);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 54);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_MEMORY_EVENTS"), 162);
    EXPECT_EQ(count("SELECT COUNT(*) FROM TARGET_INFO_GPU"), 8);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 3512);
    // Every kernel's launch is on the host: the correlation ids pair one to one.
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                    "ON r.correlationId = k.correlationId"),
        54);
    // ROCm's kernel_details: grid and block without registers.
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE blockX > 0 AND gridX > 0"), 54);
    // Device facts from the plane's stats (MI300X: 304 compute units).
    EXPECT_EQ(count("SELECT MIN(smCount) FROM TARGET_INFO_GPU"), 304);
}

// xplane_ref.py on jax08_conv3d_mi300x8.xplane.pb: kernels 235, kernel_ns 28137077, api_calls 234.
TEST_F(XPlaneImporterTest, JaxConv3dMatchesIndependentReader)
{
    auto summary = importTraces({ kConv }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 235);
    EXPECT_EQ(count("SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 28137077);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 234);
}

// The fuzz corpus' small XSpace (scripts/make_xplane_fuzz_seeds.py writes it from text): every field where it
// belongs. Times: line timestamp_ns + offset_ps / 1000 (the kernel: 1000 + 5000000 / 1000).
TEST_F(XPlaneImporterTest, SmallXSpaceFieldByField)
{
    auto summary = importTraces({ kSeed }, m_out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start = 6000 AND end = 8000 AND "
                    "streamId = 7 AND correlationId = 42 AND registersPerThread = 38 AND gridX = 160 AND "
                    "blockX = 1024 AND staticSharedMemory = 0"),
        1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE bytes = 4096 AND copyKind = 1 AND "
                    "correlationId = 43"),
        1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE bytes = 256"), 1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                    "WHERE s.value = 'cudaLaunchKernel' AND r.correlationId = 42 AND r.start = 1900"),
        1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_STEPS WHERE start = 1000 AND end = 21000"), 1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM TARGET_INFO_GPU WHERE clockRate = 1530000000 AND smCount = 80"), 1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_MEMORY_EVENTS WHERE bytes = 1024"), 1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE category = 'tf_op'"), 1);
}

TEST_F(XPlaneImporterTest, DamagedInputIsOneLineErrorAndNoOutput)
{
    const std::string bytes = testing::fileBytes(kGemm);
    std::string truncated = write("truncated.xplane.pb", bytes.substr(0, bytes.size() / 2));
    // A byte of a string made 0xFF: not UTF-8, which proto3 refuses.
    std::string bad = bytes;
    size_t at = bad.find("/device:GPU:0");
    ASSERT_NE(at, std::string::npos);
    bad[at + 1] = static_cast<char>(0xFF);
    std::string nonUtf8 = write("non_utf8.xplane.pb", bad);
    for (const std::string& input : { truncated, nonUtf8 }) {
        auto summary = importTraces({ input }, m_out, {});
        ASSERT_FALSE(summary.isOk()) << input;
        EXPECT_EQ(summary.status().message().find('\n'), std::string::npos);
        EXPECT_NE(summary.status().message().find("XPlane"), std::string::npos) << summary.status().message();
        EXPECT_FALSE(std::filesystem::exists(m_out));
    }
}

// Lines are parsed one at a time as they are mapped, and derived lines are skipped unparsed (xspace_wire.h); a line's
// name is read to choose, so a bad one is refused, with no output, on a stream line and on a derived line alike.
TEST_F(XPlaneImporterTest, NonUtf8LineNameIsRefused)
{
    for (const char* lineName : { "Stream #", "TensorFlow Name Scope" }) {
        std::string bytes = testing::fileBytes(kTfExcerpt);
        const size_t at = bytes.find(lineName);
        ASSERT_NE(at, std::string::npos) << lineName;
        bytes[at] = static_cast<char>(0xFF);
        auto summary = importTraces({ write("bad_line.xplane.pb", bytes) }, m_out, {});
        ASSERT_FALSE(summary.isOk()) << lineName;
        EXPECT_NE(summary.status().message().find("not UTF-8"), std::string::npos) << summary.status().message();
        EXPECT_FALSE(std::filesystem::exists(m_out));
    }
}

TEST_F(XPlaneImporterTest, NoGpuPlaneIsRefused)
{
    // The GPU planes renamed to TPU ones (same length, so the protobuf stays valid): a TPU profile.
    std::string bytes = testing::fileBytes(kGemm);
    for (size_t at; (at = bytes.find("/device:GPU:")) != std::string::npos;)
        bytes.replace(at, 12, "/device:TPU:");
    auto summary = importTraces({ write("tpu.xplane.pb", bytes) }, m_out, {});
    ASSERT_FALSE(summary.isOk());
    EXPECT_NE(summary.status().message().find("TPU"), std::string::npos) << summary.status().message();
    EXPECT_FALSE(std::filesystem::exists(m_out));
}

} // namespace
} // namespace placescope
