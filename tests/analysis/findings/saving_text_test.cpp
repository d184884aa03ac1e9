// SPDX-License-Identifier: MIT
// A finding's saving in words (analysis/findings/saving_text.h): the wording for a time, a memory-only, an empty and
// a simulated saving, and the text, Markdown and HTML reports printing exactly those words for every finding.
#include "analysis/findings/saving_text.h"
#include "analysis/render/report_writer.h"
#include "analysis/render/svg_charts.h"

#include <gtest/gtest.h>

namespace placescope::testing {
namespace {

Finding finding(const std::string& rule, double perStepMs, double percent, int64_t memoryBytes)
{
    Finding f;
    f.ruleId = rule;
    f.title = rule + " title";
    f.summary = rule + " summary";
    f.saving.perStepMs = perStepMs;
    f.saving.percentOfStep = percent;
    f.saving.memoryBytes = memoryBytes;
    f.saving.method = rule + " method";
    return f;
}

TEST(SavingText, TimeMemoryNoneAndSimulated)
{
    Saving time = finding("t", 1.2, 3.45, 0).saving;
    EXPECT_EQ(savingText(time), "up to 1.20 ms per step (3.5 % of the step)");
    time.upperBound = false;
    EXPECT_EQ(savingText(time), "1.20 ms per step (3.5 % of the step)");
    // A memory finding saves bytes: no "0 ns per step" in front of them.
    EXPECT_EQ(savingText(finding("m", 0.0, 0.0, 3 << 20).saving), "up to 3.00 MiB of device memory");
    EXPECT_EQ(savingText(finding("both", 0.5, 12.0, 1024).saving),
        "up to 500 us per step (12 % of the step) and 1.00 KiB of device memory");
    // Below half a nanosecond per step there is nothing to save (it would print as "0 ns").
    EXPECT_EQ(savingText(finding("n", 1e-7, 0.0, 0).saving), "no saving estimated");
    Saving simulated = finding("s", 2.0, 10.0, 0).saving;
    simulated.simulated = true;
    simulated.simulatedMs = 1.5;
    simulated.simulatedEdit = "pinned";
    EXPECT_EQ(simulatedSavingText(simulated), "simulated 1.50 ms per step (replay with whatif --edit 'pinned')");
    EXPECT_EQ(savingText(simulated),
        "up to 2.00 ms per step (10 % of the step); simulated 1.50 ms per step (replay with whatif --edit 'pinned')");
    simulated.simulatedMs = 0.0001;
    EXPECT_EQ(simulatedSavingText(simulated), "simulated: no saving (replay with whatif --edit 'pinned')");
    EXPECT_EQ(simulatedSavingText(time), "");
}

TEST(SavingText, TheRankedFigureIsPartOfTheWholeWording)
{
    // A list column shows the figure the finding is ranked by, in the whole wording's own words.
    Saving simulated = finding("s", 2.0, 10.0, 0).saving;
    simulated.simulated = true;
    simulated.simulatedMs = 1.5;
    simulated.simulatedEdit = "pinned";
    EXPECT_EQ(savingFigureText(simulated), "simulated 1.50 ms per step");
    simulated.simulatedMs = 0.0001;
    EXPECT_EQ(savingFigureText(simulated), "simulated: no saving");
    simulated.simulatedMs = 3.0; // above the bound: ranked by the bound
    EXPECT_EQ(savingFigureText(simulated), "up to 2.00 ms per step (10 % of the step)");
    const Saving memory = finding("m", 0.0, 0.0, 3 << 20).saving;
    EXPECT_EQ(savingFigureText(memory), "up to 3.00 MiB of device memory");
    for (const Saving& s : { simulated, memory, finding("t", 1.2, 3.45, 0).saving })
        EXPECT_NE(savingText(s).find(savingFigureText(s)), std::string::npos) << savingFigureText(s);
}

TEST(SavingText, EveryReportFormatPrintsTheSameWords)
{
    AnalysisReport report;
    report.traceName = "run.sqlite";
    report.findings = { finding("time", 1.2, 3.4, 0), finding("memory", 0.0, 0.0, 5LL << 30),
        finding("none", 0.0, 0.0, 0), finding("simulated", 4.0, 20.0, 0) };
    report.findings[3].saving.simulated = true;
    report.findings[3].saving.simulatedMs = 3.25;
    report.findings[3].saving.simulatedEdit = "pinned:x=gpu";
    const std::string text = renderTextReport(report);
    const std::string markdown = renderMarkdownReport(report);
    const std::string html = renderHtmlReport(report);
    for (const Finding& f : report.findings) {
        const std::string words = savingText(f.saving);
        EXPECT_NE(text.find("Saving: " + words + "\n"), std::string::npos) << words << "\n" << text;
        EXPECT_NE(markdown.find("**Saving:** " + words + "."), std::string::npos) << words << "\n" << markdown;
        EXPECT_NE(html.find("Saving: " + htmlEscape(words) + "</div>"), std::string::npos) << words;
    }
    EXPECT_EQ(text.find("0 ns per step"), std::string::npos);
    EXPECT_EQ(html.find("0 ns per step"), std::string::npos);
}

} // namespace
} // namespace placescope::testing
