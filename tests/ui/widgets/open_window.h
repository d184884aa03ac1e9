// SPDX-License-Identifier: MIT
// The app's window as a test opens it: shown at a given size, a file opened, and waited for on the open itself
// (not a timer). False when the open failed or never finished; the window's lastError() says why.
#pragma once

#include "ui/window/main_window.h"

#include <QSize>
#include <QString>

namespace placescope::ui::testing {

inline bool showAndOpen(MainWindow& window, const QString& path, QSize size = { 1400, 900 })
{
    window.resize(size);
    window.show();
    window.openFile(path);
    return window.waitForOpen(240000);
}

} // namespace placescope::ui::testing
