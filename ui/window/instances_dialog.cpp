// SPDX-License-Identifier: MIT
#include "ui/window/instances_dialog.h"

#include "profiler/base/units.h"
#include "ui/models/table_model.h"
#include "ui/timeline/timeline_view.h"

#include <QDialog>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace placescope::ui {

QDialog* showInstancesDialog(TimelineView* timeline, const QString& name, QWidget* parent)
{
    const QString objectName = "instances:" + name;
    if (auto* open = parent->findChild<QDialog*>(objectName)) {
        open->raise();
        return open;
    }
    const std::vector<TimelineView::EventRef> instances = timeline->eventsNamed(name);
    if (instances.empty())
        return nullptr;
    const LoadedTrace& trace = *timeline->trace();
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(objectName);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("Instances of %1").arg(name));
    // Times in ns, shown through the units formatter and sorted as numbers.
    auto* model
        = new TableModel({ QObject::tr("Start"), QObject::tr("Duration"), QObject::tr("Lane"), QObject::tr("#") },
            { CellFormat::Duration, CellFormat::Duration, CellFormat::Plain, CellFormat::Plain }, dialog);
    std::vector<QVariantList> rows;
    int64_t totalNs = 0;
    for (size_t i = 0; i < instances.size(); ++i) {
        const LaneRow& row = timeline->rowOf(instances[i]);
        const int64_t ns = row.durationNs(instances[i].index);
        totalNs += ns;
        rows.push_back({ static_cast<double>(row.startNs[instances[i].index] - trace.firstNs), static_cast<double>(ns),
            QString::fromStdString(trace.lanes[static_cast<size_t>(instances[i].lane)].title),
            QVariant::fromValue<qlonglong>(static_cast<qlonglong>(i)) });
    }
    model->setRows(std::move(rows));
    auto* proxy = new QSortFilterProxyModel(dialog);
    proxy->setSourceModel(model);
    proxy->setSortRole(TableModel::kRawRole);
    auto* view = new QTableView(dialog);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(1, Qt::DescendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(new QLabel(QObject::tr("%1 instances, %2 in all")
                                     .arg(QString::fromStdString(withThousands(static_cast<int64_t>(instances.size()))),
                                         QString::fromStdString(formatNanoseconds(static_cast<double>(totalNs)))),
        dialog));
    layout->addWidget(view);
    QObject::connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, dialog,
        [timeline, proxy, instances](const QModelIndex& index) {
            if (!index.isValid() || !timeline->trace())
                return;
            const auto i = static_cast<size_t>(proxy->index(index.row(), 3).data().toLongLong());
            if (i < instances.size()) {
                timeline->selectEvent(instances[i], true);
                timeline->frameSelection();
            }
        });
    // A new trace makes the rows meaningless.
    QObject::connect(timeline, &TimelineView::selectionChanged, dialog, [dialog, timeline, opened = &trace] {
        if (timeline->trace() != opened)
            dialog->close();
    });
    dialog->resize(560, 420);
    dialog->show();
    return dialog;
}

} // namespace placescope::ui
