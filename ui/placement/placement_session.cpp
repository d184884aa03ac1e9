// SPDX-License-Identifier: MIT
#include "ui/placement/placement_session.h"

#include "placement/cost/default_gpu.h"
#include "ui/jobs/wait_until.h"
#include "ui/placement/model_source.h"

#include <QUndoStack>

#include <cmath>

namespace placescope::ui {
namespace {

class PinCommand : public QUndoCommand
{
public:
    PinCommand(PlacementSession* session, PinMap before, PinMap after, QString text)
        : m_session(session)
        , m_before(std::move(before))
        , m_after(std::move(after))
    {
        setText(text);
    }
    void redo() override { m_session->applyPins(m_after); }
    void undo() override { m_session->applyPins(m_before); }

private:
    PlacementSession* m_session;
    PinMap m_before, m_after;
};

struct LoadJob
{
    std::string error;
    std::shared_ptr<const ModelGraph> model;
    std::shared_ptr<const PlacementInputs> inputs;
    std::shared_ptr<const PlacementPlan> plan;
};

LoadJob runPlan(std::shared_ptr<const PlacementInputs> inputs, const PinMap& pins, Objective objective)
{
    LoadJob job;
    job.inputs = inputs;
    auto planned = planPlacement(*inputs, pins, objective);
    if (!planned.isOk())
        job.error = planned.status().message();
    else
        job.plan = std::make_shared<const PlacementPlan>(std::move(planned).value());
    return job;
}

} // namespace

PlacementSession::PlacementSession(QObject* parent)
    : QObject(parent)
    , m_undo(new QUndoStack(this))
{ }

PlacementSession::~PlacementSession() = default;

void PlacementSession::setBusy(bool busy)
{
    if (busy != m_busy) {
        m_busy = busy;
        emit busyChanged(busy);
    }
}

void PlacementSession::fail(const QString& message)
{
    m_error = message;
    emit failed(message);
}

template <typename Work, typename Done> void PlacementSession::startJob(Work work, Done done)
{
    setBusy(true);
    // A newer model, cost option or pin asked for meanwhile drops this job's result (and keeps the session busy).
    m_job.start([work = std::move(work)](const CancelToken&) { return work(); },
        [this, done = std::move(done)](LoadJob job) {
            setBusy(false);
            done(std::move(job));
        });
}

void PlacementSession::openModel(const QString& path, const CostOptions& options)
{
    m_options = options;
    emit costOptionsChanged();
    openModel(path);
}

void PlacementSession::openModel(const QString& path)
{
    m_modelPath = path;
    m_opening = true;
    m_recosting = false;
    m_error.clear();
    m_pins.clear();
    m_undo->clear();
    startJob(
        [file = path.toStdString(), options = m_options, objective = m_objective] {
            LoadJob job;
            auto model = readModelGraph(file);
            if (!model.isOk()) {
                job.error = model.status().message();
                return job;
            }
            // A model the cost model cannot price is still shown (graph without devices).
            auto shared = std::make_shared<const ModelGraph>(std::move(model).value());
            auto inputs = preparePlacementInputs(shared, options);
            if (!inputs.isOk()) {
                job.model = shared;
                job.error = inputs.status().message();
                return job;
            }
            job = runPlan(std::make_shared<const PlacementInputs>(std::move(inputs).value()), {}, objective);
            job.model = shared;
            return job;
        },
        [this](LoadJob job) {
            m_opening = false;
            m_model = job.model;
            m_inputs = job.inputs;
            m_plan = job.plan;
            emit modelChanged();
            if (!job.error.empty()) {
                fail(QString::fromStdString(job.error));
                return;
            }
            emit planChanged();
        });
}

namespace {

// Pins the new costs still allow: same op count and a kernel on the pinned device.
PinMap possiblePins(const PinMap& pins, const OpGraph& graph)
{
    PinMap kept;
    for (const auto& [op, device] : pins)
        if (op >= 0 && static_cast<size_t>(op) < graph.ops.size() && device >= 0
            && static_cast<size_t>(device) < graph.ops[static_cast<size_t>(op)].costUs.size()
            && std::isfinite(graph.ops[static_cast<size_t>(op)].costUs[static_cast<size_t>(device)]))
            kept.emplace(op, device);
    return kept;
}

} // namespace

void PlacementSession::setCostOptions(const CostOptions& options)
{
    m_options = options;
    emit costOptionsChanged();
    recost();
}

void PlacementSession::setTrace(const QString& tracePath, const QString& gpuName)
{
    m_traceGpuName = gpuName;
    CostOptions options = m_options;
    options.tracePath = tracePath.toStdString();
    // The trace's GPU when it records one the cost model can price, as `placescope place --trace` defaults to.
    if (!gpuName.isEmpty())
        options.gpu = defaultGpuKey(options.tracePath);
    else if (options.gpu == "from-trace")
        options.gpu = kDefaultGpuKey;
    setCostOptions(options);
}

void PlacementSession::setObjective(Objective objective)
{
    if (objective == m_objective)
        return;
    m_objective = objective;
    emit objectiveChanged();
    if (m_opening)
        openModel(m_modelPath); // the running open plans with the old objective: start it again with this one
    else if (m_inputs)
        replan();
    else if (!m_modelPath.isEmpty())
        recost();
}

QStringList PlacementSession::assumptions() const
{
    QStringList lines;
    if (m_inputs)
        for (const std::string& line : m_inputs->placement->assumptions)
            lines << QString::fromStdString(line);
    return lines;
}

void PlacementSession::recost()
{
    if (!m_model) {
        // Not read yet (or unreadable): read it again with the new options; the running open is dropped.
        if (!m_modelPath.isEmpty())
            openModel(m_modelPath);
        return;
    }
    m_recosting = true;
    m_error.clear();
    m_undo->clear();
    startJob(
        [model = m_model, options = m_options, pins = m_pins, objective = m_objective] {
            auto inputs = preparePlacementInputs(model, options);
            if (!inputs.isOk()) {
                LoadJob job;
                job.model = model;
                job.error = inputs.status().message();
                return job;
            }
            auto shared = std::make_shared<const PlacementInputs>(std::move(inputs).value());
            LoadJob job = runPlan(shared, possiblePins(pins, shared->placement->graph), objective);
            job.model = model;
            return job;
        },
        [this](LoadJob job) {
            m_recosting = false;
            m_inputs = job.inputs;
            m_plan = job.plan;
            if (job.plan)
                m_pins = job.plan->pins;
            emit modelChanged();
            if (!job.error.empty()) {
                fail(QString::fromStdString(job.error));
                return;
            }
            emit planChanged();
        });
}

void PlacementSession::replan()
{
    if (m_recosting) {
        recost(); // new costs are on their way: plan the pins with them, not with the old ones
        return;
    }
    if (!m_inputs)
        return;
    m_error.clear();
    // The pins changed: only the newest plan is shown.
    startJob([inputs = m_inputs, pins = m_pins, objective = m_objective] { return runPlan(inputs, pins, objective); },
        [this](LoadJob job) {
            if (!job.error.empty()) {
                fail(QString::fromStdString(job.error));
                return;
            }
            m_plan = job.plan;
            emit planChanged();
        });
}

bool PlacementSession::waitForPlan(int timeoutMs)
{
    return waitUntil([this] { return !m_busy; }, timeoutMs) && m_error.isEmpty() && m_plan;
}

int PlacementSession::deviceOf(int graphOp) const
{
    if (!m_plan || graphOp < 0 || static_cast<size_t>(graphOp) >= m_plan->proposal.assignment.size())
        return -1;
    return m_plan->proposal.assignment[static_cast<size_t>(graphOp)];
}

int PlacementSession::graphOpOfModelOp(int modelOp) const
{
    if (!m_inputs || modelOp < 0 || static_cast<size_t>(modelOp) >= m_inputs->placement->graphOpOfModelOp.size())
        return -1;
    return m_inputs->placement->graphOpOfModelOp[static_cast<size_t>(modelOp)];
}

int PlacementSession::deviceOfModelOp(int modelOp) const { return deviceOf(graphOpOfModelOp(modelOp)); }

void PlacementSession::pinOp(int graphOp, int device)
{
    if (!m_inputs || graphOp < 0 || static_cast<size_t>(graphOp) >= m_inputs->placement->graph.ops.size())
        return;
    PinMap after = m_pins;
    if (device < 0)
        after.erase(graphOp);
    else
        after[graphOp] = device;
    if (after == m_pins)
        return;
    const auto& op = m_inputs->placement->graph.ops[static_cast<size_t>(graphOp)];
    const QString name = QString::fromStdString(op.id);
    const QString text
        = device < 0 ? tr("Unpin %1").arg(name) : tr("Pin %1 to %2").arg(name, device == 0 ? tr("CPU") : tr("GPU"));
    m_undo->push(new PinCommand(this, m_pins, after, text));
}

int PlacementSession::pinOps(const std::vector<int>& graphOps, int device)
{
    if (graphOps.empty() || !m_inputs)
        return 0;
    const int count = static_cast<int>(graphOps.size());
    m_undo->beginMacro(device < 0 ? tr("Unpin %n op(s)", nullptr, count) : tr("Pin %n op(s)", nullptr, count));
    for (int op : graphOps)
        pinOp(op, device);
    m_undo->endMacro();
    return count;
}

void PlacementSession::applyPins(const PinMap& pins)
{
    m_pins = pins;
    replan();
}

void PlacementSession::setMeasuredStepUs(double us, const QString& source)
{
    m_measuredUs = us;
    m_measuredSource = source;
    emit measuredChanged();
}

} // namespace placescope::ui
