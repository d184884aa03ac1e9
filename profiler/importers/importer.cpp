// SPDX-License-Identifier: MIT
#include "profiler/importers/importer.h"

#include "profiler/importers/common/byte_source.h"
#include "profiler/importers/common/spooled_input.h"
#include "profiler/importers/onnxruntime/ort_event.h"
#include "profiler/importers/tensorboard_trace/tensorboard_trace.h"

#include "profiler/base/file_head.h"
#include "profiler/base/output_file.h"
#include "profiler/store/sqlite_db.h"
#include "profiler/store/trace_file.h"
#include "profiler/store/trace_identity.h"
#include "profiler/store/trace_writer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace placescope {
namespace {

// A JSON trace's first uncompressed bytes (enough for an ONNX Runtime profile's first event); empty when they
// cannot be read (the importer then says why).
std::string jsonContentHead(const std::string& path)
{
    auto source = ByteSource::open(path);
    if (!source.isOk())
        return {};
    std::string head(64 << 10, '\0');
    size_t filled = 0;
    while (filled < head.size()) {
        auto n = source.value()->read(head.data() + filled, head.size() - filled);
        if (!n.isOk() || *n == 0)
            break;
        filled += *n;
    }
    head.resize(filled);
    return head;
}

} // namespace

Result<TraceFormat> sniffTraceFormat(const std::string& path)
{
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        return Status::error(path + " is a directory, not a trace file");
    // "No such file" only when there is none: a file in a folder the user may not enter is a permission problem.
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        return Status::error(
            errno == ENOENT ? path + ": no such file" : "cannot read " + path + ": " + std::strerror(errno));
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return Status::error("cannot read " + path + ": " + std::strerror(errno));
    char head[16] = {};
    size_t n = std::fread(head, 1, sizeof head, file);
    std::fclose(file);
    if (n == 0)
        return Status::error(path + " is empty");
    switch (classifyFileHead(std::string_view(head, n))) {
    case FileHeadKind::Gzip: // the JSON importers check what is inside
    case FileHeadKind::JsonArray:
    case FileHeadKind::JsonObject: {
        const std::string content = jsonContentHead(path);
        return looksLikeOrtProfile(content)      ? TraceFormat::OrtProfile
            : looksLikeTensorBoardTrace(content) ? TraceFormat::TensorBoardTrace
                                                 : TraceFormat::KinetoJson;
    }
    case FileHeadKind::Sqlite: {
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::open(path, SqliteDb::Mode::ReadOnly));
        int64_t applicationId = 0;
        PLACESCOPE_ASSIGN_OR_RETURN(SqliteFileKind kind, identifySqliteFile(db, &applicationId));
        switch (kind) {
        case SqliteFileKind::NsysExport:
            return TraceFormat::NsysSqlite;
        case SqliteFileKind::PlacescopeTrace:
        case SqliteFileKind::DamagedPlacescopeTrace:
            return Status::error(path + " is already a Placescope trace");
        case SqliteFileKind::OtherApplication:
            return Status::error(path + " is a SQLite file of another application (application_id "
                + describeApplicationId(applicationId) + "), not an Nsight Systems export");
        case SqliteFileKind::OtherSqlite:
            break;
        }
        return Status::error(path + " is a SQLite file but not an Nsight Systems export");
    }
    case FileHeadKind::Other:
        break;
    }
    PLACESCOPE_RETURN_IF_ERROR(checkTraceHead(std::string_view(head, n), path));
    return TraceFormat::XPlane;
}

Status checkTraceHead(std::string_view head, const std::string& name)
{
    if (classifyFileHead(head) != FileHeadKind::Other || looksLikeXSpace(head))
        return Status::ok();
    // UTF-16 text (a byte order mark FF FE / FE FF, or ASCII with a NUL beside each byte): JSON saved as "Unicode".
    const auto byte = [&](size_t i) { return i < head.size() ? static_cast<unsigned char>(head[i]) : 0x100u; };
    if ((byte(0) == 0xFF && byte(1) == 0xFE) || (byte(0) == 0xFE && byte(1) == 0xFF) || (byte(0) == '{' && byte(1) == 0)
        || (byte(0) == 0 && byte(1) == '{'))
        return Status::error(
            name + " is UTF-16 text; a trace's JSON is UTF-8: convert it (iconv -f UTF-16 -t UTF-8) and import that");
    return Status::error(name
        + " is not a trace (expected PyTorch profiler JSON, .json.gz, an nsys SQLite export, a TensorFlow/JAX "
          ".xplane.pb or its TensorBoard .trace.json.gz, or an ONNX Runtime profile)");
}

bool looksLikeXSpace(std::string_view head)
{
    if (head.size() < 3 || (head[0] != 0x0a && head[0] != 0x22))
        return false;
    size_t at = 1; // past the field's tag: a varint length of at most 5 bytes
    while (at < head.size() && at < 6 && (static_cast<unsigned char>(head[at]) & 0x80))
        ++at;
    if (++at >= head.size())
        return false;
    if (head[0] == 0x22) // a host name: printable text
        return static_cast<unsigned char>(head[at]) >= 0x20;
    switch (head[at]) { // XPlane's fields 1 (id, varint) and 2..6 (length-delimited)
    case 0x08:
    case 0x12:
    case 0x1a:
    case 0x22:
    case 0x2a:
    case 0x32:
        return true;
    default:
        return false;
    }
}

namespace {

// A message about a spooled copy names the input as the user gave it ("stdin", the FIFO), not the temporary file.
std::string inUsersWords(std::string message, const SpooledInput& input)
{
    if (!input.spooled())
        return message;
    for (size_t at; (at = message.find(input.readPath())) != std::string::npos;)
        message.replace(at, input.readPath().size(), input.name());
    return message.rfind(input.name(), 0) == 0 ? message : input.name() + ": " + message;
}

// Refuses an input given twice (as a.json and ./a.json, or through a link): its events would be imported twice,
// every row doubled. Checked on the inputs as given, before a pipe among them is read (the same FIFO twice would
// wait for a second writer). `-` is standard input.
Status checkInputsDistinct(const std::vector<std::string>& inputs)
{
    std::vector<std::optional<std::pair<dev_t, ino_t>>> seen;
    for (size_t i = 0; i < inputs.size(); ++i) {
        struct stat st;
        if ((inputs[i] == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(inputs[i].c_str(), &st)) != 0) {
            seen.emplace_back(); // not there or not readable: the input's own open says why
            continue;
        }
        for (size_t j = 0; j < i; ++j)
            if (seen[j] && *seen[j] == std::pair<dev_t, ino_t>(st.st_dev, st.st_ino))
                return Status::error(inputs[j] == inputs[i] ? inputs[i]
                            + " is given twice; give each input once (its events would be "
                              "imported twice)"
                                                            : inputs[j] + " and " + inputs[i]
                            + " are the same file; give each input once "
                              "(its events would be imported twice)");
        seen.emplace_back(std::pair<dev_t, ino_t>(st.st_dev, st.st_ino));
    }
    return Status::ok();
}

// True when the two files hold the same bytes. Read only for files of one size, and only up to the first
// difference: two ranks' traces differ in their first events, so a real multi-file import reads almost nothing.
bool sameBytes(const std::string& a, const std::string& b)
{
    std::ifstream first(a, std::ios::binary), second(b, std::ios::binary);
    if (!first || !second)
        return false;
    std::vector<char> chunkA(1 << 16), chunkB(1 << 16);
    for (;;) {
        first.read(chunkA.data(), static_cast<std::streamsize>(chunkA.size()));
        second.read(chunkB.data(), static_cast<std::streamsize>(chunkB.size()));
        if (first.gcount() != second.gcount()
            || !std::equal(chunkA.begin(), chunkA.begin() + first.gcount(), chunkB.begin()))
            return false;
        if (first.gcount() == 0 || !first || !second)
            return first.eof() && second.eof();
    }
}

// Refuses two inputs that are copies of one file (cp a.json b.json): as with one file given twice, every row would
// be doubled. Checked on what the importers read, so a pipe's spooled copy counts too.
Status checkContentsDistinct(const std::vector<SpooledInput>& inputs)
{
    std::vector<uintmax_t> sizes;
    for (const SpooledInput& input : inputs) {
        std::error_code error;
        sizes.push_back(std::filesystem::file_size(input.readPath(), error));
    }
    for (size_t i = 0; i < inputs.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (sizes[i] == sizes[j] && sameBytes(inputs[j].readPath(), inputs[i].readPath()))
                return Status::error(inputs[j].name() + " and " + inputs[i].name()
                    + " hold the same bytes (one is a copy of the other); give each input once "
                      "(its events would be imported twice)");
    return Status::ok();
}

} // namespace

Result<ImportSummary> importTraces(
    const std::vector<std::string>& inputs, const std::string& outputPath, const ImportOptions& options)
{
    if (inputs.empty())
        return Status::error("no input trace given");
    PLACESCOPE_RETURN_IF_ERROR(checkInputsDistinct(inputs));
    std::vector<TraceFormat> formats;
    ImportSummary summary;
    // Pipes and standard input are copied to a temporary file first: sniffing would eat a pipe's head, and the
    // importers open their input again.
    std::vector<SpooledInput> spooled;
    for (const std::string& input : inputs) {
        // A stream whose first bytes are no trace's (/dev/zero, `yes |`) is refused from its head: copying an
        // endless one would fill the temporary folder first.
        PLACESCOPE_ASSIGN_OR_RETURN(SpooledInput file, SpooledInput::open(input, [&](std::string_view head) {
            return checkTraceHead(head, input == "-" ? "stdin" : input);
        }));
        auto format = sniffTraceFormat(file.readPath());
        if (!format.isOk())
            return Status::error(inUsersWords(format.status().message(), file));
        formats.push_back(format.value());
        std::error_code error;
        summary.inputBytes += std::filesystem::file_size(file.readPath(), error);
        spooled.push_back(std::move(file));
    }
    // Checked against the inputs before anything is written: `-o` naming an input would replace it. First, so
    // that mistake is the one named when the inputs are also copies of each other.
    PLACESCOPE_ASSIGN_OR_RETURN(OutputFile output, OutputFile::create(outputPath, inputs));
    PLACESCOPE_RETURN_IF_ERROR(checkContentsDistinct(spooled)); // `output` removes its temporary file
    TraceWriterOptions writerOptions;
    writerOptions.backgroundWriting = true; // parse and write on two cores
    PLACESCOPE_ASSIGN_OR_RETURN(auto writer, TraceWriter::create(std::move(output), writerOptions));
    for (size_t i = 0; i < inputs.size(); ++i) {
        ImportOptions perInput = options;
        perInput.inputIndex = static_cast<int>(i);
        perInput.inputCount = static_cast<int>(inputs.size());
        if (inputs.size() > 1 && options.rank)
            perInput.rank = *options.rank + static_cast<int64_t>(i); // --rank N: first rank of the inputs
        perInput.sourceName = spooled[i].name();
        uint64_t contentBytes = 0;
        perInput.contentBytes = &contentBytes;
        const std::string& path = spooled[i].readPath();
        const uint64_t eventsBefore = writer->eventCount();
        Status status = formats[i] == TraceFormat::NsysSqlite ? importNsysSqlite(path, *writer, perInput)
            : formats[i] == TraceFormat::XPlane               ? importXPlane(path, *writer, perInput)
            : formats[i] == TraceFormat::OrtProfile           ? importOrtProfile(path, *writer, perInput)
            : formats[i] == TraceFormat::TensorBoardTrace     ? importTensorBoardTrace(path, *writer, perInput)
                                                              : importKinetoJson(path, *writer, perInput);
        if (!status.isOk())
            return Status::error(inputs[i] == spooled[i].readPath() ? inputs[i] + ": " + status.message()
                                                                    : inUsersWords(status.message(), spooled[i]));
        if (options.cancel && options.cancel->isCancelled())
            return Status::error("import cancelled");
        std::error_code sizeError;
        summary.contentBytes
            += formats[i] == TraceFormat::NsysSqlite ? std::filesystem::file_size(path, sizeError) : contentBytes;
        // JSON that gave nothing is not a profile of a run (an empty one, or another tool's JSON with a traceEvents
        // array, such as a Chrome DevTools trace): say so instead of writing an empty trace. An nsys export is one by
        // its tables, even when every row of it was bad (those are counted as problems).
        if (formats[i] == TraceFormat::KinetoJson && writer->eventCount() == eventsBefore)
            return Status::error(spooled[i].name()
                + " holds no event of a PyTorch profiler trace (empty, or another "
                  "tool's trace such as a Chrome DevTools one); nothing written");
    }
    writer->setMeta("input_count", std::to_string(inputs.size()));
    summary.events = writer->eventCount();
    summary.problems = static_cast<uint64_t>(writer->totalProblemCount());
    for (const auto& [kind, count] : writer->problemCounts(ProblemSeverity::Info))
        summary.notes += static_cast<uint64_t>(count);
    summary.dataLoss = writer->problemCounts(ProblemSeverity::DataLoss);
    PLACESCOPE_RETURN_IF_ERROR(writer->commit());
    return summary;
}

} // namespace placescope
