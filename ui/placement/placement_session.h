// SPDX-License-Identifier: MIT
#pragma once

#include "ui/placement/placement_plan.h"

#include <QObject>
#include <QString>

#include <memory>

class QUndoStack;

namespace placescope::ui {

// Owns the open model's placement: loads and costs it in a background job, keeps the user's pins and re-plans
// in the background whenever they change (QtConcurrent + a generation counter: a result from an older request
// is dropped, as MainWindow's open job does). Pins go through a QUndoStack. UI thread only; the snapshots it
// hands out are immutable and may be read from any thread.
class PlacementSession : public QObject
{
    Q_OBJECT
public:
    explicit PlacementSession(QObject* parent = nullptr);
    ~PlacementSession() override;

    void openModel(const QString& path, const CostOptions& options = {});
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
    QUndoStack* undoStack() const { return m_undo; }
    // Replaces the pins without an undo entry (the undo commands call this) and re-plans.
    void applyPins(const PinMap& pins);

    // Measured step time of the open trace (us), shown next to the predictions; < 0 when none.
    void setMeasuredStepUs(double us, const QString& source);
    double measuredStepUs() const { return m_measuredUs; }
    QString measuredSource() const { return m_measuredSource; }

signals:
    void modelChanged();   // model() / inputs() replaced (a new model; inputs() null when it could not be costed)
    void planChanged();    // plan() replaced
    void measuredChanged();
    void failed(QString message);
    void busyChanged(bool busy);

private:
    void replan();
    void setBusy(bool busy);
    void fail(const QString& message);

    QUndoStack* m_undo = nullptr;
    std::shared_ptr<const ModelGraph> m_model;
    std::shared_ptr<const PlacementInputs> m_inputs;
    std::shared_ptr<const PlacementPlan> m_plan;
    PinMap m_pins;
    uint64_t m_generation = 0;
    int m_running = 0;
    bool m_busy = false;
    QString m_error;
    double m_measuredUs = -1;
    QString m_measuredSource;
};

} // namespace placescope::ui
