// SPDX-License-Identifier: MIT
// TimelineView: the navigation keys as Perfetto has them. Each key is a QAction with window scope on the timeline,
// so it works whenever the window is active (no click into the timeline first), while a line edit that has focus
// keeps its letters (it accepts the shortcut override for text keys). The same actions fill the Help menu and '?'.
#include "ui/timeline/timeline_view.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QScrollBar>
#include <QSettings>
#include <QVBoxLayout>

namespace placescope::ui {

void TimelineView::createActions()
{
    auto add = [this](const QString& text, QList<QKeySequence> keys, auto slot) {
        auto* action = new QAction(text, this);
        action->setShortcuts(keys);
        action->setShortcutContext(Qt::WindowShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        m_actions << action;
        return action;
    };
    add(tr("Zoom in (at the mouse)"), { Qt::Key_W }, [this] { zoomAtMouse(1.3); });
    add(tr("Zoom out (at the mouse)"), { Qt::Key_S }, [this] { zoomAtMouse(1 / 1.3); });
    add(tr("Pan left"), { Qt::Key_A }, [this] {
        m_axis.panPixels(-plotWidth() / 8);
        clampView();
        update();
    });
    add(tr("Pan right"), { Qt::Key_D }, [this] {
        m_axis.panPixels(plotWidth() / 8);
        clampView();
        update();
    });
    add(tr("Zoom to fit"), { Qt::Key_0 }, [this] { zoomToFit(); });
    add(tr("Frame the selection"), { Qt::Key_F }, [this] { frameSelection(); });
    add(tr("Mark the selection's span as the range"), { Qt::Key_M }, [this] { markSelection(); });
    add(tr("Clear the selection"), { Qt::Key_Escape }, [this] { clearSelection(); });
    // One sequence only: X11 and Wayland map Shift+/ to both '?' and Shift+/, so an action holding both matched twice
    // and Qt dropped the key as an "ambiguous shortcut overload" (issue 26).
    add(tr("Keyboard and mouse shortcuts"), { QKeySequence(Qt::Key_Question) }, [this] { showShortcuts(); });
    QAction* wheel = add(tr("Wheel zooms (Ctrl+wheel otherwise)"), {}, [this](bool on) {
        m_wheelZooms = on;
        QSettings().setValue("timeline/wheelZooms", on);
    });
    wheel->setCheckable(true);
    m_wheelZooms = QSettings().value("timeline/wheelZooms", false).toBool();
    wheel->setChecked(m_wheelZooms);
}

void TimelineView::zoomAtMouse(double factor)
{
    m_axis.zoomAround(m_mouseX.value_or(plotWidth() / 2), factor);
    clampView();
    update();
}

void TimelineView::frameSelection()
{
    if (m_selected) {
        const LaneRow& row = rowOf(*m_selected);
        const int64_t start = row.startNs[m_selected->index], end = row.endNs[m_selected->index];
        const int64_t margin = std::max<int64_t>((end - start) / 4, 100);
        m_axis.fit(start - margin, end + margin, plotWidth());
    } else if (m_hasRange) {
        const int64_t margin = std::max<int64_t>((m_rangeEndNs - m_rangeStartNs) / 20, 100);
        m_axis.fit(m_rangeStartNs - margin, m_rangeEndNs + margin, plotWidth());
    }
    update();
}

void TimelineView::clearSelection()
{
    m_selected.reset();
    m_counterMark.reset();
    m_flows.clear();
    m_linked.clear();
    m_highlightName.reset();
    m_hasRange = false;
    emit selectionChanged();
    update();
}

void TimelineView::markSelection()
{
    if (!m_selected)
        return;
    const LaneRow& row = rowOf(*m_selected);
    m_rangeStartNs = row.startNs[m_selected->index];
    m_rangeEndNs = row.endNs[m_selected->index];
    m_hasRange = true;
    m_rangeWhat.clear();
    emit rangeSelected(rangeSummary());
    update();
}

void TimelineView::showShortcuts()
{
    if (auto* open = findChild<QDialog*>("timelineShortcuts")) {
        open->raise();
        return;
    }
    QString text = "<table cellspacing=4>";
    for (const QAction* action : m_actions)
        if (!action->shortcut().isEmpty())
            text += "<tr><td><b>" + action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped()
                + "</b></td><td>" + action->text().toHtmlEscaped() + "</td></tr>";
    const QString mouse[][2] = {
        { tr("Ctrl+wheel"), tr("zoom at the mouse (the wheel alone with \"Wheel zooms\")") },
        { tr("Wheel"), tr("scroll the lanes") },
        { tr("Shift+wheel, drag"), tr("pan") },
        { tr("Shift+drag"), tr("select a range: a table per name in the Details panel") },
        { tr("Click"), tr("select an event: its details, launch and kernels in the Details panel") },
    };
    for (const auto& [keys, what] : mouse)
        text += "<tr><td><b>" + keys.toHtmlEscaped() + "</b></td><td>" + what.toHtmlEscaped() + "</td></tr>";
    text += "</table>";
    auto* dialog = new QDialog(this);
    dialog->setObjectName("timelineShortcuts");
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Timeline shortcuts"));
    auto* layout = new QVBoxLayout(dialog);
    auto* label = new QLabel(text, dialog);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(label);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->show(); // not modal: the keys can be tried with the list open
}

} // namespace placescope::ui
