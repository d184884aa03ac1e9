// SPDX-License-Identifier: MIT
// placescope-gui started where it can open no display (no DISPLAY or WAYLAND_DISPLAY, an X server it cannot
// reach, a QT_QPA_PLATFORM that does not load): Qt logs its plugin warnings and aborts (exit 134). Instead the
// program says so in one line and exits 1. Qt's messages while the QApplication is made are held back: if the
// platform loads they are passed on as Qt would print them; if it does not, the first one (Qt's reason, e.g.
// "could not connect to display :0") goes into the line.
#pragma once

namespace placescope::gui {

// Installed before the QApplication is constructed.
void holdQtStartupMessages();
// Called once it exists: the held messages are printed and Qt's own handler is back.
void releaseQtStartupMessages();

} // namespace placescope::gui
