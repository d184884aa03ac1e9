// SPDX-License-Identifier: MIT
// Merging the parts of a capture (one trace file per traced process) into the one trace the user gets.
// Each part is attached to the output's connection and copied table by table with INSERT ... SELECT, its
// StringIds ids remapped to the output's (names are interned once). Process rows keep each part's pid and
// rank, GPUs are kept once per device, problem counts are summed. A part that is not a readable trace
// (a process killed while creating it) is skipped and counted as a problem, never fatal.
//
// Free function; uses only its own connections.
#pragma once

#include "profiler/base/status.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace placescope::capture {

struct MergeInput
{
    std::string path;
    // Only these tables are taken from this input (empty: every table). Used for --torch-memory, which takes
    // PS_MEMORY_EVENTS from a Kineto trace the program wrote.
    std::vector<std::string> onlyTables;
    // Added to every time column (start, end, fromTs, toTs): a Kineto trace's times are relative to its
    // baseTimeNanoseconds, the capture's are CLOCK_REALTIME ns.
    int64_t timeShiftNs = 0;
};

struct MergeSummary
{
    int partsMerged = 0;
    std::vector<std::string> partsSkipped; // "part-123.sqlite.partial: why"
    std::map<std::string, int64_t> rowsByTable; // rows copied into the output, per table
    int64_t droppedRecords = 0; // summed capture.dropped_records
    int64_t processes = 0;
};

// Writes `outputPath` (all-or-nothing, like every TraceWriter output) from the inputs. Fails only when the
// output cannot be written or no input could be read.
Result<MergeSummary> mergeParts(const std::vector<MergeInput>& inputs, const std::string& outputPath);

} // namespace placescope::capture
