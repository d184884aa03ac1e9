// SPDX-License-Identifier: MIT
#pragma once

#include "ui/whatif/whatif_controls.h"

#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableWidget;
class QTabWidget;

namespace placescope::ui {

class StepTimeChart;
class WhatIfLanesView;
class WhatIfSession;

// The What-if panel on an open trace: the edits to try (the CLI's --edit vocabulary as checkboxes, regex fields
// and factors), bars for the measured, replayed and predicted step with the saving, the edits' outcomes and the
// critical path before and after, the predicted lanes beside the measured ones, and the CLI's report text. Every
// change of a control becomes one undoable edit set in the WhatIfSession, which re-runs in the background.
// Regex fields apply when editing finishes (Enter or leaving the field), so typing does not start a run per key.
// UI thread only.
class WhatIfPanel : public QWidget
{
    Q_OBJECT
public:
    explicit WhatIfPanel(WhatIfSession* session, QWidget* parent = nullptr);

    WhatIfSession* session() const { return m_session; }
    StepTimeChart* chart() const { return m_chart; }
    QLabel* figuresLabel() const { return m_figures; }
    QLabel* errorLabel() const { return m_error; }
    WhatIfLanesView* lanesView() const { return m_lanes; }
    QTableWidget* outcomeTable() const { return m_outcomes; }
    QTableWidget* pathTable() const { return m_path; }
    QPlainTextEdit* reportText() const { return m_report; }
    QTabWidget* tabs() const { return m_tabs; }
    QCheckBox* noSyncBox() const { return m_noSync; }
    QLineEdit* noSyncRegexEdit() const { return m_noSyncRegex; }
    QLineEdit* kernelsRegexEdit() const { return m_kernelsRegex; }
    QDoubleSpinBox* kernelsFactorBox() const { return m_kernelsFactor; }
    QLineEdit* dropRegexEdit() const { return m_dropRegex; }
    QCheckBox* pinnedBox() const { return m_pinned; }
    QDoubleSpinBox* launchFactorBox() const { return m_launchFactor; }
    QDoubleSpinBox* inputFactorBox() const { return m_inputFactor; }
    QSpinBox* loaderWorkersBox() const { return m_loaderWorkers; }
    QCheckBox* overlapCommBox() const { return m_overlapComm; }
    QLineEdit* extraEdit() const { return m_extra; }
    // The edit set the controls show now.
    WhatIfControls controlsShown() const;

protected:
    void showEvent(QShowEvent* event) override;
    // Ctrl+Z in a field with nothing typed since the last run goes to the edit set, not the field's text.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* buildControls();
    void controlsEdited();
    void showControls();
    void showRun();
    void showState();

    WhatIfSession* m_session;
    QCheckBox* m_noSync;
    QLineEdit* m_noSyncRegex;
    QLineEdit* m_kernelsRegex;
    QDoubleSpinBox* m_kernelsFactor;
    QLineEdit* m_dropRegex;
    QCheckBox* m_pinned;
    QDoubleSpinBox* m_launchFactor;
    QDoubleSpinBox* m_inputFactor;
    QSpinBox* m_loaderWorkers;
    QCheckBox* m_overlapComm;
    QLineEdit* m_extra;
    QLabel* m_error;
    QLabel* m_state;
    StepTimeChart* m_chart;
    QLabel* m_figures;
    QTabWidget* m_tabs;
    WhatIfLanesView* m_lanes;
    QTableWidget* m_outcomes;
    QTableWidget* m_path;
    QPlainTextEdit* m_report;
    bool m_syncing = false; // controls are being set from the session: not a user edit
};

} // namespace placescope::ui
