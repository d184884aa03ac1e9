// SPDX-License-Identifier: MIT
#include "ui/reports/reports_panel.h"

#include "analysis/reports/reports.h"
#include "ui/reports/report_table_model.h"
#include "ui/timeline/timeline_view.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace placescope::ui {
namespace {

// The report over the whole trace, as `placescope report NAME` runs it; the error of a context that fails.
struct RunResult
{
    ReportTable table;
    QString error;
};

RunResult runOne(std::shared_ptr<const TraceData> trace, std::string name)
{
    RunResult result;
    const ReportInfo* report = findReport(name);
    auto ctx = ReportContext::create(*trace, ReportOptions {});
    if (!report || !ctx.isOk()) {
        result.error = report ? QString::fromStdString(ctx.status().message()) : QString("unknown report");
        return result;
    }
    result.table = runReport(*ctx, *report);
    return result;
}

// The timeline event of a kernel's rowid (its source row), searched over the device lanes.
std::optional<TimelineView::EventRef> kernelEvent(const LoadedTrace& trace, int64_t rowId)
{
    for (size_t l = 0; l < trace.lanes.size(); ++l) {
        if (trace.lanes[l].group != Lane::Group::Device)
            continue;
        for (size_t r = 0; r < trace.lanes[l].rows.size(); ++r) {
            const LaneRow& row = trace.lanes[l].rows[r];
            for (size_t i = 0; i < row.size(); ++i)
                if (row.kind[i] == EventKind::Kernel && static_cast<int64_t>(row.sourceRow[i]) == rowId)
                    return TimelineView::EventRef { static_cast<int>(l), static_cast<int>(r),
                        static_cast<uint32_t>(i) };
        }
    }
    return std::nullopt;
}

} // namespace

ReportsPanel::ReportsPanel(TimelineView* timeline, QWidget* parent)
    : QWidget(parent)
    , m_timeline(timeline)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_choice = new QComboBox(this);
    m_choice->setObjectName("reportChoice");
    for (const ReportInfo& report : allReports()) {
        m_choice->addItem(QString::fromUtf8(report.name.data(), static_cast<int>(report.name.size())));
        m_choice->setItemData(m_choice->count() - 1,
            QString::fromUtf8(report.description.data(), static_cast<int>(report.description.size())), Qt::ToolTipRole);
    }
    m_model = new ReportTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ReportTableModel::kRawRole); // numbers sort as numbers, not as their text
    m_view = new QTableView(this);
    m_view->setObjectName("reportTable");
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_notes = new QLabel(this);
    m_notes->setObjectName("reportNotes");
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_choice);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_notes);
    connect(m_choice, &QComboBox::currentIndexChanged, this, &ReportsPanel::run);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& index) { selectRowOnTimeline(index.row()); });
}

void ReportsPanel::setTraceData(std::shared_ptr<const TraceData> trace)
{
    m_trace = std::move(trace);
    run();
}

bool ReportsPanel::showReport(const QString& name)
{
    const int index = m_choice->findText(name);
    if (index < 0)
        return false;
    if (index == m_choice->currentIndex())
        run();
    else
        m_choice->setCurrentIndex(index); // runs it
    return true;
}

QString ReportsPanel::currentReport() const { return m_choice->currentText(); }

void ReportsPanel::run()
{
    if (!m_trace) {
        m_job.discard(); // a report of the previous trace is not wanted
        m_model->setTable({});
        m_notes->setText(tr("Open a trace to see its reports."));
        return;
    }
    const QString name = m_choice->currentText();
    m_notes->setText(tr("Running %1...").arg(name));
    // A newer trace or report asked for meanwhile drops this one.
    m_job.start([trace = m_trace, report = name.toStdString()](const CancelToken&) { return runOne(trace, report); },
        [this, name](RunResult result) {
            if (!result.error.isEmpty()) {
                m_model->setTable({});
                m_notes->setText(tr("%1: %2").arg(name, result.error));
                return;
            }
            QStringList notes;
            for (const std::string& note : result.table.notes)
                notes << QString::fromStdString(note);
            m_notes->setText(QString::fromStdString(result.table.title) + "\n" + notes.join("\n"));
            m_proxy->sort(-1); // the report's own order until the user sorts
            m_model->setTable(std::move(result.table));
            putNamesFirst();
            emit reportShown(name);
        });
}

void ReportsPanel::putNamesFirst()
{
    // The CLI prints names last, as nsys stats does (a long name may run past the terminal's edge); in a dock
    // narrower than the table they would be off screen, so the trailing text columns (Name; Op, Sequence) come first.
    QHeaderView* header = m_view->horizontalHeader();
    const auto& columns = m_model->table().columns;
    for (int i = 0; i < header->count(); ++i) // the table's own order first: another report may have moved some
        header->moveSection(header->visualIndex(i), i);
    int first = static_cast<int>(columns.size());
    while (first > 0 && columns[static_cast<size_t>(first - 1)].kind == ColumnKind::Text)
        --first;
    if (first == 0 || first == static_cast<int>(columns.size()))
        return; // all text, or names already first (bandwidth's Operation, Memory) or none
    for (int i = first; i < static_cast<int>(columns.size()); ++i) {
        header->moveSection(header->visualIndex(i), i - first);
        header->resizeSection(i, 260);
    }
}

bool ReportsPanel::selectRowOnTimeline(int proxyRow)
{
    if (!m_timeline || !m_timeline->trace() || proxyRow < 0)
        return false;
    const int row = m_proxy->mapToSource(m_proxy->index(proxyRow, 0)).row();
    const auto target = m_model->timelineTarget(row);
    if (!target)
        return false;
    switch (target->kind) {
    case ReportTableModel::TimelineTarget::Kind::KernelRow:
        if (auto ref = kernelEvent(*m_timeline->trace(), target->rowId)) {
            m_timeline->selectEvent(*ref, true);
            return true;
        }
        return false;
    case ReportTableModel::TimelineTarget::Kind::Range:
        m_timeline->showRange(target->startNs, target->endNs);
        return true;
    case ReportTableModel::TimelineTarget::Kind::Name:
        return m_timeline->selectNamed(target->name);
    }
    return false;
}

} // namespace placescope::ui
