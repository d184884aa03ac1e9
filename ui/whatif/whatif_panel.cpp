// SPDX-License-Identifier: MIT
#include "ui/whatif/whatif_panel.h"

#include "ui/placement/step_time_chart.h"
#include "ui/timeline/timeline_format.h"
#include "ui/whatif/whatif_lanes_view.h"
#include "ui/whatif/whatif_session.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace placescope::ui {

namespace {

QDoubleSpinBox* factorBox(double value, QWidget* parent)
{
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(0.0, 100.0);
    box->setDecimals(2);
    box->setSingleStep(0.1);
    box->setPrefix("x");
    box->setValue(value);
    box->setKeyboardTracking(false); // one run per committed value, not per keystroke
    return box;
}

QLineEdit* regexEdit(const QString& placeholder, QWidget* parent)
{
    auto* edit = new QLineEdit(parent);
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    return edit;
}

QString signedPercent(double fraction)
{
    return QString::fromStdString(::placescope::formatSignedPercent(100.0 * fraction, 2));
}

QString ms(int64_t ns) { return formatDuration(static_cast<double>(ns)); }

QTableWidget* table(const QStringList& headers, QWidget* parent)
{
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6); // compact: the dock is short
    t->horizontalHeader()->setStretchLastSection(true);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setWordWrap(false);
    return t;
}

void setRow(QTableWidget* t, int row, const QStringList& cells)
{
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setToolTip(cells[c]);
        t->setItem(row, c, item);
    }
}

} // namespace

WhatIfPanel::WhatIfPanel(WhatIfSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName("whatifSplitter"); // the main window remembers named splitters
    auto* scroll = new QScrollArea(split);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    QWidget* controls = buildControls();
    scroll->setWidget(controls);
    // Wide enough for the form without a horizontal scroll bar where there is room; on a small screen (1366 wide,
    // the panel beside the kernel tables) the form scrolls sideways instead of pushing the tables out of view.
    controls->setMinimumWidth(std::max(340, controls->minimumSizeHint().width()));
    scroll->setMinimumWidth(240);
    split->setSizes({ controls->minimumWidth() + scroll->verticalScrollBar()->sizeHint().width() + 4, 600 });

    auto* right = new QWidget(split);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(4, 0, 0, 0);
    m_chart = new StepTimeChart(right);
    m_figures = new QLabel(right);
    m_figures->setWordWrap(true);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tabs = new QTabWidget(right);
    m_lanes = new WhatIfLanesView(m_tabs);
    auto* lanesScroll = new QScrollArea(m_tabs);
    lanesScroll->setWidgetResizable(true);
    lanesScroll->setWidget(m_lanes);
    m_tabs->addTab(lanesScroll, tr("Lanes"));
    auto* outcomes = new QSplitter(Qt::Horizontal, m_tabs);
    outcomes->setObjectName("whatifOutcomesSplitter");
    m_outcomes = table({ tr("Edit"), tr("Matched"), tr("Understood as"), tr("How") }, outcomes);
    m_path = table({ tr("Critical path"), tr("Replay"), tr("Predicted"), tr("Change") }, outcomes);
    outcomes->setStretchFactor(0, 1);
    outcomes->setStretchFactor(1, 1);
    m_tabs->addTab(outcomes, tr("Edits and critical path"));
    m_report = new QPlainTextEdit(m_tabs);
    m_report->setReadOnly(true);
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_tabs->addTab(m_report, tr("Report"));
    // The figures' paragraph scrolls past five lines: on a 768-pixel screen the lanes under it keep their room.
    auto* figuresScroll = new QScrollArea(right);
    figuresScroll->setObjectName("whatifFiguresScroll");
    figuresScroll->setWidgetResizable(true);
    figuresScroll->setFrameShape(QFrame::NoFrame);
    figuresScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    figuresScroll->setWidget(m_figures);
    figuresScroll->setMaximumHeight(5 * m_figures->fontMetrics().lineSpacing() + 4);
    rightLayout->addWidget(m_chart);
    rightLayout->addWidget(figuresScroll);
    rightLayout->addWidget(m_tabs, 1);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(split);

    connect(m_session, &WhatIfSession::controlsChanged, this, &WhatIfPanel::showControls);
    connect(m_session, &WhatIfSession::runChanged, this, &WhatIfPanel::showRun);
    connect(m_session, &WhatIfSession::stateChanged, this, &WhatIfPanel::showState);
    showControls();
    showRun();
}

QWidget* WhatIfPanel::buildControls()
{
    auto* box = new QWidget(this);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_noSync = new QCheckBox(tr("Remove host syncs"), box);
    m_noSyncRegex = regexEdit(tr("only APIs matching (regex; empty: all)"), box);
    m_kernelsRegex = regexEdit(tr("kernels matching (regex)"), box);
    m_kernelsFactor = factorBox(0.5, box);
    m_kernelsFactor->setToolTip(tr("How long the matching kernels take, as a factor of their measured time"));
    m_dropRegex = regexEdit(tr("GPU ops matching (regex)"), box);
    m_pinned = new QCheckBox(tr("Pinned copies"), box);
    m_launchFactor = factorBox(1.0, box);
    m_launchFactor->setToolTip(tr("CPU cost of kernel launches (CUDA graphs: about x0.1); x1.00 leaves it unchanged"));
    m_inputFactor = factorBox(1.0, box);
    m_inputFactor->setToolTip(tr("Host time spent loading and preparing input; x1.00 leaves it unchanged"));
    m_loaderWorkers = new QSpinBox(box);
    m_loaderWorkers->setRange(0, 256);
    m_loaderWorkers->setSpecialValueText(tr("as measured"));
    m_loaderWorkers->setToolTip(
        tr("Give a DataLoader that loads on the training thread (num_workers=0) this many worker "
           "processes; each worker is assumed to have a CPU core of its own"));
    m_overlapComm = new QCheckBox(tr("Overlap communication"), box);
    m_extra = regexEdit(tr("any --edit, e.g. kernels:nccl=x0.8"), box);
    m_error = new QLabel(box);
    m_error->setWordWrap(true);
    m_error->setStyleSheet("color: #c0392b;");
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    m_state = new QLabel(box);
    m_state->setWordWrap(true);

    m_kernelsRegex->setMinimumWidth(120);
    for (QLineEdit* edit : { m_noSyncRegex, m_dropRegex, m_extra })
        edit->setMinimumWidth(200);
    auto* kernels = new QHBoxLayout;
    kernels->addWidget(m_kernelsRegex, 1);
    kernels->addWidget(m_kernelsFactor);
    auto* history = new QHBoxLayout;
    // Short button texts; what would be undone is in the tooltip (the stack's own actions put it in the text).
    QUndoStack* stack = m_session->undoStack();
    auto addButton = [&](const QString& text, bool undo) {
        auto* button = new QToolButton(box);
        button->setText(text);
        button->setEnabled(false);
        connect(button, &QToolButton::clicked, stack, undo ? &QUndoStack::undo : &QUndoStack::redo);
        connect(stack, undo ? &QUndoStack::canUndoChanged : &QUndoStack::canRedoChanged, button, &QWidget::setEnabled);
        connect(stack, undo ? &QUndoStack::undoTextChanged : &QUndoStack::redoTextChanged, button,
            [button](const QString& what) { button->setToolTip(what); });
        history->addWidget(button);
    };
    addButton(tr("Undo"), true);
    addButton(tr("Redo"), false);
    history->addStretch(1);

    form->addRow(m_noSync);
    form->addRow(tr("  APIs"), m_noSyncRegex);
    form->addRow(tr("Scale kernels"), kernels);
    form->addRow(tr("Drop GPU ops"), m_dropRegex);
    form->addRow(m_pinned);
    form->addRow(tr("Launch cost"), m_launchFactor);
    form->addRow(tr("Input pipeline"), m_inputFactor);
    form->addRow(tr("DataLoader workers"), m_loaderWorkers);
    form->addRow(m_overlapComm);
    form->addRow(tr("Extra edit"), m_extra);
    form->addRow(history);
    form->addRow(m_error);
    form->addRow(m_state);

    for (QCheckBox* check : { m_noSync, m_pinned, m_overlapComm })
        connect(check, &QCheckBox::toggled, this, &WhatIfPanel::controlsEdited);
    for (QLineEdit* edit : { m_noSyncRegex, m_kernelsRegex, m_dropRegex, m_extra })
        connect(edit, &QLineEdit::editingFinished, this, &WhatIfPanel::controlsEdited);
    for (QDoubleSpinBox* spin : { m_kernelsFactor, m_launchFactor, m_inputFactor })
        connect(spin, &QDoubleSpinBox::valueChanged, this, &WhatIfPanel::controlsEdited);
    connect(m_loaderWorkers, &QSpinBox::valueChanged, this, &WhatIfPanel::controlsEdited);
    for (QWidget* field : std::initializer_list<QWidget*> { m_noSyncRegex, m_kernelsRegex, m_dropRegex, m_extra,
             m_kernelsFactor, m_launchFactor, m_inputFactor, m_loaderWorkers })
        field->installEventFilter(this);
    return box;
}

WhatIfControls WhatIfPanel::controlsShown() const
{
    WhatIfControls c;
    c.noSync = m_noSync->isChecked();
    c.noSyncRegex = m_noSyncRegex->text().trimmed();
    c.kernelsRegex = m_kernelsRegex->text().trimmed();
    c.kernelsFactor = m_kernelsFactor->value();
    c.dropRegex = m_dropRegex->text().trimmed();
    c.pinned = m_pinned->isChecked();
    c.launchFactor = m_launchFactor->value();
    c.inputFactor = m_inputFactor->value();
    c.loaderWorkers = m_loaderWorkers->value();
    c.overlapComm = m_overlapComm->isChecked();
    c.extraEdit = m_extra->text().trimmed();
    return c;
}

void WhatIfPanel::controlsEdited()
{
    if (!m_syncing)
        m_session->setControls(controlsShown());
}

void WhatIfPanel::showControls()
{
    // From the session (undo, redo): set the widgets without turning that into a new edit.
    const WhatIfControls& c = m_session->controls();
    m_syncing = true;
    m_noSync->setChecked(c.noSync);
    m_noSyncRegex->setText(c.noSyncRegex);
    m_kernelsRegex->setText(c.kernelsRegex);
    m_kernelsFactor->setValue(c.kernelsFactor);
    m_dropRegex->setText(c.dropRegex);
    m_pinned->setChecked(c.pinned);
    m_launchFactor->setValue(c.launchFactor);
    m_inputFactor->setValue(c.inputFactor);
    m_loaderWorkers->setValue(c.loaderWorkers);
    m_overlapComm->setChecked(c.overlapComm);
    m_extra->setText(c.extraEdit);
    m_syncing = false;
    showState();
}

void WhatIfPanel::showState()
{
    const QString error = m_session->lastError();
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    QString state;
    if (m_session->tracePath().isEmpty())
        state = tr("Open a trace to try edits on it.");
    else if (m_session->busy())
        state = tr("Replaying with: %1...").arg(editSummary(m_session->controls()));
    else if (!error.isEmpty() && m_session->run())
        state = tr("Showing the last edits that ran: %1").arg(editSummary(m_session->run()->controls));
    m_state->setText(state);
    m_state->setVisible(!state.isEmpty());
    m_lanes->setPlaceholder(m_session->tracePath().isEmpty() ? tr("Open a trace to see its predicted lanes")
            : m_session->busy()                              ? tr("Replaying the trace...")
                                                             : error);
}

void WhatIfPanel::showRun()
{
    showState();
    auto run = m_session->run();
    m_lanes->setRun(run);
    if (!run) {
        m_chart->setEntries({ { tr("measured"), -1, QColor(150, 150, 150) },
            { tr("replay"), -1, QColor(110, 150, 200) }, { tr("predicted"), -1, QColor(80, 170, 110), true } });
        m_figures->clear();
        m_outcomes->setRowCount(0);
        m_path->setRowCount(0);
        m_report->clear();
        return;
    }
    const WhatIfResult& r = run->result;
    // The bars are runWhatIf's step figures as they are (us, as the chart takes them); the text says the rest.
    m_chart->setEntries({ { tr("measured step"), static_cast<double>(r.measured.stepNs) / 1e3, QColor(150, 150, 150) },
        { tr("replay (%1)").arg(signedPercent(r.replayStepError())), static_cast<double>(r.replay.stepNs) / 1e3,
            QColor(110, 150, 200) },
        { tr("predicted step"), static_cast<double>(r.predicted.stepNs) / 1e3, QColor(80, 170, 110), true } });
    // The saving in the CLI's words (stepSavingText), so both say "slower by" for a fix that costs time.
    QString saving = QString::fromStdString(stepSavingText(r)).toHtmlEscaped();
    saving[0] = saving[0].toUpper();
    // Each step figure says what set it, in the CLI's words (StepTimes::how); then the band and the accuracy limit,
    // in the CLI's words too (predictedStepText, replayAccuracyText: one limit).
    auto html = [](const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); };
    const bool trusted = replayWithinLimit(r.replayStepError());
    m_figures->setText(
        tr("<b>%1</b>; span %2 → %3. Measured %4 (step %9), replay %5, predicted %6 (replay; step %10); %7 steps (%8)."
           "<br>%11.<br><span style='color: %12'>%13.</span>")
            .arg(saving, ms(r.replay.spanNs), ms(r.predicted.spanNs), ms(r.measured.stepNs), ms(r.replay.stepNs),
                ms(r.predicted.stepNs), QString::number(r.stepCount))
            .arg(html(r.stepSource))
            .arg(html(r.measured.steps.how()), html(r.predicted.steps.how()))
            .arg(html(predictedStepText(r)), trusted ? QStringLiteral("inherit") : QStringLiteral("#c0392b"),
                html(replayAccuracyText(r))));

    m_outcomes->setRowCount(static_cast<int>(r.edits.size()));
    for (size_t i = 0; i < r.edits.size(); ++i) {
        const EditOutcome& e = r.edits[i];
        setRow(m_outcomes, static_cast<int>(i),
            { QString::fromStdString(e.text), QString::number(e.matched), QString::fromStdString(e.understood),
                QString::fromStdString(e.how) });
    }
    m_outcomes->resizeColumnsToContents();

    // Categories of the critical path before (replay) and after (prediction); the ones empty in both are left out.
    QList<QStringList> rows;
    for (int c = 0; c < kPathCategoryCount; ++c) {
        const int64_t before = r.replayPath.categoryNs[static_cast<size_t>(c)];
        const int64_t after = r.predictedPath.categoryNs[static_cast<size_t>(c)];
        if (before == 0 && after == 0)
            continue;
        rows.push_back({ QString::fromStdString(std::string(pathCategoryName(static_cast<PathCategory>(c)))),
            ms(before), ms(after), ms(after - before) });
    }
    rows.push_back({ tr("total"), ms(r.replayPath.lengthNs()), ms(r.predictedPath.lengthNs()),
        ms(r.predictedPath.lengthNs() - r.replayPath.lengthNs()) });
    m_path->setRowCount(static_cast<int>(rows.size()));
    for (int i = 0; i < rows.size(); ++i)
        setRow(m_path, i, rows[i]);
    m_path->resizeColumnsToContents();

    m_report->setPlainText(QString::fromStdString(run->text));
}

bool WhatIfPanel::eventFilter(QObject* watched, QEvent* event)
{
    // Text fields claim Ctrl+Z for their own typing (ShortcutOverride). When the fields show exactly the edit set
    // that ran, there is no typing to undo: leave the key to Edit > Undo, which undoes the last edit set.
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        const bool redo = key->matches(QKeySequence::Redo)
            || key->keyCombination() == QKeyCombination(Qt::ControlModifier | Qt::ShiftModifier, Qt::Key_Z);
        if ((key->matches(QKeySequence::Undo) || redo) && controlsShown() == m_session->controls()) {
            event->ignore();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void WhatIfPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_session->setActive(true); // the first look at the panel loads the trace
}

} // namespace placescope::ui
