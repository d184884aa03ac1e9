// SPDX-License-Identifier: MIT
// The findings pane words a finding's saving as the CLI's text report and the HTML report do (one wording in
// analysis/findings/saving_text.h): the same words for a time, a memory-only and a simulated finding, and no
// "0 ns per step" for a finding that saves memory.
#include "analysis/findings/saving_text.h"
#include "analysis/render/report_writer.h"
#include "analysis/render/svg_charts.h"
#include "ui/window/finding_details.h"

#include <QTextDocument>
#include <QtTest>

using namespace placescope;

class FindingDetailsTest : public QObject
{
    Q_OBJECT
private slots:
    void savingReadsAsInTheReports()
    {
        Finding time;
        time.ruleId = "copies.pageable";
        time.title = "Pageable copies";
        time.saving.perStepMs = 1.2;
        time.saving.percentOfStep = 3.4;
        Finding memory;
        memory.ruleId = "memory.fragmentation";
        memory.title = "Fragmented allocator";
        memory.saving.memoryBytes = 3LL << 30;
        Finding simulated = time;
        simulated.ruleId = "gpu_idle.sync";
        simulated.saving.simulated = true;
        simulated.saving.simulatedMs = 0.8;
        simulated.saving.simulatedEdit = "pinned:copy=on";

        AnalysisReport report;
        report.findings = { time, memory, simulated };
        const std::string text = renderTextReport(report);
        const std::string html = renderHtmlReport(report);
        for (const Finding& finding : report.findings) {
            const std::string words = savingText(finding.saving);
            QTextDocument pane;
            pane.setHtml(ui::findingDetailsHtml(finding, "torch"));
            const QString shown = pane.toPlainText();
            QVERIFY2(shown.contains("Saving: " + QString::fromStdString(words)), qPrintable(shown));
            QVERIFY2(text.find("Saving: " + words + "\n") != std::string::npos, text.c_str());
            QVERIFY(html.find("Saving: " + htmlEscape(words) + "</div>") != std::string::npos);
            QVERIFY2(!shown.contains("0 ns per step"), qPrintable(shown));
        }
        QTextDocument pane;
        pane.setHtml(ui::findingDetailsHtml(memory, "torch"));
        QVERIFY(pane.toPlainText().contains("Saving: up to 3.00 GiB of device memory"));
    }
};

QTEST_MAIN(FindingDetailsTest)
#include "finding_details_test.moc"
