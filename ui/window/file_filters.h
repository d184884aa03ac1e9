// SPDX-License-Identifier: MIT
// The open dialogs' file filters, one list of what the app reads: traces (Placescope and Nsight Systems SQLite,
// PyTorch profiler JSON, ONNX Runtime profiles, TensorFlow/JAX XPlane and TensorBoard's
// trace JSON of it) and, for the Open dialog, ONNX models. The
// name is only the dialog's hint: every file opens as what its content says.
#pragma once

#include <QString>

namespace placescope::ui {

QString traceFileFilter(); // traces only (Compare with...)
QString traceOrModelFileFilter(); // traces and models (Open...)

} // namespace placescope::ui
