// SPDX-License-Identifier: MIT
// MainWindow: filling the panels from an open's result, findings -> timeline, recent files, Record..., settings.
#include "analysis/findings/analyzer.h"
#include "profiler/base/units.h"
#include "ui/jobs/wait_until.h"
#include "ui/models/table_model.h"
#include "ui/placement/placement_session.h"
#include "ui/reports/reports_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui/whatif/whatif_session.h"
#include "ui/window/finding_details.h"
#include "ui/window/main_window.h"

#include "analysis/findings/saving_text.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QShowEvent>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>

#include <algorithm>

namespace placescope::ui {

void MainWindow::onOpenFinished(const OpenResult& result)
{
    m_progress->setVisible(false);
    if (!result.error.empty()) {
        m_lastError = QString::fromStdString(result.error);
        m_status->setText(tr("Could not open: %1").arg(m_lastError));
        if (!m_openCancelled)
            showOpenError(QString::fromStdString(result.inputPath), m_lastError);
        emit openFinished(false);
        return;
    }
    m_inputPath = QString::fromStdString(result.inputPath);
    m_timeline->setTrace(result.trace);
    checkModelAgainstTrace(); // an open model is matched against the new trace
    // Placement prices transfers with this trace's memcpys and, when it names its GPU, costs for that GPU.
    m_placement->setTrace(QString::fromStdString(result.tracePath), QString::fromStdString(result.traceGpuName));
    // The What-if panel reads the same file itself (the findings' TraceData), once it is first shown.
    m_whatIf->setTrace(QString::fromStdString(result.tracePath));
    m_reportsPanel->setTraceData(result.reportData);
    setWindowTitle(QString("Placescope - %1").arg(QFileInfo(QString::fromStdString(result.inputPath)).fileName()));
    std::vector<QVariantList> kernels, copies, problems, findings;
    if (result.stats) {
        for (const auto& row : result.stats->kernels.rows)
            kernels.push_back({ QString::fromStdString(row.name), QVariant::fromValue<qlonglong>(row.time.count),
                static_cast<double>(row.time.totalNs), static_cast<double>(row.time.averageNs),
                static_cast<double>(row.time.minNs), static_cast<double>(row.time.maxNs), row.timePercent });
        for (const auto& row : result.stats->memoryOps)
            copies.push_back({ QString::fromStdString(row.operation), QString::fromStdString(row.memoryTypes),
                QVariant::fromValue<qlonglong>(row.time.count), static_cast<double>(row.time.totalNs),
                QVariant::fromValue<qlonglong>(row.totalBytes), row.bandwidthGBps });
        for (const auto& row : result.stats->problems)
            problems.push_back({ QString::fromStdString(row.kind), QString::fromStdString(row.severity),
                QVariant::fromValue<qlonglong>(row.count), QString::fromStdString(row.help),
                QString::fromStdString(row.example) });
    }
    m_report = result.findings;
    if (m_report) {
        for (const auto& finding : m_report->findings)
            findings.push_back({ QString::fromStdString(finding.title),
                QString::fromStdString(std::string(severityName(finding.severity))),
                // The ranked figure in the list (a 440-pixel dock); the whole wording in its tooltip and the pane.
                QVariant::fromValue(LabeledNumber { finding.saving.rankingMs() * 1e6,
                    QString::fromStdString(savingFigureText(finding.saving)),
                    QString::fromStdString(savingText(finding.saving)) }),
                QString::fromStdString(finding.summary) });
    }
    m_kernels->setRows(std::move(kernels));
    m_copies->setRows(std::move(copies));
    m_problems->setRows(std::move(problems));
    m_findings->setRows(std::move(findings));
    if (m_findingDetails) {
        m_findingDetails->clear();
        // No finding to select: the pane says so, in the reports' words.
        m_findingDetails->setPlaceholderText(m_report && m_report->findings.empty()
                ? QString::fromUtf8(kNoFindingsText)
                : tr("Select a finding to see its saving, the fix and the evidence."));
    }
    if (m_opPlacement) {
        // The same report's figure the text, Markdown, HTML and JSON reports print (TensorFlow traces only).
        const bool placed = m_report && m_report->tfOpPlacement;
        m_opPlacement->setText(placed ? QString::fromStdString(opPlacementLine(*m_report->tfOpPlacement)) : QString());
        m_opPlacement->setToolTip(placed ? QString::fromStdString(opPlacementMeaning()) : QString());
        m_opPlacement->setVisible(placed);
    }
    std::vector<QVariantList> ops;
    for (const auto& row : result.opSummary)
        ops.push_back({ QString::fromStdString(row.name), QVariant::fromValue<qlonglong>(row.count),
            static_cast<double>(row.cpuNs), static_cast<double>(row.gpuNs),
            QVariant::fromValue<qlonglong>(row.kernelCount),
            row.count ? static_cast<double>(row.cpuNs) / static_cast<double>(row.count) : 0.0 });
    m_opSummary->setRows(std::move(ops));
    // The op summary only means something for traces with framework ops (PyTorch / Kineto, NVTX op ranges).
    if (auto* dock = findChild<QDockWidget*>("dock_" + tr("Ops")))
        dock->setVisible(m_opSummary->rowCount() > 0);
    setMeasuredStep(result);
    // Events as `placescope import` and `stats` count them (TraceCounts::events()), then what the timeline draws of
    // them (memory events are a counter track, not spans).
    const QString events = result.stats
        ? tr("%1 events (%2 on the timeline)")
              .arg(QString::fromStdString(withThousands(result.stats->counts.events())),
                  QString::fromStdString(withThousands(static_cast<int64_t>(result.trace->eventCount))))
        : tr("%1 events on the timeline")
              .arg(QString::fromStdString(withThousands(static_cast<int64_t>(result.trace->eventCount))));
    m_status->setText(tr("%1 in %2 lanes, loaded in %3 (%4 bytes/event in memory)")
                          .arg(events)
                          .arg(result.trace->lanes.size())
                          .arg(QString::fromStdString(formatNanoseconds(result.loadSeconds * 1e9)))
                          .arg(result.trace->eventCount ? result.trace->memoryBytes() / result.trace->eventCount : 0));
    // A trace that opened only in part (a truncated file, records lost) says so where people look; problems of
    // severity info (unpaired flows, overlapping kernels kept as recorded) lose nothing.
    int64_t losses = 0;
    if (result.stats)
        for (const auto& row : result.stats->problems)
            losses += row.severity != "info" ? row.count : 0;
    const bool partial = losses > 0;
    if (partial)
        m_status->setText(m_status->text()
            + tr(" - opened in part: %1 import problems lost data (see the Import problems tab)")
                  .arg(QString::fromStdString(withThousands(losses))));
    m_status->setStyleSheet(partial ? "color: #c05000; font-weight: bold" : QString());
    emit openFinished(true);
}

void MainWindow::setMeasuredStep(const OpenResult& result)
{
    // The analyzer's steps when it found real ones; else the trace's total GPU busy time as one step.
    if (result.findings && result.findings->stepCount > 0
        && result.findings->stepSource.find("whole trace") == std::string::npos) {
        m_placement->setMeasuredStepUs(result.findings->meanStepMs * 1000.0,
            tr("mean of %1 steps (%2)")
                .arg(result.findings->stepCount)
                .arg(QString::fromStdString(result.findings->stepSource)));
        return;
    }
    int64_t kernelNs = result.findings ? result.findings->kernelNs : 0;
    if (!result.findings && result.stats)
        kernelNs = result.stats->kernels.totalNs;
    if (kernelNs > 0)
        m_placement->setMeasuredStepUs(kernelNs / 1e3, tr("total GPU kernel time of the trace (no steps found)"));
    else
        m_placement->setMeasuredStepUs(-1, {});
}

bool MainWindow::waitForOpen(int timeoutMs)
{
    return waitUntil([this] { return !m_openJob.isRunning(); }, timeoutMs) && m_lastError.isEmpty()
        && m_timeline->trace();
}

bool MainWindow::selectFinding(int row)
{
    // A finding's evidence examples are time ranges: show the first one (the largest) on the timeline.
    if (!m_report || row < 0 || row >= static_cast<int>(m_report->findings.size()))
        return false;
    // The fix first for the framework that wrote the trace where its format says; else the placement panel's choice.
    const std::string framework = traceFramework(*m_report);
    if (m_findingDetails)
        m_findingDetails->setHtml(findingDetailsHtml(m_report->findings[static_cast<size_t>(row)],
            framework.empty() ? m_placement->costOptions().framework : framework,
            m_timeline->trace() ? m_timeline->trace()->firstNs : m_report->originNs));
    // The list shows which finding the pane is about, also when it was picked from elsewhere (--finding).
    if (auto* view = findChild<QDockWidget*>("dock_" + tr("Findings"))->findChild<QTableView*>()) {
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(view->model());
        const QModelIndex index = proxy->mapFromSource(m_findings->index(row, 0));
        if (index.isValid() && view->currentIndex().row() != index.row())
            view->setCurrentIndex(index); // re-enters here once, with the same row
    }
    const Finding& finding = m_report->findings[static_cast<size_t>(row)];
    // A finding about memory names its peak as an instant: select the memory track at that peak.
    if (finding.ruleId.rfind("memory.", 0) == 0 && m_timeline->trace())
        for (const auto& evidence : finding.evidence)
            for (const auto& example : evidence.examples)
                if (example.startNs >= 0 && example.endNs == example.startNs
                    && m_timeline->selectCounterPeak(example.startNs))
                    return true;
    for (const auto& evidence : finding.evidence) {
        for (const auto& example : evidence.examples) {
            if (example.startNs >= 0 && example.endNs > example.startNs) {
                const QString what = QString::fromStdString(evidence.what + ": " + example.label);
                m_timeline->showRange(example.startNs, example.endNs, what);
                m_status->setText(what);
                return true;
            }
        }
    }
    return true;
}

void MainWindow::rememberRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value("recentFiles").toStringList();
    recent.removeAll(QFileInfo(path).absoluteFilePath());
    recent.prepend(QFileInfo(path).absoluteFilePath());
    settings.setValue("recentFiles", recent.mid(0, 8));
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    for (const QString& path : QSettings().value("recentFiles").toStringList())
        m_recentMenu->addAction(path, this, [this, path] { openFile(path); });
    m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // Unless someone gave the window another size meanwhile (a test, a --screenshot size).
    if (m_maximizeAtFirstShow && size() == m_firstStartSize)
        setWindowState(windowState() | Qt::WindowMaximized);
    m_maximizeAtFirstShow = false;
    if (!m_defaultDockSizes)
        return;
    m_defaultDockSizes = false;
    // Default dock sizes (a saved state replaces them), set once the window has its size: before that the
    // docks' shares are of a small default window. The timeline keeps most room; the op graph gets enough
    // width for two columns of nodes; the kernel tables and the placement panel share the bottom.
    QTimer::singleShot(0, this, [this] {
        auto* findingsDock = findChild<QDockWidget*>("dock_" + tr("Findings"));
        auto* kernelsDock = findChild<QDockWidget*>("dock_" + tr("Kernels"));
        const int rightWidth = std::max(440, width() / 4);
        resizeDocks({ findingsDock }, { rightWidth }, Qt::Horizontal);
        // The Details panel under the findings gets the larger share: an event's details are a long list.
        // Findings over Details 3:2, and in the findings dock about six findings over their pane.
        resizeDocks({ findingsDock, findChild<QDockWidget*>("dock_details") }, { height() * 3 / 5, height() * 2 / 5 },
            Qt::Vertical);
        if (auto* splitter = findChild<QSplitter*>("findingsSplitter")) {
            auto* list = qobject_cast<QTableView*>(splitter->widget(0));
            const int listHeight = list->horizontalHeader()->sizeHint().height()
                + 6 * list->verticalHeader()->defaultSectionSize() + 2 * list->frameWidth();
            const int total = std::max(splitter->height(), listHeight * 2);
            splitter->setSizes({ listHeight, total - listHeight });
        }
        // The bottom row: the What-if panel (in front while no model is open) needs height for its lanes under its
        // chart, and most of the row's width beside its form; the tables scroll.
        auto* whatIfDock = findChild<QDockWidget*>("dock_whatif");
        const bool whatIfInFront = whatIfDock->isVisible() && !whatIfDock->visibleRegion().isEmpty();
        resizeDocks({ kernelsDock }, { std::max(250, height() * (whatIfInFront ? 9 : 6) / 20) }, Qt::Vertical);
        const int bottomWidth = width() - rightWidth; // it ends where the right column starts
        resizeDocks({ kernelsDock, whatIfDock }, { bottomWidth * 2 / 5, bottomWidth * 3 / 5 }, Qt::Horizontal);
        // Inside it, the lanes and figures get more than the form, which scrolls sideways on a small screen.
        if (auto* whatIfSplit = whatIfDock->findChild<QSplitter*>("whatifSplitter"))
            whatIfSplit->setSizes({ bottomWidth * 3 / 5 * 2 / 5, bottomWidth * 3 / 5 * 3 / 5 });
    });
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    for (QSplitter* splitter : findChildren<QSplitter*>())
        if (!splitter->objectName().isEmpty())
            settings.setValue("splitters/" + splitter->objectName(), splitter->saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::showRecordDialog()
{
    // The capture runs as a child process: a crash in the traced program never takes the GUI down.
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Record"));
    auto* form = new QFormLayout(&dialog);
    auto* command = new QLineEdit(&dialog);
    command->setPlaceholderText("python train.py --steps 20");
    auto* output = new QLineEdit(QDir::home().filePath("run.sqlite"), &dialog);
    auto* log = new QPlainTextEdit(&dialog);
    log->setReadOnly(true);
    auto* buttons = new QDialogButtonBox(&dialog);
    QPushButton* start = buttons->addButton(tr("Start"), QDialogButtonBox::AcceptRole);
    QPushButton* stop = buttons->addButton(tr("Stop"), QDialogButtonBox::RejectRole);
    form->addRow(tr("Command"), command);
    form->addRow(tr("Output trace"), output);
    form->addRow(log);
    form->addRow(buttons);
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    connect(&process, &QProcess::readyRead, log,
        [&] { log->appendPlainText(QString::fromLocal8Bit(process.readAll()).trimmed()); });
    connect(&process, &QProcess::errorOccurred, log, [&](QProcess::ProcessError) {
        log->appendPlainText(tr("Cannot run placescope capture: %1").arg(process.errorString()));
    });
    connect(&process, &QProcess::finished, &dialog, [&](int code, QProcess::ExitStatus) {
        if (code == 0) {
            log->appendPlainText(tr("Done: %1").arg(output->text()));
            openFile(output->text());
        } else {
            log->appendPlainText(tr("placescope capture exited with %1 (see the message above; recording needs an "
                                    "NVIDIA GPU and the CUPTI library)")
                                     .arg(code));
        }
    });
    connect(start, &QPushButton::clicked, &dialog, [&] {
        const QString exe = QDir(QCoreApplication::applicationDirPath()).filePath("placescope");
        QStringList args { "capture", "-o", output->text(), "--" };
        args += QProcess::splitCommand(command->text());
        log->appendPlainText("$ placescope " + args.join(' '));
        process.start(exe, args);
    });
    // Stop asks capture to end (SIGTERM): it stops the program and removes its parts folder. SIGKILL, which it cannot
    // catch, only if it has not ended after a few seconds.
    connect(stop, &QPushButton::clicked, &dialog, [&] {
        if (process.state() != QProcess::NotRunning)
            process.terminate();
        else
            dialog.reject();
    });
    dialog.resize(640, 420);
    dialog.exec();
    if (process.state() != QProcess::NotRunning) {
        process.terminate();
        if (!process.waitForFinished(10000)) {
            process.kill();
            process.waitForFinished(2000);
        }
    }
}

} // namespace placescope::ui
