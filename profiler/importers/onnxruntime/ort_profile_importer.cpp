// SPDX-License-Identifier: MIT
// ONNX Runtime profile importer (onnxruntime_profile_*.json, plain or gzip): the Chrome-trace array ORT writes,
// cut into events by the Kineto importer's JsonEventSplitter and each event read with simdjson (OrtEventParser).
//   - "Node" events: <node>_kernel_time is the node's run, a framework op named after the node with its op type,
//     provider and device (CPU or GPU, from the provider) in `extra`, its input shapes and types; Memcpy nodes
//     (MemcpyToHost / MemcpyFromHost, which ORT inserts between providers) are category ort_memcpy, NCHWc layout
//     conversions (ReorderInput / ReorderOutput) ort_layout, the rest ort_node. <node>_fence_before/_after are
//     the waits around it (ort_fence). ORT 1.20+'s arena figures become memory events on the node's device.
//   - "Session" events: model_loading_uri, session_initialization, SequentialExecutor::Execute (ort_session), and
//     model_run, one per InferenceSession::Run: a step each.
// A profile has no GPU timeline of its own (a CUDA node's dur is mostly its launch on the host), so it writes no
// kernels; it says where each node ran and for how long on its thread.
#include "profiler/importers/common/byte_source.h"
#include "profiler/importers/importer.h"
#include "profiler/importers/kineto_json/json_event_splitter.h"
#include "profiler/importers/onnxruntime/ort_event.h"
#include "profiler/store/trace_writer.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace placescope {
namespace {

struct OrtProblem
{
    std::string_view kind;
    ProblemSeverity severity;
    std::string_view help;
};

constexpr OrtProblem kBadJson { "ort.bad_json_record", ProblemSeverity::DataLoss,
    "An element of the profile is not a JSON object; it was skipped." };
constexpr OrtProblem kBadTime { "ort.bad_timestamp", ProblemSeverity::DataLoss,
    "An event without a numeric ts and dur (or with a negative dur); it was skipped." };
constexpr OrtProblem kPhase { "ort.unsupported_phase", ProblemSeverity::DataLoss,
    "An event of a phase other than X (ONNX Runtime writes complete events only); it was skipped." };
constexpr OrtProblem kCategory { "ort.unknown_category", ProblemSeverity::DataLoss,
    "An event of a category other than Session and Node (e.g. Kernel events of a CUDA-profiling build); "
    "skipped." };
constexpr OrtProblem kProvider { "ort.unknown_provider", ProblemSeverity::Info,
    "A node ran on an execution provider the importer does not know to be a CPU or a GPU one; its device is "
    "left empty." };
constexpr OrtProblem kTruncated { "ort.truncated_json", ProblemSeverity::DataLoss,
    "The profile's array is not closed (ORT was stopped while writing it, or it hit its event limit); the "
    "events read were kept." };
constexpr OrtProblem kTrailing { "ort.trailing_data", ProblemSeverity::DataLoss,
    "Bytes after the profile's array were not read." };

constexpr int64_t kNsPerUs = 1000;

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

class OrtMapper
{
public:
    OrtMapper(TraceWriter& writer, int inputIndex)
        : m_writer(writer)
        , m_pidSalt(static_cast<int64_t>(inputIndex) << 48)
    { }

    void add(std::string_view raw, bool suspect);
    void finish(const ImportOptions& options);
    uint64_t events() const { return m_events; }

private:
    void problem(const OrtProblem& problem, std::string_view example)
    {
        m_writer.countProblem(problem.kind, problem.severity, problem.help, example.substr(0, 200));
    }
    int64_t globalTid(int64_t pid, int64_t tid)
    {
        m_threads.insert({ pid, tid });
        return m_pidSalt + makeGlobalTid(pid, tid);
    }
    void addNode(const OrtEvent& event, int64_t thread, TimeNs start, TimeNs end);

    TraceWriter& m_writer;
    int64_t m_pidSalt;
    OrtEventParser m_parser;
    std::string m_padded; // the event's text followed by simdjson's padding
    std::set<std::pair<int64_t, int64_t>> m_threads;
    int64_t m_steps = 0;
    uint64_t m_events = 0;
};

void OrtMapper::add(std::string_view raw, bool)
{
    m_padded.assign(raw);
    m_padded.append(simdjson::SIMDJSON_PADDING, '\0');
    OrtEvent event;
    if (!m_parser.parse(std::string_view(m_padded.data(), raw.size()), event))
        return problem(kBadJson, raw);
    if (event.ph != "X")
        return problem(kPhase, raw);
    if (!event.tsUs || !event.durUs || *event.durUs < 0)
        return problem(kBadTime, raw);
    if (event.cat != "Session" && event.cat != "Node")
        return problem(kCategory, raw);
    const TimeNs start = *event.tsUs * kNsPerUs;
    const TimeNs end = start + *event.durUs * kNsPerUs;
    const int64_t pid = event.pid.value_or(0), tid = event.tid.value_or(pid);
    const int64_t thread = globalTid(pid, tid);
    ++m_events;
    if (event.cat == "Node")
        return addNode(event, thread, start, end);
    if (event.name == "model_run") {
        StepRange step;
        step.stepNumber = m_steps++;
        step.start = start;
        step.end = end;
        step.globalPid = m_pidSalt + makeGlobalPid(pid);
        m_writer.add(step);
    }
    FrameworkOp op;
    op.start = start;
    op.end = end;
    op.globalTid = thread;
    op.name = std::string(event.name);
    op.category = "ort_session";
    m_writer.add(std::move(op));
}

void OrtMapper::addNode(const OrtEvent& event, int64_t thread, TimeNs start, TimeNs end)
{
    FrameworkOp op;
    op.start = start;
    op.end = end;
    op.globalTid = thread;
    std::string_view name = event.name;
    if (endsWith(name, "_fence_before") || endsWith(name, "_fence_after")) {
        op.name = std::string(name);
        op.category = "ort_fence";
        m_writer.add(std::move(op));
        return;
    }
    if (endsWith(name, "_kernel_time"))
        name.remove_suffix(std::string_view("_kernel_time").size());
    op.name = std::string(name);
    op.category = event.opName == "MemcpyToHost" || event.opName == "MemcpyFromHost" ? "ort_memcpy"
        : event.opName == "ReorderInput" || event.opName == "ReorderOutput"          ? "ort_layout"
                                                                                     : "ort_node";
    const std::string_view device = ortProviderDevice(event.provider);
    if (device.empty())
        problem(kProvider, event.provider);
    nlohmann::ordered_json extra;
    extra["op_name"] = std::string(event.opName);
    if (!event.provider.empty())
        extra["provider"] = std::string(event.provider);
    extra["device"] = std::string(device);
    if (event.opName == "MemcpyToHost" || event.opName == "MemcpyFromHost")
        extra["copy_kind"] = event.opName == "MemcpyToHost" ? "DtoH" : "HtoD";
    auto number = [&extra](const char* key, const std::optional<int64_t>& value) {
        if (value)
            extra[key] = *value;
    };
    number("node_index", event.nodeIndex);
    number("activation_size", event.activationSize);
    number("parameter_size", event.parameterSize);
    number("output_size", event.outputSize);
    if (!event.outputTypeShape.empty())
        extra["output_type_shape"] = nlohmann::json::parse(event.outputTypeShape, nullptr, false);
    op.extra = extra.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    op.inputDims = event.inputDims;
    op.inputTypes = event.inputTypes;
    m_writer.add(std::move(op));
    if (event.memInUseDelta && event.memBytesInUse) {
        MemoryEvent memory;
        memory.start = end; // the arena's figures after the node ran
        memory.globalTid = thread;
        memory.deviceType = device == "GPU" ? 1 : 0;
        memory.deviceId = device == "GPU" ? 0 : -1;
        memory.bytes = *event.memInUseDelta;
        memory.totalAllocated = *event.memBytesInUse;
        m_writer.add(memory);
    }
}

void OrtMapper::finish(const ImportOptions& options)
{
    std::set<int64_t> pids;
    for (const auto& [pid, tid] : m_threads) {
        ThreadInfo thread;
        thread.globalTid = m_pidSalt + makeGlobalTid(pid, tid);
        thread.globalPid = m_pidSalt + makeGlobalPid(pid);
        thread.tid = tid;
        thread.name = tid == pid ? "onnxruntime session" : "onnxruntime thread " + std::to_string(tid);
        m_writer.add(thread);
        pids.insert(pid);
    }
    for (int64_t pid : pids) {
        ProcessInfo process;
        process.globalPid = m_pidSalt + makeGlobalPid(pid);
        process.pid = pid;
        process.rank = options.rank;
        process.name = "onnxruntime";
        m_writer.add(process);
    }
}

} // namespace

Status importOrtProfile(const std::string& path, TraceWriter& writer, const ImportOptions& options)
{
    PLACESCOPE_ASSIGN_OR_RETURN(auto source, ByteSource::open(path));
    OrtMapper mapper(writer, options.inputIndex);
    JsonEventSplitter splitter({ [](std::string_view, std::string_view) {},
        [&mapper](std::string_view raw, bool suspect) { mapper.add(raw, suspect); } });
    std::vector<char> chunk(1 << 20);
    for (;;) {
        PLACESCOPE_ASSIGN_OR_RETURN(size_t n, source->read(chunk.data(), chunk.size()));
        if (n == 0)
            break;
        if (!splitter.feed(std::string_view(chunk.data(), n)))
            return Status::error("not an ONNX Runtime profile (not a JSON array)");
        if (options.cancel && options.cancel->isCancelled())
            return Status::error("import cancelled");
        if (options.progress)
            options.progress(source->fileBytesRead(), source->fileBytes());
    }
    if (options.contentBytes)
        *options.contentBytes += source->contentBytesRead();
    if (mapper.events() == 0)
        return Status::error("holds no event of an ONNX Runtime profile (no Session or Node event); nothing "
                             "written");
    if (!splitter.finish())
        writer.countProblem(kTruncated.kind, kTruncated.severity, kTruncated.help,
            std::to_string(splitter.eventCount()) + " events read");
    if (splitter.trailingBytes() > 0)
        writer.countProblem(kTrailing.kind, kTrailing.severity, kTrailing.help,
            std::to_string(splitter.trailingBytes()) + " bytes, beginning " + splitter.trailingHead().substr(0, 40));
    mapper.finish(options);
    writer.setMeta("source_format", "onnxruntime_profile");
    const std::string metaSuffix = options.inputIndex == 0 ? std::string() : "_" + std::to_string(options.inputIndex);
    writer.setMeta("source_file" + metaSuffix,
        std::filesystem::path(options.sourceName.empty() ? path : options.sourceName).filename().string());
    return writer.flush();
}

} // namespace placescope
