// SPDX-License-Identifier: MIT
// Report writers: the JSON parses and carries every finding, the HTML is one self-contained file with the
// plots, text and Markdown rank the findings; the CLI writes atomically and fails cleanly on bad input.
#include "analysis/render/report_writer.h"
#include "analysis/render/svg_charts.h"
#include "tests/analysis/findings/trace_builder.h"
#include "tests/support/cli_run.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace placescope::testing {
namespace {

void problemTrace(TraceBuilder& t)
{
    t.gpu(0, "NVIDIA A100-SXM4-40GB", 40LL << 30, 8);
    for (int n = 0; n < 3; ++n) {
        int64_t s = n * 20 * kMs;
        t.step(n, s, s + 20 * kMs);
        t.hostOp(s, s + 5 * kMs, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", "user_annotation");
        t.copy(s + 5 * kMs, s + 7 * kMs, CopyKind::HtoD, 4 << 20, MemKind::Pageable);
        t.kernel(s + 7 * kMs, s + 8 * kMs, "void cudnn::ops::nchwToNhwcKernel<float>()", s + 6 * kMs);
        t.kernel(s + 8 * kMs, s + 20 * kMs, "volta_scudnn_128x64_relu_interior_nn_v1 <&>", s + 6 * kMs);
        t.memory(s + kMs, (2LL << 30) + n, (3LL << 30) + n);
    }
}

TEST(FindingsReport, JsonCarriesEveryFinding)
{
    TraceBuilder t("json");
    problemTrace(t);
    auto report = t.analyze();
    report.traceName = "problem \"trace\".sqlite";
    ASSERT_GE(report.findings.size(), 3u) << ruleIds(report);
    auto doc = nlohmann::json::parse(renderJsonReport(report));
    EXPECT_EQ(doc["trace"], "problem \"trace\".sqlite");
    ASSERT_EQ(doc["findings"].size(), report.findings.size());
    for (size_t i = 0; i < report.findings.size(); ++i) {
        EXPECT_EQ(doc["findings"][i]["rule"], report.findings[i].ruleId);
        EXPECT_NEAR(doc["findings"][i]["saving"]["per_step_ms"].get<double>(), report.findings[i].saving.perStepMs,
            1e-4 * (1 + report.findings[i].saving.perStepMs));
        EXPECT_FALSE(doc["findings"][i]["fix"]["onnxruntime"].get<std::string>().empty());
    }
    EXPECT_EQ(doc["kernels"]["layout_conversion_count"], 3);
    EXPECT_EQ(doc["devices"][0]["utilization"].size(), 60u);
}

// The JSON report (written with nlohmann::json) holds every figure of the report under the same keys: the run's
// counts, each finding's saving, evidence and examples, the devices' breakdowns, the top kernels and memory, and the
// all-fixes prediction; text with quotes, control characters or bytes that are not UTF-8 still parses.
TEST(FindingsReport, JsonHoldsTheSameFigures)
{
    TraceBuilder t("json_figures");
    problemTrace(t);
    auto report = t.analyze();
    report.traceName = "tab\there \"quoted\" \x01 bad\xff";
    report.notes = { "a note" };
    ASSERT_FALSE(report.findings.empty());
    report.findings[0].saving.simulated = true;
    report.findings[0].saving.simulatedMs = 1.25;
    report.findings[0].saving.simulatedEdit = "pinned";
    report.allFixes = AllFixesPrediction { { "pinned", "no-sync" }, 60 * kMs, 59 * kMs, 50 * kMs };
    const auto doc = nlohmann::json::parse(renderJsonReport(report));
    EXPECT_EQ(doc["trace"].get<std::string>().substr(0, 17), "tab\there \"quoted\"");
    EXPECT_EQ(doc["steps"]["count"], report.stepCount);
    EXPECT_DOUBLE_EQ(doc["steps"]["mean_ms"].get<double>(), report.meanStepMs);
    EXPECT_EQ(doc["kernels"]["count"], report.kernelCount);
    EXPECT_EQ(doc["kernels"]["total_ns"], report.kernelNs);
    EXPECT_EQ(doc["kernels"]["layout_conversion_ns"], report.layoutKernelNs);
    EXPECT_EQ(doc["memcpy_count"], report.memcpyCount);
    EXPECT_EQ(doc["notes"][0], "a note");
    EXPECT_EQ(doc["all_fixes"]["edits"][1], "no-sync");
    EXPECT_EQ(doc["all_fixes"]["predicted_step_ns"], 50 * kMs);
    EXPECT_DOUBLE_EQ(doc["findings"][0]["saving"]["simulated_ms"].get<double>(), 1.25);
    EXPECT_EQ(doc["findings"][0]["saving"]["simulated_edit"], "pinned");
    ASSERT_EQ(doc["findings"].size(), report.findings.size());
    for (size_t i = 0; i < report.findings.size(); ++i) {
        const Finding& f = report.findings[i];
        const auto& j = doc["findings"][i];
        EXPECT_EQ(j["title"], f.title);
        EXPECT_EQ(j["severity"], std::string(severityName(f.severity)));
        EXPECT_DOUBLE_EQ(j["saving"]["per_step_ms"].get<double>(), f.saving.perStepMs);
        EXPECT_DOUBLE_EQ(j["saving"]["percent_of_step"].get<double>(), f.saving.percentOfStep);
        EXPECT_EQ(j["saving"]["upper_bound"], f.saving.upperBound);
        EXPECT_EQ(j["saving"].contains("simulated_ms"), f.saving.simulated);
        ASSERT_EQ(j["evidence"].size(), f.evidence.size());
        for (size_t e = 0; e < f.evidence.size(); ++e) {
            EXPECT_EQ(j["evidence"][e]["count"], f.evidence[e].count);
            EXPECT_EQ(j["evidence"][e]["total_ns"], f.evidence[e].totalNs);
            EXPECT_EQ(j["evidence"][e]["total_bytes"], f.evidence[e].totalBytes);
            ASSERT_EQ(j["evidence"][e]["examples"].size(), f.evidence[e].examples.size());
            for (size_t x = 0; x < f.evidence[e].examples.size(); ++x)
                EXPECT_EQ(j["evidence"][e]["examples"][x]["start_ns"], f.evidence[e].examples[x].startNs);
        }
        EXPECT_EQ(j["fix"]["tensorflow"], f.fix.tensorflow);
        EXPECT_EQ(j["fix"]["jax"], f.fix.jax);
    }
    ASSERT_EQ(doc["devices"].size(), report.devices.size());
    for (size_t i = 0; i < report.devices.size(); ++i) {
        const DeviceBreakdown& d = report.devices[i];
        EXPECT_EQ(doc["devices"][i]["label"], d.label);
        EXPECT_EQ(doc["devices"][i]["compute_ns"], d.computeNs);
        EXPECT_EQ(doc["devices"][i]["idle_ns"], d.idleNs);
        for (int c = 0; c < kIdleCauseCount; ++c)
            EXPECT_EQ(doc["devices"][i]["idle_causes_ns"][std::string(idleCauseName(static_cast<IdleCause>(c)))],
                d.idleCauseNs[c]);
        EXPECT_EQ(doc["devices"][i]["utilization"].get<std::vector<double>>(), d.utilization);
    }
    ASSERT_EQ(doc["top_kernels"].size(), report.topKernels.size());
    for (size_t i = 0; i < report.topKernels.size(); ++i)
        EXPECT_EQ(doc["top_kernels"][i]["total_ns"], report.topKernels[i].totalNs);
    ASSERT_EQ(doc["memory"].size(), report.memory.size());
    ASSERT_FALSE(report.memory.empty());
    int64_t peakReserved = 0;
    for (const auto& point : report.memory[0].points)
        peakReserved = std::max(peakReserved, point.reserved);
    EXPECT_GT(peakReserved, 0);
    EXPECT_EQ(doc["memory"][0]["peak_reserved_bytes"], peakReserved);
    EXPECT_EQ(doc["memory"][0]["capacity_bytes"], report.memory[0].capacityBytes);
}

// A capacity far above the data (a few GiB used of a 192 GiB GPU) no longer flattens the curve onto the axis: the axis
// follows the data and the capacity is named above the plot; near the capacity, its line is drawn.
TEST(FindingsReport, AFarLimitIsNamedNotDrawn)
{
    LineSeries used;
    used.name = "allocated";
    used.x = { 0, 1, 2 };
    used.y = { 1e9, 3e9, 2e9 };
    LineChartOptions o;
    o.bytesAxis = true;
    o.limit = 192e9;
    o.limitLabel = "capacity 192 GB";
    const std::string far = svgLineChart({ used }, o);
    EXPECT_EQ(far.find("class='limit'"), std::string::npos);
    EXPECT_NE(far.find("capacity 192 GB (above this scale)"), std::string::npos);
    EXPECT_EQ(far.find("178.81 GiB"), std::string::npos) << "no axis tick near the capacity";
    o.limit = 4e9; // the data reach 75 % of it
    o.limitLabel = "capacity 4 GB";
    const std::string near = svgLineChart({ used }, o);
    EXPECT_NE(near.find("class='limit'"), std::string::npos);
    EXPECT_EQ(near.find("above this scale"), std::string::npos);
}

// A CPU-only profile (no kernel, copy or memset) gets one sentence in place of the GPU sections in every format,
// not empty tables and plots with ticks at +-1e300.
TEST(FindingsReport, NoGpuWorkIsSaidOnceInEveryFormat)
{
    TraceBuilder t("cpu_only");
    t.step(1, 0, 10'000'000);
    t.hostOp(100'000, 9'000'000, "aten::conv2d");
    const auto report = t.analyze();
    ASSERT_FALSE(report.hasGpuWork());
    const std::string text = renderTextReport(report), md = renderMarkdownReport(report),
                      html = renderHtmlReport(report);
    for (const std::string* out : { &text, &md, &html }) {
        EXPECT_NE(out->find(kNoGpuWorkText), std::string::npos) << *out;
        EXPECT_EQ(out->find("GPU time breakdown"), std::string::npos) << *out;
        EXPECT_EQ(out->find("Top kernels"), std::string::npos) << *out;
    }
    EXPECT_EQ(html.find("<svg"), std::string::npos);
    LineChartOptions o;
    // A plot with no point spans 0..1 (its x ticks were 1e300-wide numbers run together).
    const std::string empty = svgLineChart({ LineSeries {} }, o);
    EXPECT_NE(empty.find("text-anchor='middle'>0.2<"), std::string::npos) << empty;
    EXPECT_NE(empty.find("text-anchor='middle'>1<"), std::string::npos) << empty;
}

TEST(FindingsReport, HtmlIsSelfContainedWithPlots)
{
    TraceBuilder t("html");
    problemTrace(t);
    auto report = t.analyze();
    report.traceName = "<b>run</b>.sqlite";
    std::string html = renderHtmlReport(report);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos);
    EXPECT_EQ(html.find("<b>run</b>"), std::string::npos); // escaped
    EXPECT_NE(html.find("&lt;b&gt;run"), std::string::npos);
    size_t svgs = 0;
    for (size_t p = html.find("<svg"); p != std::string::npos; p = html.find("<svg", p + 1))
        ++svgs;
    EXPECT_GE(svgs, 5u); // breakdown, utilization, memory, top kernels, layout share
    EXPECT_NE(html.find("capacity 40.00 GiB"), std::string::npos);
    EXPECT_NE(html.find("Layout-conversion share"), std::string::npos);
    for (const auto& f : report.findings)
        EXPECT_NE(html.find(htmlEscape(f.fix.tensorflow)), std::string::npos) << f.ruleId;
    for (const auto& f : report.findings)
        EXPECT_NE(html.find(htmlEscape(f.fix.jax)), std::string::npos) << f.ruleId;
}

TEST(FindingsReport, TextAndMarkdownRankFindings)
{
    TraceBuilder t("text");
    problemTrace(t);
    auto report = t.analyze();
    std::string text = renderTextReport(report);
    size_t first = text.find("#1 [");
    size_t second = text.find("#2 [");
    ASSERT_NE(first, std::string::npos);
    ASSERT_NE(second, std::string::npos);
    EXPECT_LT(first, second);
    EXPECT_NE(text.find(report.findings[0].title), std::string::npos);
    // The header's counts read as everywhere else: thousands separated.
    report.kernelCount = 12345;
    report.memcpyCount = 1000;
    const std::string header = renderTextReport(report);
    EXPECT_NE(header.find("Kernels: 12,345 ("), std::string::npos) << header.substr(0, 300);
    EXPECT_NE(header.find("copies: 1,000,"), std::string::npos) << header.substr(0, 300);
    std::string md = renderMarkdownReport(report);
    EXPECT_NE(md.find("| 1 | "), std::string::npos);
    EXPECT_NE(md.find("- ONNX Runtime: "), std::string::npos);
    EXPECT_NE(md.find("- JAX: "), std::string::npos);
    EXPECT_TRUE(parseReportFormat("md").isOk());
    EXPECT_FALSE(parseReportFormat("pdf").isOk());
}

TEST(FindingsReport, CliWritesReportAndRejectsBadInput)
{
    if (!std::filesystem::exists(std::string(PLACESCOPE_BIN_DIR) + "/placescope"))
        GTEST_FAIL() << "placescope binary not built next to the tests";
    TraceBuilder t("cli");
    problemTrace(t);
    t.analyze(); // commits the file
    std::string html = (t.dir() / "report.html").string();
    CliRun run = runPlacescope({ "analyze", t.path(), "-o", html });
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(readFile(html).find("<svg"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(html + ".partial"));

    run = runPlacescope({ "analyze", t.path(), "--format", "json" });
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NO_THROW(nlohmann::json::parse(run.out));

    // Not a trace: one line on stderr, non-zero exit, no report written.
    std::string bogus = (t.dir() / "bogus.sqlite").string();
    std::ofstream(bogus) << "this is not sqlite";
    std::string bad = (t.dir() / "bad.html").string();
    run = runPlacescope({ "analyze", bogus, "-o", bad });
    EXPECT_NE(run.exitCode, 0);
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_FALSE(std::filesystem::exists(bad));
    // A trace cut in half (a copy interrupted mid-way): a clear error, no report.
    std::string cut = (t.dir() / "cut.sqlite").string();
    std::filesystem::copy_file(t.path(), cut);
    std::filesystem::resize_file(cut, std::filesystem::file_size(cut) / 2);
    run = runPlacescope({ "analyze", cut, "-o", bad });
    EXPECT_NE(run.exitCode, 0) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_FALSE(std::filesystem::exists(bad));
    run = runPlacescope({ "analyze", (t.dir() / "missing.sqlite").string() });
    EXPECT_NE(run.exitCode, 0);
    run = runPlacescope({ "analyze", t.path(), "--format", "pdf" });
    EXPECT_NE(run.exitCode, 0);
    EXPECT_NE(run.err.find("unknown report format"), std::string::npos) << run.err;
    run = runPlacescope({ "analyze", t.path(), "-o", (t.dir() / "no" / "such" / "dir.html").string() });
    EXPECT_NE(run.exitCode, 0);
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

} // namespace
} // namespace placescope::testing
