// SPDX-License-Identifier: MIT
// Capture settings through the environment, --kinds parsing, and the parts folder's status/error files.
#include "profiler/capture/capture_config.h"
#include "profiler/capture/part_files.h"
#include "profiler/capture/tracer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <fstream>

namespace placescope::capture {
namespace {

using namespace testing;
namespace fs = std::filesystem;

TEST(CaptureConfig, ParsesKindLists)
{
    EXPECT_EQ(parseKinds("kernel,nvtx").value(), kKindKernel | kKindNvtx);
    EXPECT_EQ(parseKinds(" kernel , memcpy ").value(), kKindKernel | kKindMemcpy);
    EXPECT_EQ(parseKinds("all").value(), kAllKinds);
    EXPECT_EQ(parseKinds("default").value(), kDefaultKinds);
    EXPECT_EQ(parseKinds("default,driver").value(), kAllKinds);
    auto bad = parseKinds("kernel,gpu-metrics");
    ASSERT_FALSE(bad.isOk());
    EXPECT_NE(bad.status().message().find("gpu-metrics"), std::string::npos);
    EXPECT_FALSE(parseKinds("").isOk());
    EXPECT_EQ(kindsToString(kKindKernel | kKindSync), "kernel,sync");
}

TEST(CaptureConfig, ActivityKindsNeverIncludeTheSerializingKernelKind)
{
    auto kinds = activityKindsFor(kAllKinds);
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), CUPTI_ACTIVITY_KIND_KERNEL), 0);
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), 1);
    auto minimal = activityKindsFor(kKindKernel);
    EXPECT_EQ(minimal.front(), CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    EXPECT_EQ(std::count(minimal.begin(), minimal.end(), CUPTI_ACTIVITY_KIND_RUNTIME), 0);
    EXPECT_EQ(std::count(minimal.begin(), minimal.end(), CUPTI_ACTIVITY_KIND_DEVICE), 1);
}

TEST(CaptureConfig, RoundTripsThroughTheEnvironment)
{
    CaptureConfig config;
    config.kinds = kKindKernel | kKindMemory;
    config.bufferBytes = 4 << 20;
    config.maxBufferedBytes = 64 << 20;
    config.windowStartNs = 1795000000000000000;
    config.windowEndNs = 1795000005000000000;
    config.flushIntervalMs = 250;
    config.partsDir = "/tmp/parts dir";
    std::map<std::string, std::string> env = configToEnvironment(config);
    auto lookup = [&](const char* name) -> std::optional<std::string> {
        auto found = env.find(name);
        return found == env.end() ? std::nullopt : std::optional<std::string>(found->second);
    };
    auto back = configFromEnvironment(lookup);
    ASSERT_TRUE(back.isOk()) << back.status().message();
    EXPECT_EQ(back->kinds, config.kinds);
    EXPECT_EQ(back->bufferBytes, config.bufferBytes);
    EXPECT_EQ(back->maxBufferedBytes, config.maxBufferedBytes);
    EXPECT_EQ(back->windowStartNs, config.windowStartNs);
    EXPECT_EQ(back->windowEndNs, config.windowEndNs);
    EXPECT_EQ(back->flushIntervalMs, 250);
    EXPECT_EQ(back->partsDir, config.partsDir);
}

TEST(CaptureConfig, RefusesMissingOrBadSettings)
{
    auto none = configFromEnvironment([](const char*) { return std::optional<std::string>(); });
    ASSERT_FALSE(none.isOk()); // loaded outside `placescope capture`
    std::map<std::string, std::string> env = { { kEnvPartsDir, "/tmp/x" } };
    auto lookup = [&](const char* name) -> std::optional<std::string> {
        auto found = env.find(name);
        return found == env.end() ? std::nullopt : std::optional<std::string>(found->second);
    };
    EXPECT_TRUE(configFromEnvironment(lookup).isOk());
    env[kEnvWindow] = "12:abc";
    EXPECT_FALSE(configFromEnvironment(lookup).isOk());
    env.erase(kEnvWindow);
    env[kEnvBufferBytes] = "100:100"; // below 64 KB
    EXPECT_FALSE(configFromEnvironment(lookup).isOk());
    env[kEnvBufferBytes] = "1048577:0"; // rounded down to 8 bytes, budget raised to two buffers
    auto fixed = configFromEnvironment(lookup);
    ASSERT_TRUE(fixed.isOk());
    EXPECT_EQ(fixed->bufferBytes, 1048576);
    EXPECT_EQ(fixed->maxBufferedBytes, 2 * 1048576);
    env[kEnvKinds] = "kernel,bogus";
    EXPECT_FALSE(configFromEnvironment(lookup).isOk());
}

TEST(PartFiles, StatusAndErrorFilesRoundTrip)
{
    const TempDir temp("capture");
    const fs::path dir = temp.path();
    ASSERT_TRUE(writeStatusFile(dir.string(), { 12, 1000, 3, 7, false }).isOk());
    ASSERT_TRUE(writeStatusFile(dir.string(), { 5, 20, 0, 0, true }).isOk());
    ASSERT_TRUE(writeStatusFile(dir.string(), { 12, 2000, 1, 9, true }).isOk()); // rewritten in place
    std::vector<PartStatus> statuses = readStatusFiles(dir.string());
    ASSERT_EQ(statuses.size(), 2u);
    EXPECT_EQ(statuses[0].pid, 5);
    EXPECT_EQ(statuses[1].pid, 12);
    EXPECT_EQ(statuses[1].events, 2000);
    EXPECT_EQ(statuses[1].buffersInFlight, 1);
    EXPECT_EQ(statuses[1].droppedRecords, 9);
    EXPECT_TRUE(statuses[1].done);
    ASSERT_TRUE(writeErrorFile(dir.string(), 5, "CUPTI cannot start\nsecond line").isOk());
    std::vector<PartError> errors = readErrorFiles(dir.string());
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].pid, 5);
    EXPECT_EQ(errors[0].message, "CUPTI cannot start second line");
    std::ofstream(dir / "part-30.sqlite.partial") << "x";
    std::ofstream(dir / "part-4.sqlite.partial") << "x";
    std::ofstream(dir / "part-x.sqlite.partial") << "x";
    std::ofstream(dir / "part-5.sqlite") << "x";
    std::vector<std::string> parts = listPartFiles(dir.string());
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_NE(parts[0].find("part-4."), std::string::npos);
    EXPECT_NE(parts[1].find("part-30."), std::string::npos);
}

} // namespace
} // namespace placescope::capture
