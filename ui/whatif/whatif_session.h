// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/trace/step_detector.h"
#include "analysis/trace/trace_data.h"
#include "ui/jobs/job_tracker.h"
#include "ui/whatif/whatif_controls.h"
#include "ui/whatif/whatif_lane_rows.h"
#include "whatif/whatif.h"

#include <QObject>
#include <QString>

#include <memory>
#include <string>
#include <vector>

class QUndoStack;

namespace placescope::ui {

// A trace as runWhatIf reads it: loaded once, shared read-only by every later run (TraceData is immutable).
struct WhatIfTrace
{
    std::string path;
    TraceData data;
    StepSet steps;
};

// One finished what-if: runWhatIf's result for `edits`, and what the panel draws and prints from it.
struct WhatIfRun
{
    std::shared_ptr<const WhatIfTrace> trace;
    WhatIfControls controls;
    std::vector<std::string> edits;
    WhatIfResult result;
    WhatIfLaneRows rows;
    std::string text; // whatIfText: what `placescope whatif` prints for the same edits
};

// Owns the what-if of the open trace: loads the trace in a background job the first time a run is needed, then
// re-runs runWhatIf in the background whenever the edit set changes (JobTracker: the result of an older
// request is dropped). Edit-set changes go through a QUndoStack.
// Malformed edits are reported by parseEdit on this thread and run nothing. UI thread only; runs it hands out are
// immutable and may be read from any thread.
class WhatIfSession : public QObject
{
    Q_OBJECT
public:
    explicit WhatIfSession(QObject* parent = nullptr);
    ~WhatIfSession() override;

    // The open trace (a Placescope .sqlite file; an imported input's temp copy). Nothing is read until the session
    // is active (the panel is shown): a trace costs memory and a load.
    void setTrace(const QString& tracePath);
    QString tracePath() const { return m_path; }
    void setActive(bool active);
    bool active() const { return m_active; }

    const WhatIfControls& controls() const { return m_controls; }
    // A new edit set: one undo step, re-runs. No entry when it equals the current one.
    void setControls(const WhatIfControls& controls);
    // Replaces the edit set without an undo entry (the undo commands call this) and re-runs.
    void applyControls(const WhatIfControls& controls);
    QUndoStack* undoStack() const { return m_undo; }

    // The newest run that finished for the current trace; null before the first one. It may be for an older edit
    // set while a newer one runs or when the newer one is malformed (lastError() says so).
    std::shared_ptr<const WhatIfRun> run() const { return m_run; }
    bool busy() const { return m_busy; }
    QString lastError() const { return m_error; }
    // Processes events until no run is in flight; false on error, timeout or no run.
    bool waitForRun(int timeoutMs);

signals:
    void controlsChanged();
    void runChanged();
    void failed(QString message);
    void busyChanged(bool busy);
    void stateChanged(); // busy(), lastError() or the trace changed

private:
    void rerun();
    void setBusy(bool busy);

    QUndoStack* m_undo = nullptr;
    QString m_path;
    bool m_active = false;
    std::shared_ptr<const WhatIfTrace> m_trace;
    WhatIfControls m_controls;
    std::shared_ptr<const WhatIfRun> m_run;
    JobTracker m_job { this };
    bool m_busy = false;
    QString m_error;
};

} // namespace placescope::ui
