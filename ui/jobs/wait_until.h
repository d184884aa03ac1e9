// SPDX-License-Identifier: MIT
// Blocking waits for the screenshot mode and the Qt tests: process this thread's events until a condition
// holds. The one way to wait for a background job's result (or a window's state) without an event loop of one's
// own.
#pragma once

#include <functional>

namespace placescope::ui {

// True once `condition()` holds; false when `timeoutMs` passed first. Sleeps between events, so a job's result
// (a queued event) wakes it at once.
bool waitUntil(const std::function<bool()>& condition, int timeoutMs);

} // namespace placescope::ui
