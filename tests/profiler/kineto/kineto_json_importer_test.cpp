// SPDX-License-Identifier: MIT
// Kineto JSON importer: real traces against figures printed by the independent parser
//   python3 tests/data/kineto_ref.py tests/data/traces/<file>
// (hta_alexnet_a100_1rank: kernel_count 79, kernel_ns 10692000, memcpy_pageable 16, memset_count 3;
//  kineto_resnet50_v100_legacy2021: kernel_count 8772, kernel_ns 591532000), and hand-written pitfall fixtures.
#include "profiler/importers/importer.h"
#include "profiler/importers/kineto_json/kineto_event_mapper.h"
#include "profiler/store/trace_file.h"
#include "tests/support/query_int.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace placescope {
namespace {

// The test program's one folder, removed when it ends.
const std::filesystem::path& tempDir()
{
    static const testing::TempDir s_dir("kineto_test");
    return s_dir.path();
}

std::string writeFile(const std::string& name, const std::string& text)
{
    std::string path = (tempDir() / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

using testing::queryInt;

TEST(KinetoTimestamps, FloatMicrosecondsToExactNanoseconds)
{
    EXPECT_EQ(parseMicrosecondsToNs("1419116234278.335"), 1419116234278335);
    EXPECT_EQ(parseMicrosecondsToNs("1669783687464181"), 1669783687464181000);
    EXPECT_EQ(parseMicrosecondsToNs("12.5"), 12500);
    EXPECT_EQ(parseMicrosecondsToNs("0.0004"), 0);
    EXPECT_EQ(parseMicrosecondsToNs("0.0005"), 1);
    EXPECT_EQ(parseMicrosecondsToNs("1.5e3"), 1500000);
    EXPECT_FALSE(parseMicrosecondsToNs("abc").has_value());
    // Whole microseconds (the fast path) as raw tokens end: at a comma, a brace, blanks, a closing quote.
    EXPECT_EQ(parseMicrosecondsToNs("7,"), 7000);
    EXPECT_EQ(parseMicrosecondsToNs("42 }"), 42000);
    EXPECT_EQ(parseMicrosecondsToNs("\"15\""), 15000);
    EXPECT_EQ(parseMicrosecondsToNs("-3"), -3000);
    EXPECT_EQ(parseMicrosecondsToNs("9000000000000000"), 9'000'000'000'000'000'000);
    EXPECT_FALSE(parseMicrosecondsToNs("9000000000000001").has_value()); // beyond int64 nanoseconds
    EXPECT_FALSE(parseMicrosecondsToNs("12345678901234567").has_value());
    EXPECT_FALSE(parseMicrosecondsToNs("12-3").has_value());
}

TEST(KinetoImporter, AlexnetMatchesReferenceFigures)
{
    std::string out = (tempDir() / "alexnet.sqlite").string();
    auto summary
        = importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz" }, out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 79);
    EXPECT_EQ(queryInt(out, "SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 10692000);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE srcKind = 0 AND copyKind = 1"), 16);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"), 3);
    std::filesystem::remove(out);
}

TEST(KinetoImporter, Legacy2021Schema)
{
    std::string out = (tempDir() / "legacy.sqlite").string();
    auto summary = importTraces(
        { std::string(PLACESCOPE_DATA_DIR) + "/traces/kineto_resnet50_v100_legacy2021.pt.trace.json.gz" }, out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 8772);
    EXPECT_EQ(queryInt(out, "SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 591532000);
    EXPECT_GT(queryInt(out, "SELECT COUNT(*) FROM PS_FLOWS WHERE category = 'async'"), 0);
    std::filesystem::remove(out);
}

// PyTorch's profiler without Kineto (Debian's python3-torch; torch.autograd.profiler with use_kineto=False) writes
// a bare array of uncategorised events on "CPU functions". The real trace's figures, counted in Python:
//   json.load(gzip.open(F)): 1992 events, all X on "CPU functions"; ProfilerStep#2..#9; 64 aten::clone, 10448 us.
TEST(KinetoImporter, ProfilerWithoutKinetoIsReadAsOperators)
{
    std::string out = (tempDir() / "no_kineto.sqlite").string();
    auto summary
        = importTraces({ std::string(PLACESCOPE_DATA_DIR) + "/traces/cpu_debug_copy_before.json.gz" }, out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 1992);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_STEPS"), 8);
    EXPECT_EQ(queryInt(out, "SELECT MIN(stepNumber) FROM PS_STEPS"), 2);
    EXPECT_EQ(queryInt(out,
                  "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS JOIN StringIds ON nameId = StringIds.id WHERE value = "
                  "'aten::clone'"),
        64);
    EXPECT_EQ(queryInt(out,
                  "SELECT SUM(end - start) FROM PS_FRAMEWORK_OPS JOIN StringIds ON nameId = StringIds.id WHERE value = "
                  "'aten::clone'"),
        10448000);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_PROBLEMS"), 0);
    std::filesystem::remove(out);
}

// Its "CUDA functions" events are an operator's GPU time between two CUDA events, not kernels: counted, not stored
// as kernels, and the cpu_to_cuda flows to them are left out.
TEST(KinetoImporter, ProfilerWithoutKinetoCudaRangesAreNotKernels)
{
    std::string json = R"([
{"name": "aten::mm", "ph": "X", "ts": 10, "dur": 40, "tid": 1, "pid": "CPU functions", "args": {}},
{"name": "aten::mm", "ph": "X", "ts": 12, "dur": 30, "tid": 0, "pid": "CUDA functions", "args": {}},
{"name": "aten::mm", "ph": "s", "ts": 10, "tid": 1, "pid": "CPU functions", "id": 1, "cat": "cpu_to_cuda", "args": {}},
{"name": "aten::mm", "ph": "f", "ts": 12, "tid": 0, "pid": "CUDA functions", "id": 1, "cat": "cpu_to_cuda", "args": {}}
])";
    std::string out = (tempDir() / "no_kineto_cuda.sqlite").string();
    auto summary = importTraces({ writeFile("no_kineto_cuda.json", json) }, out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 1);
    // No GPU activity at all: the kernel table is not even made.
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'"), 0);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.legacy_cuda_range'"), 1);
    // Its flow to the range that is not stored would point nowhere: not stored either.
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_FLOWS"), 0);
    std::filesystem::remove(out);
}

TEST(KinetoImporter, PitfallsAreCountedAndImportGoesOn)
{
    std::string json = R"({"traceEvents": [
{"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":"stream 7","ts":1000.001,"dur":2.5,"args":{"correlation":5}},
{"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":"stream 7","ts":1001.000,"dur":2,"args":{"correlation":18446744073709551616}},
{"ph":"X","cat":"cpu_op","name":"bad"quote","pid":"host","tid":1,"ts":1,"dur":1},
{"ph":"X","cat":"cpu_op","name":"op)"
                       "\xff\xfe"
                       R"(","pid":"host","tid":1,"ts":1,"dur":1},
{"ph":"s","cat":"ac2g","id":9,"pid":"host","tid":1,"ts":1}
]})";
    std::string out = (tempDir() / "pitfalls.sqlite").string();
    auto summary = importTraces({ writeFile("pitfalls.json", json) }, out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE streamId = 7"), 2);
    EXPECT_EQ(queryInt(out, "SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId = 5"), 1000001);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.overlapping_kernels'"), 1);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.id_out_of_range'"), 1);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.bad_json_record'"), 1);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.invalid_utf8'"), 1);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.unpaired_flow'"), 1);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 1);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_PROCESSES WHERE name = 'host'"), 1);
    std::filesystem::remove(out);
}

// A negative ts (a span of 1.7e9 s once) and a complete event without dur are counted problems, not imported
// silently (issue 27); the good kernel beside them is kept.
TEST(KinetoImporter, NegativeTimestampAndMissingDurationAreCounted)
{
    std::string json = R"({"traceEvents": [
{"ph":"X","cat":"kernel","name":"good","pid":0,"tid":"stream 7","ts":1000,"dur":2,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","name":"early","pid":0,"tid":"stream 7","ts":-1700000000000000,"dur":2,"args":{"correlation":2}},
{"ph":"X","cat":"cpu_op","name":"endless","pid":"host","tid":1,"ts":1000}
]})";
    std::string out = (tempDir() / "negative_ts.sqlite").string();
    auto summary = importTraces({ writeFile("negative_ts.json", json) }, out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1);
    EXPECT_EQ(queryInt(out, "SELECT MIN(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1000000);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 0);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.bad_timestamp'"), 2);
}

// A tid given as an object or an array, and args given as a string, were imported without a word (the kernel lost
// its device, stream and correlation silently). Each is now a counted problem; the events stay (issue 27).
TEST(KinetoImporter, ObjectTidAndStringArgsAreCounted)
{
    std::string json = R"({"traceEvents": [
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":{"a":1},"ts":0,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":[1],"ts":0,"dur":50,"args":{}},
{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":10,"dur":500,"args":"device 0"},
{"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":610,"dur":500,"args":null},
{"ph":"X","cat":"kernel","name":"k3","pid":0,"tid":7,"ts":1210,"dur":500,"args":{"device":0,"stream":7}}
]})";
    std::string out = (tempDir() / "object_tid.sqlite").string();
    auto summary = importTraces({ writeFile("object_tid.json", json) }, out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 3);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 1);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.unreadable_id'"), 2);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.args_not_object'"), 1); // null: none
}

TEST(KinetoImporter, InvalidUtf8IsCountedAlsoInARecordThatIsBadJson)
{
    // An unescaped quote leaves the record's last string open at the newline: simdjson reports that before the
    // bad byte, and the invalid UTF-8 must still be counted (the importer once relied on simdjson's error alone
    // and lost it). The next line is read intact.
    std::string json = "{\"traceEvents\": [\n{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\xff\",\"x\":\"open\n"
                       ",{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1}\n]}";
    std::string out = (tempDir() / "utf8_bad_json.sqlite").string();
    auto summary = importTraces({ writeFile("utf8_bad_json.json", json) }, out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.invalid_utf8'"), 1);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.bad_json_record'"), 1);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.resynchronized'"), 1);
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM PS_FRAMEWORK_OPS"), 1);
    std::filesystem::remove(out);
}

TEST(KinetoImporter, StrayClosersInTheEventListAreBadRecordsNotAHang)
{
    // Found by the pitfall fixture above: a '}' where an event should start once sent the splitter round
    // the same byte for ever.
    std::string json = "{\"traceEvents\": [\n}\n,{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,"
                       "\"tid\":\"stream 7\",\"ts\":1,\"dur\":1}\n}]}";
    std::string out = (tempDir() / "stray.sqlite").string();
    auto summary = importTraces({ writeFile("stray.json", json) }, out, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().message();
    EXPECT_EQ(queryInt(out, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1);
    EXPECT_EQ(queryInt(out, "SELECT count FROM PS_PROBLEMS WHERE kind = 'kineto.bad_json_record'"), 2);
    std::filesystem::remove(out);
}

TEST(KinetoImporter, BadInputsFailWithoutOutput)
{
    std::string out = (tempDir() / "bad.sqlite").string();
    std::string gz = (tempDir() / "trunc.json.gz").string();
    {
        std::ifstream in(std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_alexnet_a100_1rank.json.gz", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        std::ofstream(gz, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    }
    for (const std::string& input : { writeFile("empty.json", ""), writeFile("notjson.json", "hello world"),
             writeFile("noevents.json", "{\"a\": 1}"), tempDir().string(), gz }) {
        auto summary = importTraces({ input }, out, {});
        EXPECT_FALSE(summary.isOk()) << input;
        if (!summary.isOk()) {
            EXPECT_EQ(summary.status().message().find('\n'), std::string::npos);
        }
        EXPECT_FALSE(std::filesystem::exists(out)) << input;
    }
}

// A byte damaged inside a gzip file first decompresses to garbage the JSON reader rejects; the member's CRC sits
// at its end. The error must name the damage (as `gzip -t` does), not call the file "not a trace". The content is
// larger than one read, so the reader sees the garbage before the stream's end.
TEST(KinetoImporter, DamageInsideAGzipFileIsCalledCorruptGzip)
{
    std::string plain = writeFile("damaged.json", "garbage, not JSON" + std::string(1 << 20, ' '));
    ASSERT_EQ(std::system(("gzip -kf " + plain).c_str()), 0);
    std::string gz = plain + ".gz";
    std::string bytes;
    {
        std::ifstream in(gz, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    ASSERT_GT(bytes.size(), 8u);
    std::string out = (tempDir() / "damaged.sqlite").string();

    auto undamaged = importTraces({ gz }, out, {});
    ASSERT_FALSE(undamaged.isOk());
    EXPECT_NE(undamaged.status().message().find("not a PyTorch profiler trace"), std::string::npos)
        << undamaged.status().message();

    bytes[bytes.size() - 8] ^= 0x01; // the trailer's CRC-32
    std::ofstream(gz, std::ios::binary | std::ios::trunc) << bytes;
    auto damaged = importTraces({ gz }, out, {});
    ASSERT_FALSE(damaged.isOk());
    EXPECT_NE(damaged.status().message().find("corrupt gzip data (CRC mismatch)"), std::string::npos)
        << damaged.status().message();
    EXPECT_FALSE(std::filesystem::exists(out));
}

} // namespace
} // namespace placescope
