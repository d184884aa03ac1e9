// SPDX-License-Identifier: MIT
#pragma once

#include "ui/jobs/job_tracker.h"
#include "ui/placement/placement_plan.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class QUndoStack;

namespace placescope::ui {

// Owns the open model's placement: loads and costs it in a background job, keeps the user's pins and re-plans
// in the background whenever they change (JobTracker: a result from an older request is dropped). Pins go through a
// QUndoStack. UI thread only; the snapshots it hands out are immutable and may be read from any thread.
class PlacementSession : public QObject
{
    Q_OBJECT
public:
    explicit PlacementSession(QObject* parent = nullptr);
    ~PlacementSession() override;

    // Opens a model and costs it with the current cost options (costOptions()); the second form replaces them first.
    void openModel(const QString& path);
    void openModel(const QString& path, const CostOptions& options);
    // What the model is costed with: GPU spec, framework, trace. Changing them re-costs the open model in the
    // background (a newer request drops an older one's result); pins that are still possible are kept, the
    // undo history is cleared (its steps refer to the old costs).
    const CostOptions& costOptions() const { return m_options; }
    void setCostOptions(const CostOptions& options);
    // The open trace (a Placescope trace; an imported input's temp copy), costing gets its PCIe link fit and
    // measured op costs from it. gpuName: the trace's TARGET_INFO_GPU name, empty when it records none; when
    // set, the GPU spec switches to "from-trace", else a "from-trace" choice falls back to the default GPU.
    void setTrace(const QString& tracePath, const QString& gpuName);
    // What the proposal minimises and every figure is valued by (the CLI's --objective; sum by default, as
    // there). Changing it re-plans in the background with the same costs and pins.
    Objective objective() const { return m_objective; }
    void setObjective(Objective objective);
    QString traceGpuName() const { return m_traceGpuName; }
    // The cost model's assumptions for the open model (GPU spec, link model, estimates); empty until costed.
    QStringList assumptions() const;
    // Blocks with a local event loop until no load or plan is running; false on error or timeout.
    bool waitForPlan(int timeoutMs);
    bool busy() const { return m_busy; }
    QString lastError() const { return m_error; }

    // The open model (also when it could not be costed), and its placement problem (null until costed).
    std::shared_ptr<const ModelGraph> model() const { return m_model; }
    std::shared_ptr<const PlacementInputs> inputs() const { return m_inputs; }
    std::shared_ptr<const PlacementPlan> plan() const { return m_plan; }
    const PinMap& pins() const { return m_pins; }
    // Device of a graph op in the current proposal, -1 when there is none yet.
    int deviceOf(int graphOp) const;
    // Device of a model op (via its graph op), -1 for folded weight producers or without a plan.
    int deviceOfModelOp(int modelOp) const;
    int graphOpOfModelOp(int modelOp) const;

    // Pins a graph op to a device (0 CPU, 1 GPU) or unpins it (device < 0); undoable, re-plans.
    void pinOp(int graphOp, int device);
    // The same for several ops in one undo step; returns how many it was given.
    int pinOps(const std::vector<int>& graphOps, int device);
    QUndoStack* undoStack() const { return m_undo; }
    // Replaces the pins without an undo entry (the undo commands call this) and re-plans.
    void applyPins(const PinMap& pins);

    // Measured step time of the open trace (us), shown next to the predictions; < 0 when none.
    void setMeasuredStepUs(double us, const QString& source);
    double measuredStepUs() const { return m_measuredUs; }
    QString measuredSource() const { return m_measuredSource; }

signals:
    void modelChanged(); // model() / inputs() replaced (a new model; inputs() null when it could not be costed)
    void planChanged(); // plan() replaced
    void measuredChanged();
    void failed(QString message);
    void costOptionsChanged(); // costOptions() or traceGpuName() changed
    void objectiveChanged();
    void busyChanged(bool busy);

private:
    void replan();
    void recost();
    // Runs `work` through the job tracker (a newer job drops this one's result); busy from start to result.
    template <typename Work, typename Done> void startJob(Work work, Done done);
    void setBusy(bool busy);
    void fail(const QString& message);

    QUndoStack* m_undo = nullptr;
    QString m_modelPath;
    CostOptions m_options;
    QString m_traceGpuName;
    std::shared_ptr<const ModelGraph> m_model;
    std::shared_ptr<const PlacementInputs> m_inputs;
    std::shared_ptr<const PlacementPlan> m_plan;
    PinMap m_pins;
    Objective m_objective = PlanOptions {}.objective; // the CLI's default
    JobTracker m_job { this };
    bool m_busy = false;
    bool m_opening = false; // an open is running: its result replaces the model
    bool m_recosting = false; // a re-cost is running: pins changed meanwhile go with it
    QString m_error;
    double m_measuredUs = -1;
    QString m_measuredSource;
};

} // namespace placescope::ui
