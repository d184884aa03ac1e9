// SPDX-License-Identifier: MIT
// Temporary files a command is writing (OutputFile's `<out>.<pid>-<n>.partial`), remembered so that a command
// stopped by SIGINT, SIGTERM, SIGHUP or SIGPIPE removes them, with their SQLite sidecars, before it dies: a
// stopped import or export leaves nothing behind. The handler only calls async-signal-safe functions (unlink,
// signal, raise) on paths copied into fixed slots at registration.
#pragma once

#include <string>

namespace placescope {

// Remembers `path` for removal on a stopping signal (up to 64 at once; beyond that a path is simply not covered).
void registerTempFile(const std::string& path);
// Forgets `path` (committed, removed, or handed to another process).
void unregisterTempFile(const std::string& path);
// Installs the handlers: remove every registered file, then die of the same signal (the exit status says so).
// Called once by the CLI's main; libraries never install handlers in a process they do not own.
void removeTempFilesOnSignals();

} // namespace placescope
