// SPDX-License-Identifier: MIT
#include "profiler/importers/kineto_json/kineto_event_mapper.h"

#include "profiler/importers/kineto_json/kineto_collective_args.h"
#include "profiler/importers/kineto_json/kineto_problems.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/store/trace_writer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <limits>
#include <utility>

namespace placescope {

std::optional<int64_t> parseMicrosecondsToNs(std::string_view token)
{
    while (!token.empty() && (token.front() == '"' || token.front() == ' '))
        token.remove_prefix(1);
    // Most timestamps and durations are whole microseconds: read those in one pass. Anything else (a fraction,
    // an exponent, a sign, more than 16 digits) takes the general path below.
    int64_t wholeUs = 0;
    size_t wholeDigits = 0;
    for (; wholeDigits < token.size() && wholeDigits <= 16; ++wholeDigits) {
        char c = token[wholeDigits];
        if (c < '0' || c > '9')
            break;
        wholeUs = wholeUs * 10 + (c - '0');
    }
    if (wholeDigits > 0 && wholeDigits <= 16 && wholeUs <= 9'000'000'000'000'000) {
        char next = wholeDigits < token.size() ? token[wholeDigits] : '\0';
        if (next != '.' && next != 'e' && next != 'E' && next != '-' && next != '+')
            return wholeUs * 1000;
    }
    // raw tokens run up to the next structural character: keep the number's own characters (one pass that
    // also notes the dot and an exponent: this runs twice per event)
    size_t length = 0;
    size_t dot = std::string_view::npos;
    bool exponent = false;
    for (; length < token.size(); ++length) {
        char c = token[length];
        if (c >= '0' && c <= '9')
            continue;
        if (c == '.') {
            if (dot == std::string_view::npos)
                dot = length;
        } else if (c == 'e' || c == 'E')
            exponent = true;
        else if (c != '-' && c != '+')
            break;
    }
    token = token.substr(0, length);
    bool negative = !token.empty() && token.front() == '-';
    if (negative) {
        token.remove_prefix(1);
        if (dot != std::string_view::npos)
            --dot;
    }
    if (token.empty() || token.size() > 40)
        return std::nullopt;
    if (exponent) {
        double value = 0;
        auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ec != std::errc() || ptr != token.data() + token.size() || !(value * 1000.0 < 9.2e18))
            return std::nullopt;
        int64_t ns = static_cast<int64_t>(value * 1000.0 + 0.5);
        return negative ? -ns : ns;
    }
    std::string_view whole = token.substr(0, dot);
    std::string_view frac = dot == std::string_view::npos ? std::string_view() : token.substr(dot + 1);
    if (whole.empty() || whole.size() > 16) // int64 ns holds up to 9.2e15 us
        return std::nullopt;
    int64_t us = 0;
    for (char c : whole) {
        if (c < '0' || c > '9')
            return std::nullopt;
        us = us * 10 + (c - '0');
    }
    if (us > 9'000'000'000'000'000)
        return std::nullopt;
    int64_t ns = 0;
    int digits = 0;
    bool roundUp = false;
    for (char c : frac) {
        if (c < '0' || c > '9')
            return std::nullopt;
        if (digits < 3)
            ns = ns * 10 + (c - '0');
        else if (digits == 3)
            roundUp = c >= '5';
        ++digits;
    }
    for (; digits < 3; ++digits)
        ns *= 10;
    int64_t total = us * 1000 + ns + (roundUp ? 1 : 0);
    return negative ? -total : total;
}

namespace {

int64_t syncTypeFromKind(std::string_view kind)
{
    if (kind.find("Event Sync") != std::string_view::npos)
        return 1;
    if (kind.find("Wait") != std::string_view::npos)
        return 2;
    if (kind.find("Stream") != std::string_view::npos)
        return 3;
    if (kind.find("Context") != std::string_view::npos || kind.find("Device") != std::string_view::npos)
        return 4;
    return 0;
}

// "Memcpy HtoD (Pageable -> Device)" -> kinds; missing parts stay Unknown.
void parseCopyName(std::string_view name, MemcpyEvent& copy)
{
    size_t space = name.find(' ');
    if (space != std::string_view::npos) {
        std::string_view rest = name.substr(space + 1);
        std::string_view kind = rest.substr(0, rest.find(' '));
        if (auto parsed = copyKindFromShortName(kind))
            copy.copyKind = static_cast<int64_t>(*parsed);
    }
    size_t open = name.find('('), arrow = name.find("->"), close = name.rfind(')');
    if (open != std::string_view::npos && arrow != std::string_view::npos && close != std::string_view::npos
        && open < arrow && arrow < close) {
        auto trim = [](std::string_view s) {
            while (!s.empty() && s.front() == ' ')
                s.remove_prefix(1);
            while (!s.empty() && s.back() == ' ')
                s.remove_suffix(1);
            return s;
        };
        if (auto src = memKindFromLabel(trim(name.substr(open + 1, arrow - open - 1))))
            copy.srcKind = static_cast<int64_t>(*src);
        if (auto dst = memKindFromLabel(trim(name.substr(arrow + 2, close - arrow - 2))))
            copy.dstKind = static_cast<int64_t>(*dst);
    }
}

bool isGpuPid(int64_t pid) { return pid >= 0 && pid < 256; } // device indices; OS pids are never this small
bool isOneOf(std::string_view value, std::initializer_list<std::string_view> options)
{
    for (std::string_view option : options)
        if (value == option)
            return true;
    return false;
}

// The categories that become framework ops (PS_FRAMEWORK_OPS), nested per thread.
bool isFrameworkOpCategory(std::string_view cat)
{
    return isOneOf(cat, { "cpu_op", "user_annotation", "python_function", "Operator", "Python" });
}

// `text`, or a copy in `storage` with each NUL byte replaced by '?' (storage stays empty when there is none).
std::string_view withoutNul(std::string_view text, std::string& storage)
{
    if (text.find('\0') == std::string_view::npos)
        return text;
    storage.assign(text);
    std::replace(storage.begin(), storage.end(), '\0', '?');
    return storage;
}
} // namespace

KinetoEventMapper::KinetoEventMapper(TraceWriter& writer, int inputIndex)
    : m_writer(writer)
    , m_pidSalt(static_cast<int64_t>(inputIndex) << 48)
{ }

void KinetoEventMapper::problem(std::string_view kind, std::string_view example)
{
    const ProblemInfo& info = kinetoProblem(kind);
    m_writer.countProblem(info.kind, info.severity, info.help, example.substr(0, 200));
}

int64_t KinetoEventMapper::syntheticId(std::string_view text)
{
    auto [it, inserted] = m_stringIds.try_emplace(std::string(text), m_nextSyntheticId);
    if (inserted)
        --m_nextSyntheticId;
    return it->second;
}

void KinetoEventMapper::noteHostThread(int64_t pid, int64_t tid)
{
    if (!m_firstHostPid)
        m_firstHostPid = pid;
    m_hostThreads.insert({ pid, tid }); // looks up before it allocates (emplace would allocate a node per event)
}

int64_t KinetoEventMapper::ownerGlobalPid() { return globalPid(m_firstHostPid.value_or(0)); }

KinetoEventMapper::Id KinetoEventMapper::resolveId(const RawId& id)
{
    switch (id.kind) {
    case RawId::Kind::Number:
        return { id.number, false };
    case RawId::Kind::Text:
        return { syntheticId(id.text), true };
    case RawId::Kind::Unreadable:
        break;
    }
    return { syntheticId("?"), true };
}

void KinetoEventMapper::addRecord(const KinetoRecord& record)
{
    ++m_eventsSeen;
    if (record.suspect)
        problem("kineto.resynchronized", record.json.substr(0, 200));
    if (record.invalidUtf8)
        problem("kineto.invalid_utf8", record.json.substr(0, 200));
    for (int i = 0; i < record.argsIdsOutOfRange; ++i)
        problem("kineto.id_out_of_range", "args");
    if (record.argsNotObject && record.badJson.empty())
        problem("kineto.args_not_object", record.json.substr(0, 200));
    if (record.badJson.empty()
        && ((record.hasPid && record.pid.kind == RawId::Kind::Unreadable)
            || (record.hasTid && record.tid.kind == RawId::Kind::Unreadable)))
        problem("kineto.unreadable_id", record.json.substr(0, 200));
    // String ids are numbered in the order the event gave them, even when a later field makes it unreadable.
    for (int i = 0; i < record.idTextCount; ++i)
        syntheticId(record.idTexts[static_cast<size_t>(i)]);
    if (!record.badJson.empty()) {
        problem("kineto.bad_json_record", record.badJson);
        return;
    }
    // SQLite text stops at a NUL for most readers (sqlite3 and the C API's text getters): a name "a\u0000b" would
    // read back as "a". The NUL becomes '?' and the event is kept.
    std::string nameStorage, catStorage, labelStorage, pidStorage, tidStorage;
    const std::string_view name = withoutNul(record.name, nameStorage), cat = withoutNul(record.cat, catStorage);
    KinetoArgs repairedArgs; // copied only for a label with a NUL: most events keep the record's args
    withoutNul(record.args.labelName, labelStorage);
    if (!labelStorage.empty()) {
        repairedArgs = record.args;
        repairedArgs.labelName = labelStorage;
    }
    const KinetoArgs& a = labelStorage.empty() ? record.args : repairedArgs;
    std::string_view pidText = record.pid.kind == RawId::Kind::Text ? withoutNul(record.pid.text, pidStorage) : "";
    std::string_view tidText = record.tid.kind == RawId::Kind::Text ? withoutNul(record.tid.text, tidStorage) : "";
    if (!nameStorage.empty() || !catStorage.empty() || !labelStorage.empty() || !pidStorage.empty()
        || !tidStorage.empty())
        problem("kineto.nul_in_text", record.json.substr(0, 200));
    const std::string_view ph = record.ph;
    const bool hasPid = record.hasPid, hasTid = record.hasTid, flowIdOutOfRange = record.flowIdOutOfRange;
    Id pid = hasPid ? resolveId(record.pid) : Id {};
    Id tid = hasTid ? resolveId(record.tid) : Id {};
    OptInt flowId = record.flowId;
    if (!flowId && record.hasFlowIdText)
        flowId = syntheticId(record.flowIdText);
    if (ph.empty()) { // no "ph" key (a damaged key such as "ph ") or one that is not a string
        problem("kineto.missing_phase", record.json.substr(0, 200));
        return;
    }
    if (!hasPid) {
        problem("kineto.missing_pid", record.json.substr(0, 200));
        return;
    }
    if (ph == "M") {
        if (name == "process_name" && !a.labelName.empty())
            m_processNames[pid.value] = std::string(a.labelName);
        else if (name == "thread_name" && !a.labelName.empty())
            m_threadNames[{ pid.value, tid.value }] = std::string(a.labelName);
        return;
    }
    if (!isOneOf(ph, { "X", "B", "E", "i", "I", "s", "f", "t" })) {
        problem("kineto.unknown_phase", ph);
        return;
    }
    if (pid.isString && !m_processNames.count(pid.value))
        m_processNames[pid.value] = std::string(pidText);
    if (tid.isString && hasTid && !m_threadNames.count({ pid.value, tid.value }))
        m_threadNames[{ pid.value, tid.value }] = std::string(tidText);
    auto start = parseMicrosecondsToNs(record.tsToken);
    if (!start || *start < 0) { // a negative ts made a span of decades (issue 27)
        problem("kineto.bad_timestamp", name);
        return;
    }
    if (ph == "s" || ph == "f" || ph == "t") {
        if (cat == "cpu_to_cuda")
            return; // the profiler without Kineto links an op to its "CUDA functions" range, which is not stored
        if (flowIdOutOfRange || !flowId) {
            problem(flowIdOutOfRange ? "kineto.id_out_of_range" : "kineto.unpaired_flow", "flow id");
            return;
        }
        FlowTracker::Endpoint point;
        point.ts = *start;
        if (isGpuPid(pid.value) && !pid.isString) {
            point.deviceId = pid.value;
            point.streamId = tid.value;
        } else
            point.globalTid = globalTid(pid.value, tid.value);
        if (auto flow = m_flows.add(cat, *flowId, ph == "s", point))
            m_writer.add(std::move(*flow));
        return;
    }
    if (ph == "i" || ph == "I") {
        if (name == "[memory]") {
            noteHostThread(pid.value, tid.value);
            MemoryEvent memory;
            memory.start = *start;
            memory.globalTid = globalTid(pid.value, tid.value);
            memory.deviceType = a.deviceType.value_or(0);
            memory.deviceId = a.deviceId.value_or(-1);
            memory.address = a.address;
            memory.bytes = a.bytes.value_or(0);
            memory.totalAllocated = a.totalAllocated;
            memory.totalReserved = a.totalReserved;
            m_writer.add(std::move(memory));
        }
        return;
    }
    if (ph == "B") {
        beginSpan(cat, name, a, pid, tid, *start);
        return;
    }
    if (ph == "E") {
        endSpan(pid, tid, *start, name, a);
        return;
    }
    if (ph == "X" && record.durToken.empty()) { // a complete event says how long it took; without, it is skipped
        problem("kineto.bad_timestamp", name);
        return;
    }
    auto duration = parseMicrosecondsToNs(record.durToken.empty() ? std::string_view("0") : record.durToken);
    if (!duration) {
        problem("kineto.bad_timestamp", name);
        return;
    }
    if (*duration < 0) {
        problem("kineto.negative_duration", name);
        duration = 0;
    }
    if (cat == "cuda_profiler_range") {
        addCounterRange(record, name, pid, *start, *start + *duration);
        return;
    }
    // PyTorch's profiler without Kineto (torch.autograd.profiler with use_kineto=False, or a build without it such
    // as Debian's python3-torch) writes a bare array of events with no category, on processes it names "CPU
    // functions" and "CUDA functions". Its CPU events are operators and record_function ranges; its CUDA ones are
    // an operator's time measured between two CUDA events, not kernels, so storing them as kernels would be wrong.
    if (cat.empty() && pid.isString && pidText == "CPU functions") {
        addSpan(Span { "cpu_op", name, &a, pid, tid, *start, *start + *duration, std::nullopt });
        return;
    }
    if (cat.empty() && pid.isString && pidText == "CUDA functions") {
        problem("kineto.legacy_cuda_range", name);
        return;
    }
    addSpan(Span { cat, name, &a, pid, tid, *start, *start + *duration, std::nullopt });
}

// The counters are the event's numeric args (metric name -> value); its other args are ids, not counters.
void KinetoEventMapper::addCounterRange(
    const KinetoRecord& record, std::string_view name, Id pid, TimeNs start, TimeNs end)
{
    nlohmann::json event = nlohmann::json::parse(record.json, nullptr, false);
    const nlohmann::json* args = event.is_object() && event.contains("args") ? &event["args"] : nullptr;
    std::vector<CounterSample> samples;
    if (args && args->is_object())
        for (const auto& [metric, value] : args->items()) {
            if (!value.is_number()
                || isOneOf(
                    metric, { "External id", "external id", "correlation", "device", "stream", "context", "queued" }))
                continue;
            CounterSample sample;
            sample.start = start;
            sample.end = end;
            sample.deviceId = record.args.device ? record.args.device : OptInt(pid.value);
            sample.name = std::string(name);
            sample.metric = metric;
            sample.value = value.get<double>();
            sample.globalPid = ownerGlobalPid();
            samples.push_back(std::move(sample));
        }
    if (samples.empty())
        problem("kineto.counter_range_without_counters", name);
    else
        m_counterRanges.push_back(std::move(samples));
}

void KinetoEventMapper::beginSpan(
    std::string_view cat, std::string_view name, const KinetoArgs& args, Id pid, Id tid, TimeNs start)
{
    OpenBegin begin;
    begin.cat = cat;
    begin.name = name;
    begin.args = OwnedKinetoArgs(args); // the record's views die with its batch, before the E comes
    begin.pid = pid;
    begin.tid = tid;
    begin.start = start;
    // A framework op takes its place in the thread's nesting now, as an X event would, with an end not yet known:
    // the ops inside it come (and are nested) before its E.
    begin.isFrameworkOp = isFrameworkOpCategory(cat);
    if (begin.isFrameworkOp) {
        std::vector<TimeNs>& open = m_openOps[globalTid(pid.value, tid.value)];
        while (!open.empty() && open.back() <= start)
            open.pop_back();
        begin.depth = static_cast<int64_t>(open.size());
        open.push_back(std::numeric_limits<TimeNs>::max());
    }
    m_openBegins[{ pid.value, tid.value }].push_back(std::move(begin));
}

void KinetoEventMapper::endSpan(Id pid, Id tid, TimeNs end, std::string_view name, const KinetoArgs& endArgs)
{
    auto found = m_openBegins.find({ pid.value, tid.value });
    if (found == m_openBegins.end() || found->second.empty()) {
        problem("kineto.unpaired_begin_end", name.empty() ? std::string_view("E without B") : name);
        return;
    }
    OpenBegin begin = std::move(found->second.back()); // an E ends the thread's latest B (Chrome trace format)
    found->second.pop_back();
    if (end < begin.start) {
        problem("kineto.negative_duration", begin.name);
        end = begin.start;
    }
    if (begin.isFrameworkOp) {
        // Its place in the nesting was held open with an unknown end: the latest such place is this B's.
        std::vector<TimeNs>& open = m_openOps[globalTid(pid.value, tid.value)];
        for (auto it = open.rbegin(); it != open.rend(); ++it)
            if (*it == std::numeric_limits<TimeNs>::max()) {
                *it = end;
                break;
            }
    }
    KinetoArgs args = begin.args.view();
    mergeKinetoArgs(args, endArgs); // the E's record is alive until this span is added
    addSpan(Span { begin.cat, begin.name, &args, begin.pid, begin.tid, begin.start, end,
        begin.isFrameworkOp ? std::optional<int64_t>(begin.depth) : std::nullopt });
}

void KinetoEventMapper::addSpan(const Span& span)
{
    const std::string_view cat = span.cat, name = span.name;
    const KinetoArgs& a = *span.args;
    const Id pid = span.pid, tid = span.tid;
    const TimeNs start = span.start, end = span.end;
    int64_t device = a.device.value_or(pid.value);
    int64_t stream = a.stream.value_or(tid.value);
    if (isOneOf(cat, { "kernel", "Kernel" })) {
        KernelEvent k;
        k.start = start;
        k.end = end;
        k.deviceId = device;
        k.contextId = a.context;
        k.streamId = stream;
        k.correlationId = a.correlation;
        k.globalPid = ownerGlobalPid();
        k.demangledName = std::string(name);
        k.gridX = a.grid[0], k.gridY = a.grid[1], k.gridZ = a.grid[2];
        k.blockX = a.block[0], k.blockY = a.block[1], k.blockZ = a.block[2];
        k.registersPerThread = a.registers;
        k.staticSharedMemory = a.sharedMemory;
        TimeNs& lastEnd = m_streamEnds[(device << 32) ^ stream];
        if (k.start < lastEnd)
            problem("kineto.overlapping_kernels", name);
        lastEnd = std::max(lastEnd, end);
        m_writer.add(std::move(k));
    } else if (isOneOf(cat, { "gpu_memcpy", "Memcpy" })) {
        MemcpyEvent c;
        c.start = start;
        c.end = end;
        c.deviceId = device;
        c.contextId = a.context;
        c.streamId = stream;
        c.correlationId = a.correlation;
        c.globalPid = ownerGlobalPid();
        c.bytes = a.bytes.value_or(0);
        parseCopyName(name, c);
        m_writer.add(std::move(c));
    } else if (isOneOf(cat, { "gpu_memset", "Memset" })) {
        MemsetEvent m;
        m.start = start;
        m.end = end;
        m.deviceId = device;
        m.contextId = a.context;
        m.streamId = stream;
        m.correlationId = a.correlation;
        m.globalPid = ownerGlobalPid();
        m.bytes = a.bytes.value_or(0);
        size_t open = name.find('('), close = name.rfind(')');
        if (open != std::string_view::npos && close != std::string_view::npos && open < close)
            if (auto kind = memKindFromLabel(name.substr(open + 1, close - open - 1)))
                m.memKind = static_cast<int64_t>(*kind);
        m_writer.add(std::move(m));
    } else if (isOneOf(cat, { "cuda_runtime", "cuda_driver", "Runtime" })) {
        noteHostThread(pid.value, tid.value);
        RuntimeEvent r;
        r.start = start;
        r.end = end;
        r.eventClass = cat == "cuda_driver" ? ApiClass::Driver : ApiClass::Runtime;
        r.globalTid = globalTid(pid.value, tid.value);
        r.correlationId = a.correlation;
        r.name = std::string(name);
        if (a.correlation && name.rfind("cudaLaunchKernel", 0) == 0)
            m_kernelLaunches.emplace_back(start, *a.correlation);
        m_writer.add(std::move(r));
        if (a.correlation && a.externalId)
            m_writer.add(ExternalCorrelation { *a.correlation, *a.externalId, globalPid(pid.value), 0 });
    } else if (cat == "cuda_sync") {
        SyncEvent s;
        s.start = start;
        s.end = end;
        s.deviceId = device;
        s.contextId = a.context;
        // Kineto writes 4294967295 for a context sync's stream, as nsys; an absent or negative one is none too.
        s.streamId = a.stream && *a.stream >= 0 ? *a.stream : kNoSyncId;
        s.correlationId = a.correlation;
        s.globalPid = ownerGlobalPid();
        s.syncType = syncTypeFromKind(a.syncKind.empty() ? name : a.syncKind);
        // Kineto resolves the event to its record (-1 where it could not): stored as nsys stores event records.
        const bool resolved
            = a.waitOnStream && *a.waitOnStream >= 0 && a.waitOnRecordCorrelation && *a.waitOnRecordCorrelation >= 0;
        if (resolved) {
            CudaEventRecord record;
            record.deviceId = device;
            record.contextId = a.context;
            record.streamId = *a.waitOnStream;
            record.correlationId = a.waitOnRecordCorrelation;
            record.globalPid = s.globalPid;
            record.eventId = a.waitOnEventId && *a.waitOnEventId >= 0 ? *a.waitOnEventId : *a.waitOnRecordCorrelation;
            s.eventId = record.eventId;
            m_writer.add(std::move(record));
        }
        m_writer.add(std::move(s));
    } else if (isFrameworkOpCategory(cat)) {
        noteHostThread(pid.value, tid.value);
        FrameworkOp op;
        op.start = start;
        op.end = end;
        op.globalTid = globalTid(pid.value, tid.value);
        op.name = std::string(name);
        op.category = std::string(cat);
        op.externalId = a.externalId;
        op.sequenceNumber = a.sequence;
        op.fwdThreadId = a.fwdThread;
        if (span.depth) {
            op.depth = *span.depth; // a B/E pair: nested when its B came, and its place in m_openOps is set
        } else {
            std::vector<TimeNs>& open = m_openOps[op.globalTid];
            while (!open.empty() && open.back() <= op.start)
                open.pop_back();
            op.depth = static_cast<int64_t>(open.size());
            open.push_back(op.end);
        }
        op.inputDims = std::string(a.inputDims);
        op.inputTypes = std::string(a.inputTypes);
        op.inputStrides = std::string(a.inputStrides);
        op.extra = collectiveExtra(a);
        m_writer.add(std::move(op));
        if (name.rfind("ProfilerStep#", 0) == 0) {
            int64_t step = 0;
            std::string_view digits = name.substr(13);
            if (std::from_chars(digits.data(), digits.data() + digits.size(), step).ec == std::errc())
                m_writer.add(StepRange { step, start, end, globalPid(pid.value) });
        }
    } else if (cat == "gpu_user_annotation") {
        // GPU-side ranges (ProfilerStep#N, "## backward ##" on a stream) become NVTX ranges without a thread,
        // as nsys shows NVTX projected onto the GPU; the host-side op is already in PS_FRAMEWORK_OPS.
        NvtxEvent n;
        n.start = start;
        n.end = end;
        n.text = std::string(name);
        m_writer.add(std::move(n));
        m_writer.add(GpuAnnotation { start, end, device, stream, std::string(name), a.externalId, ownerGlobalPid() });
    } else {
        problem("kineto.unknown_category", cat);
    }
}

void KinetoEventMapper::finish(std::optional<int64_t> rank, const std::string& hostname)
{
    if (uint64_t unpaired = m_flows.takeUnpaired())
        for (uint64_t i = 0; i < unpaired; ++i)
            problem("kineto.unpaired_flow", "");
    for (const auto& [thread, begins] : m_openBegins)
        for (const OpenBegin& begin : begins)
            problem("kineto.unpaired_begin_end", begin.name.empty() ? std::string_view("B without E") : begin.name);
    // Ranges pair with launches one to one in time order, as HTA pairs them; no guess when their numbers differ.
    std::sort(m_kernelLaunches.begin(), m_kernelLaunches.end());
    const bool paired = m_kernelLaunches.size() == m_counterRanges.size();
    if (!paired && !m_counterRanges.empty())
        problem("kineto.counter_ranges_unlinked",
            std::to_string(m_counterRanges.size()) + " ranges, " + std::to_string(m_kernelLaunches.size())
                + " cudaLaunchKernel calls");
    for (size_t i = 0; i < m_counterRanges.size(); ++i)
        for (CounterSample& sample : m_counterRanges[i]) {
            if (paired)
                sample.correlationId = m_kernelLaunches[i].second;
            m_writer.add(std::move(sample));
        }
    std::set<int64_t> pids;
    for (const auto& [pid, tid] : m_hostThreads)
        pids.insert(pid);
    for (int64_t pid : pids) {
        ProcessInfo process;
        process.globalPid = globalPid(pid);
        process.pid = pid;
        process.rank = rank;
        auto name = m_processNames.find(pid);
        process.name = name == m_processNames.end() ? std::string() : name->second;
        process.hostname = hostname;
        m_writer.add(process);
    }
    for (const auto& [pid, tid] : m_hostThreads) {
        ThreadInfo thread;
        thread.globalTid = globalTid(pid, tid);
        thread.globalPid = globalPid(pid);
        thread.tid = tid;
        auto name = m_threadNames.find({ pid, tid });
        thread.name = name == m_threadNames.end() ? std::string() : name->second;
        m_writer.add(thread);
    }
}

} // namespace placescope
