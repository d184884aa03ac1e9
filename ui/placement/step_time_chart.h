// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QWidget>

#include <vector>

namespace placescope::ui {

// Horizontal bars comparing predicted and measured step times (one bar per entry, scaled to the longest).
// Entries with a negative time are listed as "n/a". UI thread only.
class StepTimeChart : public QWidget
{
    Q_OBJECT
public:
    struct Entry
    {
        QString label;
        double us = -1;
        QColor color;
        bool emphasised = false;
    };
    explicit StepTimeChart(QWidget* parent = nullptr);
    void setEntries(std::vector<Entry> entries);
    const std::vector<Entry>& entries() const { return m_entries; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<Entry> m_entries;
};

} // namespace placescope::ui
