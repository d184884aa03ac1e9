// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QVariant>

#include <vector>

namespace placescope::ui {

// A read-only table of QVariant cells (numbers stay numbers so QSortFilterProxyModel sorts them right).
// Used for the kernel, copy, problem and findings tables. UI thread only.
class TableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit TableModel(QStringList headers, QObject* parent = nullptr);

    void setRows(std::vector<QVariantList> rows);
    const QVariantList& rowAt(int row) const { return m_rows[static_cast<size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QStringList m_headers;
    std::vector<QVariantList> m_rows;
};

} // namespace placescope::ui
