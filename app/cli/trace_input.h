// SPDX-License-Identifier: MIT
// TraceInput: the trace file a reading command (analyze, stats, report, whatif, critical-path, diff, export, query,
// place --trace) opens. A Placescope trace is read where it is. Anything `placescope import` takes (kTraceFormats) is
// imported first into a temporary trace in its own folder under $TMPDIR, which is removed when the TraceInput goes
// (and on Ctrl-C, through the temp-file registry): nothing is left beside the input or in the temporary folder. Any
// other file gets the trace opener's one-line error.
#pragma once

#include "profiler/base/status.h"

#include <string>

namespace placescope::cli {

// The formats every reading command takes, as their help names them.
inline constexpr const char* kTraceFormats
    = "PyTorch profiler JSON (.json, .json.gz, with or without Kineto), Nsight Systems SQLite export, XPlane "
      "(.xplane.pb: TensorFlow, JAX), TensorBoard trace (.trace.json.gz) or ONNX Runtime profile";
// The help of a reading command's trace argument.
inline std::string traceArgumentHelp()
{
    return std::string("Trace: a Placescope trace, or a ") + kTraceFormats + " (imported to a temporary trace)";
}

class TraceInput
{
public:
    // `command` names the command in the one line said on stderr while a file is imported ("placescope stats:
    // importing run.json.gz (Kineto JSON) to a temporary trace"); `quiet` leaves that line out.
    static Result<TraceInput> open(const std::string& input, const std::string& command, bool quiet = false);
    TraceInput(TraceInput&& other) noexcept;
    TraceInput& operator=(TraceInput&&) = delete;
    TraceInput(const TraceInput&) = delete;
    ~TraceInput();

    // The Placescope trace to open: the input itself, or the temporary import of it.
    const std::string& path() const { return m_path; }
    bool imported() const { return !m_folder.empty(); }

private:
    TraceInput() = default;
    std::string m_path;
    std::string m_folder; // the temporary folder holding the import; empty when the input is read in place
};

} // namespace placescope::cli
