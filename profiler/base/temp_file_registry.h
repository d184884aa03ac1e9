// SPDX-License-Identifier: MIT
// Temporary files a command is writing (OutputFile's `<out>.<pid>-<n>.partial`) and folders of them (capture's
// parts), remembered so that a command stopped by SIGINT, SIGTERM, SIGHUP or SIGPIPE removes them, files with their
// SQLite sidecars, before it dies: a stopped import, export or capture leaves nothing behind. The handler only calls
// async-signal-safe functions (open, getdents64, unlink, unlinkat, rmdir, signal, raise) on paths copied into fixed
// slots at registration.
#pragma once

#include <string>

namespace placescope {

// Remembers `path` for removal on a stopping signal (up to 64 at once; beyond that a path is simply not covered).
void registerTempFile(const std::string& path);
// Forgets `path` (committed, removed, or handed to another process).
void unregisterTempFile(const std::string& path);
// Remembers a folder of temporary files (capture's parts folder): on a stopping signal the files in it are removed,
// then the folder. Flat folders only: a folder inside it stays, and so does the folder then.
void registerTempFolder(const std::string& path);
void unregisterTempFolder(const std::string& path);
// Installs the handlers: remove every registered file, then die of the same signal (the exit status says so).
// Called once by the CLI's main; libraries never install handlers in a process they do not own.
void removeTempFilesOnSignals();

} // namespace placescope
