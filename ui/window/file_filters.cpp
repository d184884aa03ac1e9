// SPDX-License-Identifier: MIT
#include "ui/window/file_filters.h"

#include <QObject>

namespace placescope::ui {
namespace {

// *.pb covers TensorFlow's and jax.profiler's <host>.xplane.pb; *.json ONNX Runtime's onnxruntime_profile_*.json;
// *.trace.json.gz TensorBoard's trace-viewer JSON of an XPlane capture (also under *.json.gz).
QString traceKinds()
{
    return QObject::tr("PyTorch profiler and ONNX Runtime profiles (*.json *.json.gz);;"
                       "TensorFlow/JAX XPlane and TensorBoard traces (*.xplane.pb *.pb *.trace.json.gz);;"
                       "Placescope traces and Nsight Systems exports (*.sqlite)");
}

} // namespace

QString traceFileFilter()
{
    return QObject::tr("Traces (*.sqlite *.json *.json.gz *.pb);;") + traceKinds() + QObject::tr(";;All files (*)");
}

QString traceOrModelFileFilter()
{
    return QObject::tr("Traces and models (*.sqlite *.json *.json.gz *.pb *.onnx);;") + traceKinds()
        + QObject::tr(";;ONNX models (*.onnx);;All files (*)");
}

} // namespace placescope::ui
