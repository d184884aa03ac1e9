// SPDX-License-Identifier: MIT
#include "ui/whatif/whatif_session.h"

#include "profiler/store/trace_file.h"
#include "ui/jobs/wait_until.h"

#include <QUndoStack>

namespace placescope::ui {
namespace {

class EditSetCommand : public QUndoCommand
{
public:
    EditSetCommand(WhatIfSession* session, WhatIfControls before, WhatIfControls after)
        : m_session(session)
        , m_before(std::move(before))
        , m_after(std::move(after))
    {
        setText(QObject::tr("What-if edits: %1").arg(editSummary(m_after)));
    }
    void redo() override { m_session->applyControls(m_after); }
    void undo() override { m_session->applyControls(m_before); }

private:
    WhatIfSession* m_session;
    WhatIfControls m_before, m_after;
};

struct RunJob
{
    std::string error;
    std::shared_ptr<const WhatIfTrace> trace; // also set when only the run failed: the load is kept
    std::shared_ptr<const WhatIfRun> run;
};

Result<std::shared_ptr<const WhatIfTrace>> loadTrace(const std::string& path)
{
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, openTrace(path));
    PLACESCOPE_ASSIGN_OR_RETURN(TraceData data, TraceData::load(db));
    auto trace = std::make_shared<WhatIfTrace>();
    trace->path = path;
    trace->data = std::move(data);
    trace->steps = detectSteps(trace->data);
    return std::shared_ptr<const WhatIfTrace>(std::move(trace));
}

// The worker: the same calls as `placescope whatif` (whatif_command.cpp), so the panel shows the CLI's numbers.
RunJob runJob(const std::string& path, std::shared_ptr<const WhatIfTrace> trace, WhatIfControls controls,
    std::vector<std::string> texts, WhatIfOptions options)
{
    RunJob job;
    if (!trace) {
        auto loaded = loadTrace(path);
        if (!loaded.isOk()) {
            job.error = path + ": " + loaded.status().message();
            return job;
        }
        trace = std::move(loaded).value();
    }
    job.trace = trace;
    auto result = runWhatIf(trace->data, trace->steps, options);
    if (!result.isOk()) {
        job.error = result.status().message();
        return job;
    }
    auto run = std::make_shared<WhatIfRun>();
    run->trace = trace;
    run->controls = std::move(controls);
    run->edits = std::move(texts);
    run->result = std::move(result).value();
    run->rows = buildLaneRows(run->result, trace->data);
    run->text = whatIfText(run->result, trace->data);
    job.run = std::move(run);
    return job;
}

} // namespace

WhatIfSession::WhatIfSession(QObject* parent)
    : QObject(parent)
    , m_undo(new QUndoStack(this))
{ }

WhatIfSession::~WhatIfSession() = default;

void WhatIfSession::setBusy(bool busy)
{
    if (busy != m_busy) {
        m_busy = busy;
        emit busyChanged(busy);
    }
}

void WhatIfSession::setTrace(const QString& tracePath)
{
    // Another trace starts with no edits and an empty history (issue 26: edits made for one run carried over to the
    // next and changed its figures unasked); the same trace again keeps them, and so does the first trace: edits
    // set before any trace was open (placescope-gui --whatif EDIT) are for it.
    if (!m_path.isEmpty() && tracePath != m_path && (!(m_controls == WhatIfControls {}) || m_undo->count() > 0)) {
        m_undo->clear();
        m_controls = WhatIfControls {};
        emit controlsChanged();
    }
    m_path = tracePath;
    m_trace.reset();
    m_run.reset();
    m_error.clear();
    m_job.discard(); // a run on the previous trace is stale now
    setBusy(false);
    emit runChanged();
    emit stateChanged();
    if (m_active)
        rerun();
}

void WhatIfSession::setActive(bool active)
{
    const bool wasActive = m_active;
    m_active = active;
    if (active && !wasActive && !m_run && !m_busy)
        rerun();
}

void WhatIfSession::setControls(const WhatIfControls& controls)
{
    if (controls == m_controls)
        return;
    m_undo->push(new EditSetCommand(this, m_controls, controls));
}

void WhatIfSession::applyControls(const WhatIfControls& controls)
{
    m_controls = controls;
    emit controlsChanged();
    rerun();
}

void WhatIfSession::rerun()
{
    if (m_path.isEmpty() || !m_active)
        return;
    m_job.discard(); // any run in flight is for an older edit set: drop its result
    // Parsed here, not in the job: a malformed edit is reported at once, and the previous figures stay on screen.
    WhatIfOptions options;
    const std::vector<std::string> texts = editTexts(m_controls);
    for (const std::string& text : texts) {
        auto edit = parseEdit(text);
        if (!edit.isOk()) {
            setBusy(false);
            m_error = QString::fromStdString(edit.status().message());
            emit failed(m_error);
            emit stateChanged();
            return;
        }
        options.edits.push_back(std::move(edit).value());
    }
    m_error.clear();
    setBusy(true);
    emit stateChanged();
    // A load is worth keeping even when its run is stale, as long as it is of the open trace.
    auto keepLoad = [this](const RunJob& job) {
        if (job.trace && !m_trace && job.trace->path == m_path.toStdString())
            m_trace = job.trace;
    };
    m_job.start(
        [path = m_path.toStdString(), trace = m_trace, controls = m_controls, texts, options = std::move(options)](
            const CancelToken&) { return runJob(path, trace, controls, texts, options); },
        [this, keepLoad](RunJob job) {
            keepLoad(job);
            setBusy(false);
            if (!job.error.empty()) {
                m_error = QString::fromStdString(job.error);
                emit failed(m_error);
                emit stateChanged();
                return;
            }
            m_run = std::move(job.run);
            emit runChanged();
            emit stateChanged();
        },
        keepLoad);
}

bool WhatIfSession::waitForRun(int timeoutMs)
{
    return waitUntil([this] { return !m_busy; }, timeoutMs) && m_error.isEmpty() && m_run;
}

} // namespace placescope::ui
