// SPDX-License-Identifier: MIT
#include "ui/job/job_window.h"

#include "analysis/job/job_tables.h"
#include "ui/job/job_heatmap_model.h"
#include "ui/reports/report_table_model.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace placescope::ui {

JobWindow::JobWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("Placescope: job"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    m_verdict = new QLabel(central);
    m_verdict->setObjectName(QStringLiteral("job_verdict"));
    m_verdict->setWordWrap(true);
    m_metric = new QComboBox(central);
    m_metric->setObjectName(QStringLiteral("job_metric"));
    m_metric->addItems({ tr("Step time"), tr("Exposed communication"), tr("Wait in collectives") });
    m_heatmap = new JobHeatmapModel(this);
    m_heatmapView = new QTableView(central);
    m_heatmapView->setObjectName(QStringLiteral("job_heatmap"));
    m_heatmapView->setModel(m_heatmap);
    m_heatmapView->horizontalHeader()->setDefaultSectionSize(28);
    m_heatmapView->verticalHeader()->setDefaultSectionSize(18);
    m_heatmapView->setToolTip(tr("Double-click a cell to open that rank's timeline at that step"));
    m_collectives = new ReportTableModel(this);
    auto* collectivesView = new QTableView(central);
    collectivesView->setObjectName(QStringLiteral("job_collectives"));
    collectivesView->setModel(m_collectives);
    auto* split = new QSplitter(Qt::Vertical, central);
    split->addWidget(m_heatmapView);
    split->addWidget(collectivesView);
    layout->addWidget(m_verdict);
    layout->addWidget(m_metric);
    layout->addWidget(split, 1);
    setCentralWidget(central);
    resize(1000, 700);

    connect(m_metric, &QComboBox::currentIndexChanged, this,
        [this](int index) { m_heatmap->setMetric(static_cast<JobHeatmapModel::Metric>(index)); });
    connect(m_heatmapView, &QTableView::doubleClicked, this,
        [this](const QModelIndex& index) { openCell(index.row(), index.column()); });
}

bool JobWindow::isJobFolder(const QString& path)
{
    return QFileInfo(path).isDir() && QFileInfo::exists(QDir(path).filePath(QStringLiteral("job.json")));
}

void JobWindow::openJob(const QString& folder)
{
    m_folder = folder;
    setWindowTitle(QStringLiteral("Placescope: job %1").arg(QDir(folder).dirName()));
    m_verdict->setText(tr("Reducing the job's ranks..."));
    const std::string path = folder.toStdString();
    // reduceJob takes no cancel token: a superseded reduction runs to its end and its result is dropped.
    m_job.start(
        [path](const CancelToken&) -> LoadResult {
            auto manifest = readJobManifest(path);
            if (!manifest.isOk())
                return QString::fromStdString(manifest.status().message());
            auto job = reduceJob(summaryPaths(path, *manifest));
            if (!job.isOk())
                return QString::fromStdString(job.status().message());
            return Loaded { std::move(*manifest), std::make_shared<const JobReduction>(std::move(*job)) };
        },
        [this](LoadResult result) { finishLoad(std::move(result)); });
}

void JobWindow::finishLoad(LoadResult result)
{
    if (auto* error = std::get_if<QString>(&result)) {
        m_lastError = *error;
        m_verdict->setText(*error);
        emit jobLoaded(false);
        return;
    }
    Loaded& loaded = std::get<Loaded>(result);
    m_manifest = std::move(loaded.manifest);
    m_heatmap->setJob(loaded.job);
    // The CLI's notes under the verdict: missing and failed ranks, clocks not corrected; a job read in part says so.
    QString verdict = QString::fromStdString(jobVerdict(*loaded.job));
    if (auto table = jobReportTable(*loaded.job, "collectives", failureLines(m_manifest))) {
        for (const std::string& note : table->notes)
            verdict += QStringLiteral("\n") + QString::fromStdString(note);
        m_collectives->setTable(std::move(*table));
    }
    m_verdict->setText(verdict);
    emit jobLoaded(true);
}

QString JobWindow::verdict() const { return m_verdict->text(); }

MainWindow* JobWindow::openCell(int row, int column)
{
    const JobReduction* job = m_heatmap->job();
    if (!job || row < 0 || column < 0 || row >= m_heatmap->rowCount() || column >= m_heatmap->columnCount())
        return nullptr;
    const JobRank& rank = job->ranks[static_cast<size_t>(row)];
    const JobCell& cell = job->cells[static_cast<size_t>(row)][static_cast<size_t>(column)];
    if (!cell.present)
        return nullptr;
    // The cell's start is on the job's clock; the rank's trace is on its host's.
    const int64_t start = cell.startNs + rank.clockOffsetNs;
    const int64_t end = start + cell.durationNs;
    auto* window = new MainWindow();
    window->setAttribute(Qt::WA_DeleteOnClose);
    connect(window, &MainWindow::openFinished, window, [window, start, end](bool ok) {
        if (ok)
            window->timeline()->showRange(start, end);
    });
    window->openFile(QDir(m_folder).filePath(QString::fromStdString(rank.trace)));
    window->show();
    return window;
}

} // namespace placescope::ui
