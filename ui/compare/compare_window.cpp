// SPDX-License-Identifier: MIT
#include "ui/compare/compare_window.h"

#include "analysis/diff/diff_format.h"
#include "ui/compare/compare_axis.h"
#include "ui/compare/compare_lanes_view.h"
#include "ui/compare/delta_table_model.h"
#include "ui/compare/prediction_error_model.h"
#include "ui/jobs/wait_until.h"
#include "ui/models/table_model.h"
#include "ui/window/file_filters.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace placescope::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->hide();
    view->setWordWrap(false);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    // Every column at least as wide as its title ("Share of step delta" was cut to "hare of step delt").
    const QFontMetrics header(view->horizontalHeader()->font());
    for (int c = 0; c < model->columnCount(); ++c) {
        const QString title = model->headerData(c, Qt::Horizontal).toString();
        view->setColumnWidth(c, std::max(view->columnWidth(c), header.horizontalAdvance(title) + 24));
    }
    return view;
}

// A run's timeline with its title above, scrolling vertically when its lanes do not fit.
QWidget* framedView(QLabel* title, CompareLanesView* view, QWidget* parent)
{
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(title);
    auto* scroll = new QScrollArea(box);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the shared axis scrolls in time
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn); // both views keep the same plot width
    scroll->setWidget(view);
    layout->addWidget(scroll, 1);
    return box;
}

QString sideTitle(const char* letter, const CompareSide& side, const std::string& gpu, int64_t steps, int64_t meanNs,
    const std::optional<PredictionSource>& prediction)
{
    const QString predicted = prediction
        ? QObject::tr(", predicted from %1 with %2").arg(qs(prediction->from), qs(prediction->edits))
        : QString();
    return QObject::tr("%1: %2 (%3, %4 steps, mean step %5%6)")
        .arg(letter, qs(diff_format::runLabel(side.input)), gpu.empty() ? QObject::tr("GPU unknown") : qs(gpu))
        .arg(steps)
        .arg(qs(diff_format::duration(meanNs)), predicted);
}

} // namespace

CompareWindow::CompareWindow(QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_tempDir(std::make_unique<QTemporaryDir>())
{
    setWindowTitle(tr("Placescope: compare runs"));
    setObjectName("CompareWindow");
    m_axis = new CompareAxis(this);
    m_viewA = new CompareLanesView(m_axis, this);
    m_viewB = new CompareLanesView(m_axis, this);
    m_viewA->setObjectName("compare_a");
    m_viewB->setObjectName("compare_b");
    connect(m_viewA, &CompareLanesView::fitRequested, this, &CompareWindow::zoomToFit);
    connect(m_viewB, &CompareLanesView::fitRequested, this, &CompareWindow::zoomToFit);

    m_summary = new QLabel(tr("Comparing..."), this);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes = new QLabel(this);
    m_notes->setWordWrap(true);
    m_titleA = new QLabel(this);
    m_titleB = new QLabel(this);

    m_align = new QComboBox(this);
    m_align->setObjectName("compare_align");
    m_align->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_align, &QComboBox::activated, this, [this](int index) { alignOnStep(m_align->itemData(index).toInt()); });
    m_scope = new QComboBox(this);
    m_scope->addItems({ tr("Whole trace"), tr("Compared steps") });
    connect(m_scope, &QComboBox::activated, this, [this](int index) { showStepRows(index == 1); });
    auto* filter = new QLineEdit(this);
    filter->setPlaceholderText(tr("Filter kernels..."));
    auto* fit = new QPushButton(tr("Zoom to fit"), this);
    connect(fit, &QPushButton::clicked, this, &CompareWindow::zoomToFit);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Align on"), this));
    controls->addWidget(m_align);
    controls->addWidget(fit);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("Kernels of"), this));
    controls->addWidget(m_scope);
    filter->setMaximumWidth(360);
    controls->addWidget(filter, 1);
    m_simulateBox = new QCheckBox(tr("Simulate findings' savings"), this);
    m_simulateBox->setToolTip(tr("Replay both runs with each finding's fix (placescope diff --simulate); slower"));
    connect(m_simulateBox, &QCheckBox::toggled, this, &CompareWindow::setSimulateSavings);
    controls->addWidget(m_simulateBox);
    m_highlightInfo = new QLabel(this);
    controls->addWidget(m_highlightInfo, 1);

    m_kernels = new DeltaTableModel(this);
    m_kernelProxy = new QSortFilterProxyModel(this);
    m_kernelProxy->setSourceModel(m_kernels);
    m_kernelProxy->setSortRole(DeltaTableModel::kRawRole);
    m_kernelProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_kernelProxy->setFilterKeyColumn(DeltaTableModel::Name);
    connect(filter, &QLineEdit::textChanged, m_kernelProxy, &QSortFilterProxyModel::setFilterFixedString);
    m_kernelView = makeTable(m_kernelProxy, this);
    m_kernelView->setSortingEnabled(true);
    m_kernelView->sortByColumn(-1, Qt::AscendingOrder); // the diff's own order until the user sorts
    m_kernelView->horizontalHeader()->moveSection(DeltaTableModel::Name, DeltaTableModel::ColumnCount - 1);
    connect(m_kernelView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { onKernelRowChanged(current); });
    m_figures = new TableModel({ tr("Figure"), tr("A"), tr("B"), tr("Delta"), tr("Share of step delta") }, this);
    // Savings held in ns per step and shown through the one units formatter, as the main window's findings are.
    m_findings = new TableModel(
        { tr("Status"), tr("Rule"), tr("Saving A per step"), tr("Saving B per step"), tr("Basis"), tr("Finding") },
        { CellFormat::Plain, CellFormat::Plain, CellFormat::Saving, CellFormat::Saving }, this);
    m_prediction = new PredictionErrorModel(this);
    m_tabs = new QTabWidget(this);
    auto* tabs = m_tabs;
    tabs->addTab(m_kernelView, tr("Kernels"));
    tabs->addTab(makeTable(m_figures, this), tr("Figures"));
    tabs->addTab(makeTable(m_findings, this), tr("Findings"));
    QTableView* predictionView = makeTable(m_prediction, this);
    // Few rows of short figures: columns as wide as their content (the figure names and the error header).
    predictionView->horizontalHeader()->setStretchLastSection(false);
    predictionView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_predictionTab = tabs->addTab(predictionView, tr("Prediction error"));
    tabs->setTabEnabled(m_predictionTab, false);

    auto* timelines = new QSplitter(Qt::Vertical, this);
    timelines->addWidget(framedView(m_titleA, m_viewA, this));
    timelines->addWidget(framedView(m_titleB, m_viewB, this));
    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addLayout(controls);
    bottomLayout->addWidget(tabs, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(timelines);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_notes);
    layout->addWidget(split, 1);
    resize(1400, 900);
}

CompareWindow::~CompareWindow() = default; // the job tracker cancels a comparison still running

void CompareWindow::compare(const QString& before, const QString& after)
{
    m_before = before;
    m_after = after;
    m_lastError.clear();
    m_summary->setText(tr("Comparing %1 with %2...").arg(QFileInfo(before).fileName(), QFileInfo(after).fileName()));
    setWindowTitle(tr("Compare %1 / %2").arg(QFileInfo(before).fileName(), QFileInfo(after).fileName()));
    // Each comparison imports into its own folder (named by the generation it is about to get), so a stale one
    // still running never writes where a newer one reads.
    const std::string temp = (m_tempDir->path() + "/" + QString::number(m_job.generation() + 1)).toStdString();
    m_job.start([before = before.toStdString(), after = after.toStdString(), temp, simulate = m_simulate](
                    const CancelToken& cancel) { return compareRuns(before, after, temp, simulate, &cancel); },
        [this](const CompareResult& result) { onResult(result); });
}

void CompareWindow::setSimulateSavings(bool simulate)
{
    if (simulate == m_simulate)
        return;
    m_simulate = simulate;
    m_simulateBox->setChecked(simulate);
    if (!m_before.isEmpty())
        compare(m_before, m_after);
}

bool CompareWindow::waitForResult(int timeoutMs)
{
    if (!waitUntil([this] { return !m_job.isRunning(); }, timeoutMs) && m_lastError.isEmpty())
        m_lastError = tr("timed out");
    return !m_job.isRunning() && m_lastError.isEmpty();
}

void CompareWindow::onResult(const CompareResult& result)
{
    if (!result.error.empty()) {
        m_lastError = qs(result.error);
        m_summary->setText(tr("Cannot compare: %1").arg(m_lastError));
        emit finished(false);
        return;
    }
    m_result = result;
    const RunDiff& d = *result.diff;
    QString summary = tr("Mean step %1 -> %2 (%3)")
                          .arg(qs(diff_format::duration(d.meanStepNsA)), qs(diff_format::duration(d.meanStepNsB)),
                              qs(diff_format::signedDuration(d.stepDeltaNs())));
    if (d.predictionError)
        summary
            += tr("; prediction error of the mean step %1 (%2)")
                   .arg(qs(diff_format::signedDuration(d.predictionError->predictedNs - d.predictionError->measuredNs)),
                       qs(diff_format::relative(
                           PredictionError::relative(d.predictionError->predictedNs, d.predictionError->measuredNs))));
    m_summary->setText(summary);
    QStringList notes;
    for (const std::string& note : d.notes)
        notes << qs(note);
    m_notes->setText(notes.join("\n"));
    m_notes->setVisible(!notes.isEmpty());
    m_titleA->setText(sideTitle("A", *result.a, d.gpuA, d.stepCountA, d.meanStepNsA, d.predictionA));
    m_titleB->setText(sideTitle("B", *result.b, d.gpuB, d.stepCountB, d.meanStepNsB, d.predictionB));

    // Steps both runs have can be aligned on; with none in common, the traces' first events are.
    m_align->clear();
    const size_t common = std::min(result.a->stepStartNs.size(), result.b->stepStartNs.size());
    for (size_t p = 0; p < common; ++p)
        m_align->addItem(tr("step %1 (A #%2, B #%3)")
                             .arg(p + 1)
                             .arg(d.steps[p].numberA.value_or(0))
                             .arg(d.steps[p].numberB.value_or(0)),
            static_cast<int>(p));
    m_align->addItem(tr("trace start"), -1);
    m_alignedStep = common > 0 ? 0 : -1;
    m_align->setCurrentIndex(m_align->findData(m_alignedStep));
    m_viewA->setSide(result.a, originOf(*result.a));
    m_viewB->setSide(result.b, originOf(*result.b));
    fillTables();
    alignOnStep(m_alignedStep); // shows the aligned step
    emit finished(true);
}

int64_t CompareWindow::originOf(const CompareSide& side) const
{
    if (m_alignedStep >= 0 && static_cast<size_t>(m_alignedStep) < side.stepStartNs.size())
        return side.stepStartNs[static_cast<size_t>(m_alignedStep)];
    return side.opened.trace ? side.opened.trace->firstNs : 0;
}

void CompareWindow::alignOnStep(int position)
{
    if (!m_result.diff)
        return;
    const size_t common = std::min(m_result.a->stepStartNs.size(), m_result.b->stepStartNs.size());
    m_alignedStep = position >= 0 && static_cast<size_t>(position) < common ? position : -1;
    m_align->setCurrentIndex(m_align->findData(m_alignedStep));
    m_viewA->setOrigin(originOf(*m_result.a));
    m_viewB->setOrigin(originOf(*m_result.b));
    // Show the aligned step of the longer run (or both traces from their starts).
    if (m_alignedStep >= 0) {
        const size_t p = static_cast<size_t>(m_alignedStep);
        const int64_t longest = std::max(m_result.a->stepDurationNs[p], m_result.b->stepDurationNs[p]);
        TimeAxis axis;
        axis.fit(-longest / 50, longest + longest / 50, m_viewA->plotWidth());
        m_axis->setAxis(axis);
    } else {
        zoomToFit();
    }
}

void CompareWindow::zoomToFit()
{
    const auto [a0, a1] = m_viewA->alignedExtent();
    const auto [b0, b1] = m_viewB->alignedExtent();
    const int64_t from = std::min(a0, b0), to = std::max(a1, b1);
    TimeAxis axis;
    axis.fit(from, std::max(to, from + 1), m_viewA->plotWidth());
    m_axis->setAxis(axis);
}

void CompareWindow::showStepRows(bool steps)
{
    m_scope->setCurrentIndex(steps ? 1 : 0);
    if (!m_result.diff)
        return;
    const QString selected = m_kernelView->currentIndex().isValid()
        ? m_kernelProxy->index(m_kernelView->currentIndex().row(), DeltaTableModel::Name).data().toString()
        : QString();
    m_kernels->setRows(m_result.diff, steps ? &m_result.diff->kernels.inSteps : &m_result.diff->kernels.whole, steps);
    if (!selected.isEmpty())
        selectKernel(selected);
}

void CompareWindow::fillTables()
{
    const RunDiff& d = *m_result.diff;
    showStepRows(m_scope->currentIndex() == 1);
    std::vector<QVariantList> figures;
    // As the CLI's text prints them: figures over the steps per step, with the share of the step delta.
    for (const Figure& f : d.figures) {
        const bool perStep = f.perStep();
        const int64_t delta = perStep ? f.perStepDelta() : f.b - f.a;
        figures.push_back({ qs(f.section + ": " + f.name + (perStep ? " (per step)" : "")),
            qs(diff_format::value(perStep ? f.perStepA() : f.a, f.unit)),
            qs(diff_format::value(perStep ? f.perStepB() : f.b, f.unit)), qs(diff_format::signedValue(delta, f.unit)),
            perStep ? qs(diff_format::share(d.shareOfStepDelta(delta))) : QString() });
    }
    m_figures->setRows(std::move(figures));
    std::vector<QVariantList> findings;
    for (const FindingDiff& f : d.findings)
        findings.push_back({ QString(findingKindName(f.kind)), qs(f.ruleId), f.savingMsA * 1e6, f.savingMsB * 1e6,
            qs(savingBasis(f)), qs(f.title) });
    m_findings->setRows(std::move(findings));
    // A prediction against a measured run: its error is what the comparison is for, so its tab comes up first.
    m_prediction->setError(d.predictionError);
    m_tabs->setTabEnabled(m_predictionTab, d.predictionError.has_value());
    if (d.predictionError)
        m_tabs->setCurrentIndex(m_predictionTab);
    else if (m_tabs->currentIndex() == m_predictionTab)
        m_tabs->setCurrentIndex(0);
}

QString CompareWindow::currentTab() const { return m_tabs->tabText(m_tabs->currentIndex()); }

bool CompareWindow::selectKernel(const QString& name)
{
    for (int row = 0; row < m_kernelProxy->rowCount(); ++row)
        if (m_kernelProxy->index(row, DeltaTableModel::Name).data(DeltaTableModel::kRawRole).toString() == name) {
            m_kernelView->selectRow(row);
            m_kernelView->scrollTo(m_kernelProxy->index(row, 0));
            return true;
        }
    return false;
}

void CompareWindow::onKernelRowChanged(const QModelIndex& current)
{
    const std::string name = current.isValid() ? m_kernelProxy->index(current.row(), DeltaTableModel::Name)
                                                     .data(DeltaTableModel::kRawRole)
                                                     .toString()
                                                     .toStdString()
                                               : std::string();
    const size_t inA = m_viewA->highlightKernel(name);
    const size_t inB = m_viewB->highlightKernel(name);
    m_highlightInfo->setText(name.empty() ? QString() : tr("highlighted: %1 in A, %2 in B").arg(inA).arg(inB));
    if (name.empty())
        return;
    // Bring an instance into view when none is on screen (the first one of either run).
    const TimeAxis& axis = m_axis->axis();
    const int64_t viewStart = axis.viewStartNs(), viewEnd = axis.viewEndNs(m_viewA->plotWidth());
    std::optional<int64_t> first = m_viewA->firstHighlightedNs();
    if (auto b = m_viewB->firstHighlightedNs(); b && (!first || *b < *first))
        first = b;
    if (first && (*first < viewStart || *first > viewEnd)) {
        TimeAxis moved = axis;
        moved.panPixels((static_cast<double>(*first - viewStart) / axis.nsPerPixel()) - m_viewA->plotWidth() / 4);
        m_axis->setAxis(moved);
    }
}

void showCompareWith(QWidget* parent, const QString& current)
{
    if (current.isEmpty()) {
        QMessageBox::information(parent, QObject::tr("Compare with"), QObject::tr("Open a trace first (File > Open)."));
        return;
    }
    // Opens in the folder of the user's file (the other run is usually beside it), window-modal without blocking.
    auto* dialog = new QFileDialog(parent, QObject::tr("Compare %1 with").arg(QFileInfo(current).fileName()),
        QFileInfo(current).absolutePath(), traceFileFilter());
    dialog->setObjectName("compareFileDialog");
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QFileDialog::fileSelected, parent, [parent, current](const QString& other) {
        auto* window = new CompareWindow(parent);
        window->setObjectName("compareWindow");
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        window->compare(current, other);
    });
    dialog->open();
}

} // namespace placescope::ui
