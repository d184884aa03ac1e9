// SPDX-License-Identifier: MIT
// Importers: read a trace file another tool wrote and add its events to a TraceWriter.
// One folder per format (bytes -> events -> shared trackers -> store). A bad record is counted with
// TraceWriter::countProblem and the import goes on; a file that is not a trace of the format is an error
// Status with a one-line message, and the caller (importTraces) then leaves no output file behind.
#pragma once

#include "profiler/base/progress.h"
#include "profiler/base/status.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace placescope {

class TraceWriter;

enum class TraceFormat
{
    Unknown,
    KinetoJson,
    NsysSqlite,
    XPlane, // TensorFlow / JAX XSpace protobuf (*.xplane.pb)
    OrtProfile, // ONNX Runtime profile (onnxruntime_profile_*.json)
    TensorBoardTrace // TensorBoard's trace-viewer JSON of an XPlane capture (*.trace.json.gz)
};

struct ImportOptions
{
    // Rank to record for the input's process(es) when the file does not say (distributedInfo.rank).
    std::optional<int64_t> rank;
    ProgressFn progress; // bytes read of the current input, its total bytes
    const CancelToken* cancel = nullptr;
    // Set by importTraces: position of this input among all inputs, and their number. Importers use the index
    // to keep process ids of different inputs apart (the same OS pid on two hosts) and as the rank fallback.
    int inputIndex = 0;
    int inputCount = 1;
    // Set by importTraces: the input as the user named it ("stdin" for -), for PS_META's source_file, when the
    // importer reads a spooled copy of it (spooled_input.h).
    std::string sourceName;
    // Set by importTraces: where an importer adds the uncompressed bytes it read (the import summary's JSON rate).
    uint64_t* contentBytes = nullptr;
};

// Identifies a file's format from its first bytes (gzip magic, '{', SQLite header, an XSpace protobuf's first
// fields), for SQLite from its tables, and for JSON (plain or gzip) from its first events (an ONNX Runtime profile's
// is a Session or Node event; TensorBoard's trace JSON names a process /host:CPU or /device:GPU:N first).
Result<TraceFormat> sniffTraceFormat(const std::string& path);

// One line when a file's first bytes (at least 16, or all it has) begin no format sniffTraceFormat knows; `name`
// is how the message names the input. Refuses a stream before it is copied (spooled_input.h).
Status checkTraceHead(std::string_view head, const std::string& name);

// Format entry points, one per importer folder.
Status importKinetoJson(const std::string& path, TraceWriter& writer, const ImportOptions& options);
Status importNsysSqlite(const std::string& path, TraceWriter& writer, const ImportOptions& options);
Status importXPlane(const std::string& path, TraceWriter& writer, const ImportOptions& options);
Status importOrtProfile(const std::string& path, TraceWriter& writer, const ImportOptions& options);
Status importTensorBoardTrace(const std::string& path, TraceWriter& writer, const ImportOptions& options);

// True when `head` (a file's first bytes) begins as an XSpace protobuf does: field 1 (planes) or 4 (hostnames),
// length-delimited, and for a plane, its own first field one of XPlane's. A cheap test; the parse decides.
bool looksLikeXSpace(std::string_view head);

// Imports one or more inputs (e.g. the ranks of one job) into one new trace at `outputPath`.
// All-or-nothing: on any error no file is left at outputPath.
struct ImportSummary
{
    uint64_t events = 0;
    uint64_t problems = 0; // of every severity, notes included
    uint64_t notes = 0; // problems of severity info: nothing was lost (a flow without its other half)
    uint64_t inputBytes = 0; // the files on disk
    uint64_t contentBytes = 0; // what they hold uncompressed (gzipped JSON inflated; an nsys export as it is)
    // Problem kinds that lost data (records skipped or cut, bytes not read), with their counts: the import's
    // one-line warning names them (PS_PROBLEMS holds the help).
    std::vector<std::pair<std::string, int64_t>> dataLoss;
};
Result<ImportSummary> importTraces(
    const std::vector<std::string>& inputs, const std::string& outputPath, const ImportOptions& options);

} // namespace placescope
