// SPDX-License-Identifier: MIT
// What `placescope capture` prints: one-line messages, the live status line (redrawn in place, only on a
// terminal), and the closing summary. Also the --torch-memory import, which reports through the same log.
//
// Not thread-safe; owned by runCapture.
#pragma once

#include "profiler/capture/part_files.h"
#include "profiler/capture/part_merger.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace placescope::capture {

class CaptureLog
{
public:
    // quiet (--quiet): no status line, summary or warning; failures (line()) still print.
    CaptureLog(FILE* out, bool liveLine, bool quiet = false);
    // "placescope capture: <text>" on a line of its own: why the capture failed.
    void line(const std::string& text);
    // The same for what is no failure (the summary, warnings), silenced by quiet.
    void note(const std::string& text);
    // Events recorded, buffers in flight and records dropped, summed over the traced processes.
    void live(const std::vector<PartStatus>& statuses);
    void clearLive();
    void summary(const std::string& outputPath, const MergeSummary& merged, const std::vector<PartStatus>& statuses);

    static std::string liveText(const std::vector<PartStatus>& statuses);
    static std::string withCommas(int64_t value);

private:
    FILE* m_out;
    bool m_live;
    bool m_quiet;
    size_t m_liveWidth = 0;
};

// Imports the '[memory]' events of the Kineto trace the program wrote (torch.profiler with profile_memory=True)
// into a trace in `partsDir`, for the merge to take PS_MEMORY_EVENTS from, shifted by the trace's
// baseTimeNanoseconds onto the capture's CLOCK_REALTIME timeline. Returns nothing (after saying why) when the
// file is missing or unreadable.
std::optional<MergeInput> importTorchMemory(
    const std::string& kinetoTrace, const std::string& partsDir, CaptureLog& log);

} // namespace placescope::capture
