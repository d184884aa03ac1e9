// SPDX-License-Identifier: MIT
#include "profiler/importers/common/byte_source.h"
#include "profiler/importers/importer.h"
#include "profiler/importers/tensorboard_trace/tensorboard_trace.h"
#include "profiler/importers/xplane/xspace_import.h"

#include "profiler/store/trace_writer.h"

#include <google/protobuf/arena.h>
#include <simdjson.h>

#include <cmath>
#include <map>
#include <unordered_map>

namespace placescope {

namespace {

using tensorflow::profiler::XEvent;
using tensorflow::profiler::XLine;
using tensorflow::profiler::XPlane;
using tensorflow::profiler::XSpace;
using tensorflow::profiler::XStat;

struct Kind
{
    const char* kind;
    const char* help;
};
constexpr Kind kBadEvent { "tensorboard.bad_event",
    "an element of traceEvents that is not an event object with a phase, pid and tid, or a complete event without a "
    "name; skipped" };
constexpr Kind kBadTime { "tensorboard.bad_timestamp",
    "a complete event whose ts or dur is not a number of microseconds in range (0 to about 106 days for dur); "
    "skipped" };
constexpr Kind kUnknownProcess { "tensorboard.unknown_process",
    "an event of a process no process_name names as a TensorBoard plane (/host:CPU, /device:GPU:N); skipped" };
constexpr Kind kOtherPhase { "tensorboard.unsupported_phase",
    "an event of a phase TensorBoard's trace JSON does not write (only X events and M metadata are read); skipped" };

void count(TraceWriter& writer, const Kind& kind, std::string detail)
{
    writer.countProblem(kind.kind, ProblemSeverity::DataLoss, kind.help, std::move(detail));
}

// Microseconds (a JSON number, to the picosecond) -> picoseconds; nullopt when not a finite number in range.
std::optional<int64_t> picoseconds(simdjson::dom::element value)
{
    double us = 0;
    int64_t whole = 0;
    uint64_t unsignedWhole = 0;
    if (!value.get_int64().get(whole))
        us = static_cast<double>(whole);
    else if (!value.get_uint64().get(unsignedWhole))
        us = static_cast<double>(unsignedWhole);
    else if (value.get_double().get(us))
        return std::nullopt;
    if (!std::isfinite(us) || us < 0 || us > 9.2e12) // 9.2e18 ps: int64's range
        return std::nullopt;
    return std::llround(us * 1e6);
}

std::optional<int64_t> integerOf(simdjson::dom::element value)
{
    int64_t v = 0;
    uint64_t u = 0;
    if (!value.get_int64().get(v))
        return v;
    if (!value.get_uint64().get(u))
        return static_cast<int64_t>(u);
    return std::nullopt;
}

// One plane being rebuilt: its event and stat names interned as XPlane interns them, its lines by tid.
struct PlaneBuild
{
    XPlane* plane = nullptr;
    std::unordered_map<std::string, int64_t> eventIds, statIds;
    std::map<int64_t, XLine*> lines;

    int64_t eventId(std::string_view name)
    {
        auto [it, added] = eventIds.try_emplace(std::string(name), static_cast<int64_t>(eventIds.size() + 1));
        if (added) {
            auto& metadata = (*plane->mutable_event_metadata())[it->second];
            metadata.set_id(it->second);
            metadata.set_name(it->first);
        }
        return it->second;
    }
    int64_t statId(std::string_view name)
    {
        auto [it, added] = statIds.try_emplace(std::string(name), static_cast<int64_t>(statIds.size() + 1));
        if (added) {
            auto& metadata = (*plane->mutable_stat_metadata())[it->second];
            metadata.set_id(it->second);
            metadata.set_name(it->first);
        }
        return it->second;
    }
};

class SpaceBuilder
{
public:
    SpaceBuilder(XSpace& space, TraceWriter& writer)
        : m_space(space)
        , m_writer(writer)
    { }

    // First pass: the process_name and thread_name metadata.
    void metadata(simdjson::dom::object event);
    // Second pass: the complete events.
    void event(simdjson::dom::object event);
    int64_t events() const { return m_events; }

private:
    XSpace& m_space;
    TraceWriter& m_writer;
    std::map<int64_t, PlaneBuild> m_planes; // by pid
    std::map<std::pair<int64_t, int64_t>, std::string> m_threadNames;
    int64_t m_events = 0;
};

void SpaceBuilder::metadata(simdjson::dom::object event)
{
    std::string_view phase, name, label;
    int64_t pid = 0;
    if (event["ph"].get_string().get(phase) || phase != "M" || event["name"].get_string().get(name)
        || event["args"]["name"].get_string().get(label) || event["pid"].get_int64().get(pid))
        return;
    if (name == "process_name" && !m_planes.count(pid)
        && (label.substr(0, 6) == "/host:" || label.substr(0, 8) == "/device:")) {
        PlaneBuild& build = m_planes[pid];
        build.plane = m_space.add_planes();
        build.plane->set_id(pid >= 1000 ? pid - 1000 : pid);
        build.plane->set_name(std::string(label));
    } else if (name == "thread_name") {
        simdjson::dom::element tidValue;
        if (!event["tid"].get(tidValue))
            if (auto tid = integerOf(tidValue))
                m_threadNames[{ pid, *tid }] = std::string(label);
    }
}

void SpaceBuilder::event(simdjson::dom::object event)
{
    std::string_view phase;
    if (event.size() == 0) // TensorBoard's last element, written to avoid a trailing comma
        return;
    if (event["ph"].get_string().get(phase)) {
        count(m_writer, kBadEvent, "no ph");
        return;
    }
    if (phase == "M")
        return;
    if (phase != "X") {
        count(m_writer, kOtherPhase, std::string(phase));
        return;
    }
    simdjson::dom::element pidValue, tidValue, tsValue, durValue;
    std::string_view name;
    if (event["pid"].get(pidValue) || event["tid"].get(tidValue) || event["name"].get_string().get(name)) {
        count(m_writer, kBadEvent, "an X event without pid, tid or name");
        return;
    }
    const auto pid = integerOf(pidValue), tid = integerOf(tidValue);
    if (!pid || !tid) {
        count(m_writer, kBadEvent, "a pid or tid that is not an integer");
        return;
    }
    auto plane = m_planes.find(*pid);
    if (plane == m_planes.end()) {
        count(m_writer, kUnknownProcess, "pid " + std::to_string(*pid));
        return;
    }
    std::optional<int64_t> start, duration;
    if (!event["ts"].get(tsValue))
        start = picoseconds(tsValue);
    if (!event["dur"].get(durValue))
        duration = picoseconds(durValue);
    if (!start || !duration) {
        count(m_writer, kBadTime, std::string(name));
        return;
    }
    PlaneBuild& build = plane->second;
    XLine*& line = build.lines[*tid];
    if (!line) {
        line = build.plane->add_lines();
        line->set_id(*tid);
        auto threadName = m_threadNames.find({ *pid, *tid });
        if (threadName != m_threadNames.end())
            line->set_name(threadName->second);
    }
    simdjson::dom::object args;
    const bool hasArgs = !event["args"].get_object().get(args);
    std::string_view longName;
    if (hasArgs && !args["long_name"].get_string().get(longName) && !longName.empty())
        name = longName; // the XPlane name; `name` is its display name
    XEvent* out = line->add_events();
    out->set_metadata_id(build.eventId(name));
    out->set_offset_ps(*start);
    out->set_duration_ps(*duration);
    if (hasArgs) {
        for (auto [key, value] : args) {
            if (key == "long_name")
                continue;
            XStat* stat = out->add_stats();
            stat->set_metadata_id(build.statId(key));
            std::string_view text;
            double real = 0;
            if (!value.get_string().get(text))
                stat->set_str_value(std::string(text));
            else if (auto integer = integerOf(value))
                stat->set_int64_value(*integer);
            else if (!value.get_double().get(real))
                stat->set_double_value(real);
            else
                stat->set_str_value(simdjson::to_string(value));
        }
    }
    ++m_events;
}

} // namespace

bool looksLikeTensorBoardTrace(std::string_view head)
{
    size_t at = head.find_first_not_of(" \t\r\n");
    if (at == std::string_view::npos || head[at] != '{')
        return false;
    const size_t processName = head.find("\"process_name\"");
    if (processName == std::string_view::npos)
        return false;
    // The process_name event's args: {"name":"/host:CPU"} or {"name":"/device:GPU:0"}, within the event.
    const size_t end = head.find('}', processName);
    const std::string_view event
        = head.substr(processName, end == std::string_view::npos ? head.npos : end - processName);
    return event.find("\"/host:") != std::string_view::npos || event.find("\"/device:") != std::string_view::npos;
}

Status importTensorBoardTrace(const std::string& path, TraceWriter& writer, const ImportOptions& options)
{
    PLACESCOPE_ASSIGN_OR_RETURN(auto source, ByteSource::open(path));
    std::string text;
    std::vector<char> chunk(1 << 20);
    for (;;) {
        PLACESCOPE_ASSIGN_OR_RETURN(size_t n, source->read(chunk.data(), chunk.size()));
        if (n == 0)
            break;
        text.append(chunk.data(), n);
        if (options.cancel && options.cancel->isCancelled())
            return Status::error("import cancelled");
        if (options.progress)
            options.progress(source->fileBytesRead(), source->fileBytes());
    }
    if (options.contentBytes)
        *options.contentBytes += source->contentBytesRead();
    const size_t length = text.size();
    text.append(simdjson::SIMDJSON_PADDING, '\0');
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(text.data(), length, false).get(root))
        return Status::error("not a readable TensorBoard trace (its JSON is truncated or damaged); nothing written");
    simdjson::dom::array events;
    if (root["traceEvents"].get_array().get(events))
        return Status::error("not a TensorBoard trace (no traceEvents array); nothing written");

    google::protobuf::Arena arena;
    XSpace* space = google::protobuf::Arena::CreateMessage<XSpace>(&arena);
    SpaceBuilder builder(*space, writer);
    for (simdjson::dom::element element : events) {
        simdjson::dom::object event;
        if (!element.get_object().get(event))
            builder.metadata(event);
    }
    for (simdjson::dom::element element : events) {
        simdjson::dom::object event;
        if (element.get_object().get(event)) {
            count(writer, kBadEvent, "not an object");
            continue;
        }
        builder.event(event);
    }
    if (builder.events() == 0)
        return Status::error("holds no event of a TensorBoard trace (no complete event on a /host or /device "
                             "process); nothing written");
    return importXSpace(*space, path, "tensorboard_trace_json", writer, options);
}

} // namespace placescope
