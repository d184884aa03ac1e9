// SPDX-License-Identifier: MIT
// A real pair (AlexNet on an A100, ResNet-50 on a V100: different GPUs, different kernels) imported with the
// project's importer and diffed: the count and time of every kernel name on each side equal what an independent
// parser of the raw JSON gives (kernels_by_name.py, on tests/data/kineto_ref.py's reader), within 1 ns per event
// (that parser rounds ts and dur separately); and each side's figures equal what `placescope stats` and
// `placescope analyze` compute for that run (computeTraceStats, analyzeTrace).
#include "analysis/diff/diff_report.h"
#include "profiler/importers/importer.h"
#include "tests/analysis/findings/trace_builder.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>

namespace placescope::testing {
namespace {

const std::string kAlexNet = "hta_alexnet_a100_1rank.json.gz";
const std::string kResNet = "kineto_resnet50_v100_legacy2021.pt.trace.json.gz";

std::string rawTrace(const std::string& file) { return std::string(PLACESCOPE_DATA_DIR) + "/traces/" + file; }

class DiffRealPair : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = std::filesystem::temp_directory_path() / ("ps_diff_real_" + std::to_string(::getpid()));
        std::filesystem::create_directories(s_dir);
        for (const std::string& file : { kAlexNet, kResNet }) {
            const std::string store = (s_dir / (file + ".sqlite")).string();
            auto imported = importTraces({ rawTrace(file) }, store, ImportOptions {});
            ASSERT_TRUE(imported.isOk()) << imported.status().message();
        }
    }
    static void TearDownTestSuite() { std::filesystem::remove_all(s_dir); }
    static std::string store(const std::string& file) { return (s_dir / (file + ".sqlite")).string(); }

    static std::filesystem::path s_dir;
};
std::filesystem::path DiffRealPair::s_dir;

// name -> (count, ns) from the independent parser.
std::map<std::string, std::pair<int64_t, int64_t>> referenceKernels(const std::string& file)
{
    const std::string command
        = "python3 " + std::string(PLACESCOPE_SOURCE_DIR) + "/tests/analysis/diff/kernels_by_name.py " + rawTrace(file);
    std::map<std::string, std::pair<int64_t, int64_t>> out;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return out;
    std::string text;
    char buffer[65536];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        text.append(buffer, n);
    EXPECT_EQ(::pclose(pipe), 0) << command;
    const nlohmann::json parsed = nlohmann::json::parse(text); // kept alive: items() only views it
    for (const auto& [name, value] : parsed.items())
        out[name] = { value[0].get<int64_t>(), value[1].get<int64_t>() };
    return out;
}

TEST_F(DiffRealPair, KernelsByNameMatchAnIndependentParser)
{
    ProfileOptions options;
    auto a = profileRun(store(kAlexNet), options);
    auto b = profileRun(store(kResNet), options);
    ASSERT_TRUE(a.isOk() && b.isOk());
    auto diff = diffRuns(*a, *b, {});
    ASSERT_TRUE(diff.isOk());
    const auto refA = referenceKernels(kAlexNet), refB = referenceKernels(kResNet);
    ASSERT_FALSE(refA.empty());
    ASSERT_FALSE(refB.empty());

    // The JSON's `kernels`, as a script reads it: every name of either run, once.
    const auto json = nlohmann::json::parse(renderDiffJson(*diff));
    std::map<std::string, nlohmann::json> rows;
    for (const auto& k : json["kernels"])
        EXPECT_TRUE(rows.emplace(k["name"].get<std::string>(), k).second) << "twice: " << k["name"];
    std::map<std::string, bool> names;
    for (const auto& [name, _] : refA)
        names[name] = true;
    for (const auto& [name, _] : refB)
        names[name] = true;
    EXPECT_EQ(rows.size(), names.size());
    int64_t countA = 0, countB = 0;
    for (const auto& [name, _] : names) {
        ASSERT_TRUE(rows.count(name)) << name;
        const auto& row = rows[name];
        const auto ra = refA.count(name) ? refA.at(name) : std::pair<int64_t, int64_t> { 0, 0 };
        const auto rb = refB.count(name) ? refB.at(name) : std::pair<int64_t, int64_t> { 0, 0 };
        EXPECT_EQ(row["count_a"].get<int64_t>(), ra.first) << name;
        EXPECT_EQ(row["count_b"].get<int64_t>(), rb.first) << name;
        EXPECT_NEAR(row["ns_a"].get<int64_t>(), ra.second, ra.first) << name;
        EXPECT_NEAR(row["ns_b"].get<int64_t>(), rb.second, rb.first) << name;
        countA += ra.first;
        countB += rb.first;
    }
    EXPECT_EQ(countA, 79); // kineto_ref.py's kernel_count for each file
    EXPECT_EQ(countB, 8772);
    // Different GPUs are allowed, with a note.
    bool noted = false;
    for (const std::string& note : diff->notes)
        noted |= note.find("different GPUs") != std::string::npos;
    EXPECT_TRUE(noted);
    // Every kernel is in one step or counted outside: none dropped.
    int64_t inSteps = 0;
    for (const auto& step : b->kernels.perStep)
        for (const auto& [name, total] : step)
            inSteps += total.count;
    EXPECT_EQ(inSteps + b->kernels.outside.count, 8772);
}

TEST_F(DiffRealPair, EachSideEqualsStatsAndAnalyze)
{
    for (const std::string& file : { kAlexNet, kResNet }) {
        auto profile = profileRun(store(file), ProfileOptions {});
        ASSERT_TRUE(profile.isOk());
        auto db = openTrace(store(file));
        ASSERT_TRUE(db.isOk());
        auto stats = computeTraceStats(*db, StatsOptions { 0, KernelNameKind::Demangled });
        auto analysis = analyzeTrace(*db, AnalysisOptions {});
        ASSERT_TRUE(stats.isOk() && analysis.isOk());
        auto diff = diffRuns(*profile, *profile, {});
        ASSERT_TRUE(diff.isOk());

        EXPECT_EQ(diff->spanNsA, stats->span.durationNs()) << file;
        ASSERT_EQ(diff->kernels.whole.size(), stats->kernels.rows.size());
        for (const KernelSummaryRow& row : stats->kernels.rows) {
            const auto it = std::find_if(diff->kernels.whole.begin(), diff->kernels.whole.end(),
                [&](const DeltaRow& r) { return r.name == row.name; });
            ASSERT_NE(it, diff->kernels.whole.end()) << row.name;
            EXPECT_EQ(it->countA, row.time.count);
            EXPECT_EQ(it->nsA, row.time.totalNs);
        }
        EXPECT_NEAR(static_cast<double>(diff->meanStepNsA), analysis->meanStepMs * 1e6, 0.5);
        EXPECT_EQ(diff->stepCountA, analysis->stepCount);
        for (const DeviceBreakdown& d : analysis->devices) {
            int matched = 0;
            for (const Figure& f : diff->figures)
                if (f.section == d.label + " over the steps") {
                    ++matched;
                    if (f.name == "busy: compute") {
                        EXPECT_EQ(f.a, d.computeNs);
                    }
                    if (f.name == "idle") {
                        EXPECT_EQ(f.a, d.idleNs);
                    }
                    if (f.name == "idle: host-bound") {
                        EXPECT_EQ(f.a, d.idleCauseNs[static_cast<int>(IdleCause::HostBound)]);
                    }
                }
            EXPECT_GT(matched, 0) << d.label;
        }
        int64_t copiesA = 0, statsCopies = 0;
        for (const DeltaRow& r : diff->copies)
            copiesA += r.nsA;
        for (const MemoryOpRow& op : stats->memoryOps)
            statsCopies += op.time.totalNs;
        EXPECT_EQ(copiesA, statsCopies);
        ASSERT_EQ(diff->findings.size(), analysis->findings.size());
        for (const Finding& f : analysis->findings) {
            bool found = false;
            for (const FindingDiff& d : diff->findings)
                found |= d.ruleId == f.ruleId && d.savingMsA == f.saving.perStepMs;
            EXPECT_TRUE(found) << f.ruleId;
        }
    }
}

} // namespace
} // namespace placescope::testing
