// SPDX-License-Identifier: MIT
// Diffs of purpose-made pairs whose deltas are known by construction: a kernel whose time doubles, one removed,
// one added, a host sync removed, a kernel launched after the last step; and a run against itself (all zeros).
#include "analysis/diff/diff_format.h"
#include "analysis/diff/diff_report.h"
#include "tests/analysis/findings/trace_builder.h"

#include <nlohmann/json.hpp>

namespace placescope::testing {
namespace {

constexpr int kSteps = 4;
constexpr int kGemms = 30;

// Before: 4 steps of 10 ms (numbers 0-3), 30 "gemm" of 100 us, one "old_kernel" of 50 us, a stream sync that
// holds the host until the GPU drains; one "tail_kernel" launched after the last step.
void writeBefore(TraceBuilder& t)
{
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    for (int n = 0; n < kSteps; ++n) {
        const int64_t s = n * 10 * kMs;
        t.step(n, s, s + 10 * kMs);
        for (int i = 0; i < kGemms; ++i)
            t.kernel(s + 100 * kUs + i * 100 * kUs, s + 200 * kUs + i * 100 * kUs, "gemm", s + 80 * kUs + i * 10 * kUs);
        t.kernel(s + 3100 * kUs, s + 3150 * kUs, "old_kernel", s + 400 * kUs);
        t.api(s + 500 * kUs, s + 9 * kMs, "cudaStreamSynchronize");
    }
    t.kernel(41 * kMs, 41 * kMs + 100 * kUs, "tail_kernel", 41 * kMs - 10 * kUs);
}

// After: steps numbered 10-13 at the same times, "gemm" twice as long, "old_kernel" replaced by "fused" (70 us),
// no sync and no tail kernel.
void writeAfter(TraceBuilder& t)
{
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    for (int n = 0; n < kSteps; ++n) {
        const int64_t s = n * 10 * kMs;
        t.step(10 + n, s, s + 10 * kMs);
        for (int i = 0; i < kGemms; ++i)
            t.kernel(s + 100 * kUs + i * 200 * kUs, s + 300 * kUs + i * 200 * kUs, "gemm", s + 80 * kUs + i * 10 * kUs);
        t.kernel(s + 6100 * kUs, s + 6170 * kUs, "fused", s + 400 * kUs);
    }
}

RunProfile profile(TraceBuilder& t, const ProfileOptions& options = {})
{
    t.analyze(); // commits the file
    auto p = profileRun(t.path(), options);
    EXPECT_TRUE(p.isOk()) << p.status().message();
    return p.isOk() ? std::move(p.value()) : RunProfile {};
}

const DeltaRow* row(const std::vector<DeltaRow>& rows, const std::string& name)
{
    for (const DeltaRow& r : rows)
        if (r.name == name)
            return &r;
    return nullptr;
}

const Figure* figure(const RunDiff& d, const std::string& name)
{
    for (const Figure& f : d.figures)
        if (f.name == name)
            return &f;
    return nullptr;
}

// A share of the step delta that rounds to nothing prints unsigned: "-0.0 %" reads as a move that is not there.
TEST(DiffSynthetic, ShareRoundingToZeroHasNoSign)
{
    EXPECT_EQ(diff_format::share(-0.0001), "0.0 %");
    EXPECT_EQ(diff_format::share(0.0004), "0.0 %");
    EXPECT_EQ(diff_format::share(-0.5), "-50.0 %");
    EXPECT_EQ(diff_format::share(0.123), "12.3 %");
    EXPECT_EQ(diff_format::share(0.0), "");
}

TEST(DiffSynthetic, KnownDeltas)
{
    TraceBuilder a("diff_before"), b("diff_after");
    writeBefore(a);
    writeAfter(b);
    auto diff = diffRuns(profile(a), profile(b), {});
    ASSERT_TRUE(diff.isOk()) << diff.status().message();
    const RunDiff& d = *diff;

    // Whole trace: gemm doubled, old removed, fused added, tail removed; sorted by |delta|.
    ASSERT_EQ(d.kernels.whole.size(), 4u);
    EXPECT_EQ(d.kernels.whole[0].name, "gemm");
    EXPECT_EQ(d.kernels.whole[0].countA, kSteps * kGemms);
    EXPECT_EQ(d.kernels.whole[0].countB, kSteps * kGemms);
    EXPECT_EQ(d.kernels.whole[0].nsA, kSteps * kGemms * 100 * kUs);
    EXPECT_EQ(d.kernels.whole[0].nsB, kSteps * kGemms * 200 * kUs);
    EXPECT_EQ(d.kernels.whole[0].change(), Change::Changed);
    EXPECT_EQ(d.kernels.whole[1].name, "fused");
    EXPECT_EQ(d.kernels.whole[1].change(), Change::Added);
    EXPECT_EQ(d.kernels.whole[1].nsB, kSteps * 70 * kUs);
    EXPECT_EQ(d.kernels.whole[2].name, "old_kernel");
    EXPECT_EQ(d.kernels.whole[2].change(), Change::Removed);
    EXPECT_EQ(d.kernels.whole[2].deltaNs(), -kSteps * 50 * kUs);
    EXPECT_EQ(d.kernels.whole[3].name, "tail_kernel");
    EXPECT_EQ(d.kernels.whole[3].change(), Change::Removed);

    // In the steps: the tail kernel ran after the last step, so it is counted outside, not dropped.
    EXPECT_EQ(row(d.kernels.inSteps, "tail_kernel"), nullptr);
    ASSERT_NE(row(d.kernels.inSteps, "gemm"), nullptr);
    EXPECT_EQ(row(d.kernels.inSteps, "gemm")->deltaNs(), kSteps * kGemms * 100 * kUs);
    EXPECT_EQ(d.kernels.outsideA.count, 1);
    EXPECT_EQ(d.kernels.outsideA.ns, 100 * kUs);
    EXPECT_EQ(d.kernels.afterLastA.count, 1);
    EXPECT_EQ(d.kernels.outsideB.count, 0);

    // Steps paired by position although their numbers differ.
    ASSERT_EQ(d.steps.size(), 4u);
    EXPECT_EQ(d.steps[0].numberA, 0);
    EXPECT_EQ(d.steps[0].numberB, 10);
    EXPECT_EQ(d.steps[3].nsA, 10 * kMs);
    EXPECT_EQ(d.compared.size(), 4u);

    // The removed sync: the GPU no longer idles behind it.
    const Figure* sync = figure(d, "idle: sync wait");
    ASSERT_NE(sync, nullptr);
    EXPECT_GT(sync->a, 0);
    EXPECT_EQ(sync->b, 0);
    bool resolved = false;
    for (const FindingDiff& f : d.findings)
        resolved |= f.ruleId == "gpu_idle.sync_wait" && f.kind == FindingDiff::Kind::Resolved && f.savingMsA > 0;
    EXPECT_TRUE(resolved) << renderDiffText(d);
    EXPECT_TRUE(d.notes.size() >= 1); // the tail kernel outside the steps is named
}

TEST(DiffSynthetic, PerStepAndSingleStep)
{
    TraceBuilder a("diff_before_step"), b("diff_after_step");
    writeBefore(a);
    writeAfter(b);
    const RunProfile pa = profile(a), pb = profile(b);
    DiffOptions options;
    options.allSteps = true;
    auto all = diffRuns(pa, pb, options);
    ASSERT_TRUE(all.isOk());
    ASSERT_EQ(all->kernels.perStep.size(), 4u);
    EXPECT_EQ(row(all->kernels.perStep[2], "gemm")->deltaNs(), kGemms * 100 * kUs);
    EXPECT_EQ(row(all->kernels.perStep[2], "fused")->countB, 1);

    options = {};
    options.step = 1;
    auto one = diffRuns(pa, pb, options);
    ASSERT_TRUE(one.isOk());
    EXPECT_EQ(one->compared, std::vector<size_t> { 1 });
    EXPECT_EQ(row(one->kernels.inSteps, "gemm")->countA, kGemms);
    options.step = 4;
    EXPECT_FALSE(diffRuns(pa, pb, options).isOk()); // past the last step of both runs
}

TEST(DiffSynthetic, RunAgainstItselfIsAllZeros)
{
    TraceBuilder a("diff_self");
    writeBefore(a);
    ProfileOptions options;
    options.extra = DiffGrouping::Stream;
    const RunProfile p = profile(a, options);
    DiffOptions diffOptions;
    diffOptions.by = DiffGrouping::Stream;
    diffOptions.allSteps = true;
    auto diff = diffRuns(p, p, diffOptions);
    ASSERT_TRUE(diff.isOk());
    EXPECT_EQ(diff->stepDeltaNs(), 0);
    for (const Figure& f : diff->figures)
        EXPECT_EQ(f.a, f.b) << f.section << ": " << f.name;
    auto allSame = [](const std::vector<DeltaRow>& rows) {
        for (const DeltaRow& r : rows)
            EXPECT_EQ(r.change(), Change::Same) << r.name;
        return !rows.empty();
    };
    EXPECT_TRUE(allSame(diff->kernels.whole));
    EXPECT_TRUE(allSame(diff->kernels.inSteps));
    ASSERT_TRUE(diff->extra.has_value());
    EXPECT_TRUE(allSame(diff->extra->whole));
    for (const auto& step : diff->kernels.perStep)
        allSame(step);
    for (const DeltaRow& r : diff->copies)
        EXPECT_EQ(r.change(), Change::Same);
    for (const FindingDiff& f : diff->findings)
        EXPECT_EQ(f.kind, FindingDiff::Kind::Unchanged) << f.ruleId;
    // The JSON says the same in integers.
    auto json = nlohmann::json::parse(renderDiffJson(*diff));
    for (const auto& k : json["kernels"]) {
        EXPECT_EQ(k["count_a"], k["count_b"]);
        EXPECT_EQ(k["ns_a"].get<int64_t>(), k["ns_b"].get<int64_t>());
    }
    EXPECT_EQ(json["steps"]["mean_ns_a"], json["steps"]["mean_ns_b"]);
}

TEST(DiffSynthetic, ShortNamesMatchTemplateVariants)
{
    // The same kernel compiled for two template arguments: distinct demangled names, one short name.
    auto write = [](TraceBuilder& t, const std::string& demangled) {
        t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
        t.step(0, 0, 10 * kMs);
        for (int i = 0; i < 3; ++i)
            t.kernel(kMs + i * kMs, kMs + i * kMs + 100 * kUs, demangled, kMs + i * kMs - 20 * kUs);
    };
    TraceBuilder a("diff_short_a"), b("diff_short_b");
    write(a, "void gemm_kernel<float, 128>(float*)");
    write(b, "void gemm_kernel<float, 256>(float*)");
    ProfileOptions options;
    options.shortNames = true;
    auto byShort = diffRuns(profile(a, options), profile(b, options), {});
    ASSERT_TRUE(byShort.isOk());
    ASSERT_EQ(byShort->kernels.whole.size(), 1u) << renderDiffText(*byShort);
    EXPECT_EQ(byShort->kernels.whole[0].change(), Change::Same);
    ASSERT_EQ(byShort->kernels.inSteps.size(), 1u);
    EXPECT_EQ(byShort->kernels.inSteps[0].countB, 3);
    auto byFull = diffRuns(profile(a), profile(b), {});
    ASSERT_TRUE(byFull.isOk());
    EXPECT_EQ(byFull->kernels.whole.size(), 2u); // one removed, one added
}

} // namespace
} // namespace placescope::testing
