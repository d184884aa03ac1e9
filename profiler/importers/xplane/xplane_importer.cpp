// SPDX-License-Identifier: MIT
// XPlane (*.xplane.pb, TensorFlow's profiler and jax.profiler): the XSpace protobuf -> kernels, copies and memsets
// from the GPU planes' stream lines, API calls, framework ops and memory events from the host plane, steps from
// the derived Steps line, device facts from the GPU planes' stats. Format notes: ../shared/formats/README.md.
#include "profiler/importers/importer.h"
#include "profiler/importers/xplane/xline_view.h"
#include "profiler/importers/xplane/xplane_stats.h"
#include "profiler/importers/xplane/xspace_import.h"
#include "profiler/importers/xplane/xspace_wire.h"

#include "profiler/model/cuda_enums.h"
#include "profiler/model/trace_events.h"
#include "profiler/store/trace_writer.h"

#include <google/protobuf/arena.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace placescope {

namespace {

using tensorflow::profiler::XPlane;
using tensorflow::profiler::XSpace;

constexpr std::string_view kGpuPlanePrefix = "/device:GPU:";
constexpr std::string_view kTpuPlanePrefix = "/device:TPU:";
constexpr std::string_view kHostPlane = "/host:CPU";

// TensorFlow's derived lines (built from the stream lines when the profile was saved) carry sentinel ids from
// 0xdeadbeef up (tsl/profiler/utils/xplane_schema.h kThreadIdDerivedMin: Steps, TensorFlow Name Scope, TensorFlow
// Ops, XLA Modules, XLA Ops, ...), written sign-extended from 32 bits in real files (-559038737 is Steps). Their
// kernels and copies are the stream lines' again; only Steps adds something.
bool isDerivedLine(int64_t lineId)
{
    constexpr int64_t kDerivedMin = 0xdeadbeef, kDerivedCount = 64;
    const int64_t asInt32 = static_cast<int32_t>(static_cast<uint32_t>(kDerivedMin));
    return (lineId >= kDerivedMin && lineId < kDerivedMin + kDerivedCount)
        || (lineId >= asInt32 && lineId < asInt32 + kDerivedCount);
}

Status damaged()
{
    return Status::error("not a readable XPlane trace (the XSpace protobuf is truncated or damaged, or a string in it "
                         "is not UTF-8)");
}

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// Event time: the line's start (ns) plus the event's offset (ps).
TimeNs startOf(const XLineView& line, const XEventView& event) { return line.timestampNs + event.offsetPs / 1000; }
TimeNs endOf(const XLineView& line, const XEventView& event)
{
    return line.timestampNs + (event.offsetPs + event.durationPs) / 1000;
}

std::string_view eventName(const XPlaneParts& plane, const XEventView& event)
{
    auto found = plane.eventNames.find(event.metadataId);
    return found == plane.eventNames.end() ? std::string_view() : found->second;
}

// "Stream #134(Compute)" -> 134; other names keep the line id.
int64_t streamIdOf(const XLineView& line)
{
    std::string_view name = line.name;
    size_t hash = name.find('#');
    if (startsWith(name, "Stream") && hash != std::string_view::npos) {
        int64_t id = 0;
        bool any = false;
        for (size_t i = hash + 1; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i, any = true)
            id = id * 10 + (name[i] - '0');
        if (any)
            return id;
    }
    return line.id;
}

// "MemcpyH2D", "MemcpyD2H", "MemcpyD2D", "MemcpyP2P" (TensorFlow's CUPTI names) -> nsys copy kind.
CopyKind copyKindOf(std::string_view name)
{
    if (name.find("H2D") != std::string_view::npos || name.find("HtoD") != std::string_view::npos)
        return CopyKind::HtoD;
    if (name.find("D2H") != std::string_view::npos || name.find("DtoH") != std::string_view::npos)
        return CopyKind::DtoH;
    if (name.find("D2D") != std::string_view::npos || name.find("DtoD") != std::string_view::npos)
        return CopyKind::DtoD;
    if (name.find("P2P") != std::string_view::npos || name.find("PtoP") != std::string_view::npos)
        return CopyKind::PtoP;
    return CopyKind::Unknown;
}

// A host event that is neither an API call nor a memory event: a TensorFlow op ("name:Type"), a transfer op
// between devices (_Send, _Recv, _HostSend, _HostRecv), a tf.data range or another annotation (the executor's
// "ExecutorState::Process" around the ops, JAX dispatch).
std::string_view hostCategory(std::string_view name)
{
    if (startsWith(name, "Iterator::") || startsWith(name, "IteratorGetNext"))
        return "tf_data";
    const size_t colon = name.rfind(':');
    if (colon == std::string_view::npos || name.find("::") != std::string_view::npos
        || name.find(' ') != std::string_view::npos)
        return "host_annotation";
    const std::string_view type = name.substr(colon + 1);
    if (type == "_Send" || type == "_Recv" || type == "_HostSend" || type == "_HostRecv")
        return "tf_transfer";
    return "tf_op";
}

// For each event of a host line, the index of the innermost TensorFlow op around it when it is an API call (a launch
// made while the op ran on that thread), else -1. This is the op -> kernel link (PS_EXTERNAL_CORRELATION) TensorFlow
// does not write: it tells the ops that ran GPU work from those that ran on the host.
std::vector<int> enclosingOpOfCalls(
    const XLineView& line, const std::vector<bool>& isOp, const std::vector<bool>& isCall)
{
    std::vector<int> order(line.events.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int>(i);
    auto start = [&line](int i) { return line.events[static_cast<size_t>(i)].offsetPs; };
    auto end = [&line](int i) {
        const XEventView& event = line.events[static_cast<size_t>(i)];
        return event.offsetPs + event.durationPs;
    };
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return start(a) != start(b) ? start(a) < start(b) : end(a) > end(b); // an op before the calls it holds
    });
    std::vector<int> enclosing(order.size(), -1), open;
    for (int i : order) {
        while (!open.empty() && end(open.back()) <= start(i))
            open.pop_back();
        if (isCall[static_cast<size_t>(i)] && !open.empty())
            enclosing[static_cast<size_t>(i)] = open.back();
        else if (isOp[static_cast<size_t>(i)])
            open.push_back(i);
    }
    return enclosing;
}

class XPlaneMapper
{
public:
    XPlaneMapper(TraceWriter& writer, int64_t pid)
        : m_writer(writer)
        , m_pid(pid)
    { }

    // Each takes a plane's serialized bytes: the plane is split, and its lines are read as they are mapped, so the
    // writer's thread stores one line's rows while the next is read.
    Status mapGpuPlane(std::string_view planeBytes, int64_t deviceId);
    Status mapHostPlane(std::string_view planeBytes);
    int64_t kernels() const { return m_kernels; }

private:
    void mapStreamEvent(const XPlaneParts& plane, const XPlaneStats& stats, const XLineView& line,
        const XEventView& event, int64_t deviceId);
    void mapSteps(const XPlane& plane, const XLineView& line);
    void mapHostLine(const XPlaneParts& plane, const XPlaneStats& stats, const XLineView& line);
    void deviceFacts(const XPlane& plane, const XPlaneStats& stats, int64_t deviceId);

    TraceWriter& m_writer;
    XLineView m_line; // the line being mapped; its storage is reused from line to line
    int64_t m_pid;
    int64_t m_kernels = 0;
    int64_t m_nextTid = 1;
    int64_t m_nextExternalId = 1;
    bool m_stepsTaken = false;
};

void XPlaneMapper::deviceFacts(const XPlane& plane, const XPlaneStats& stats, int64_t deviceId)
{
    GpuInfo gpu;
    gpu.id = deviceId;
    auto value = [&](std::string_view name) -> std::optional<int64_t> {
        const auto* stat = XPlaneStats::find(stats.planeStats(), stats.idOf(name));
        return stat ? stats.integer(*stat) : std::nullopt;
    };
    if (auto kHz = value("clock_rate"))
        gpu.clockRate = *kHz * 1000; // the plane says kHz (1530000 on a V100)
    gpu.smCount = value("core_count");
    gpu.totalMemory = value("memory_size");
    gpu.memoryBandwidth = value("memory_bandwidth");
    gpu.computeMajor = value("compute_cap_major");
    gpu.computeMinor = value("compute_cap_minor");
    if (const auto* vendor = XPlaneStats::find(stats.planeStats(), stats.idOf("device_vendor")))
        gpu.chipName = stats.text(*vendor);
    gpu.name = std::string(plane.name());
    m_writer.add(gpu);
}

Status XPlaneMapper::mapGpuPlane(std::string_view planeBytes, int64_t deviceId)
{
    google::protobuf::Arena arena;
    const auto parts = splitXPlane(planeBytes, arena);
    if (!parts)
        return damaged();
    const XPlane& plane = *parts->header;
    XPlaneStats stats(plane);
    deviceFacts(plane, stats, deviceId);
    for (std::string_view bytes : parts->lines) {
        const auto key = peekIdAndName(bytes);
        if (!key)
            return damaged();
        const bool steps = key->name == "Steps";
        if (isDerivedLine(key->id) || !startsWith(key->name, "Stream")) {
            if (!steps || m_stepsTaken)
                continue; // derived: the stream lines' events again, grouped; never parsed
        }
        if (!m_line.read(bytes))
            return damaged();
        if (steps)
            mapSteps(plane, m_line);
        else
            for (const XEventView& event : m_line.events)
                mapStreamEvent(*parts, stats, m_line, event, deviceId);
    }
    return Status::ok();
}

void XPlaneMapper::mapStreamEvent(const XPlaneParts& plane, const XPlaneStats& stats, const XLineView& line,
    const XEventView& event, int64_t deviceId)
{
    const std::string_view name = eventName(plane, event);
    const TimeNs start = startOf(line, event), end = endOf(line, event);
    const int64_t stream = streamIdOf(line);
    std::optional<int64_t> correlation;
    if (const auto* stat = XPlaneStats::find(line.statsOf(event), stats.idOf("correlation_id")))
        correlation = stats.integer(*stat);
    const auto* memcpy = XPlaneStats::find(line.statsOf(event), stats.idOf("memcpy_details"));
    const auto* memset = XPlaneStats::find(line.statsOf(event), stats.idOf("memset_details"));
    if (memcpy || startsWith(name, "Memcpy")) {
        MemcpyEvent copy;
        copy.start = start;
        copy.end = end;
        copy.deviceId = deviceId;
        copy.streamId = stream;
        copy.correlationId = correlation;
        copy.globalPid = makeGlobalPid(m_pid);
        copy.copyKind = static_cast<int64_t>(copyKindOf(name));
        if (memcpy) {
            CopyDetails details = parseCopyDetails(stats.text(*memcpy));
            copy.bytes = details.bytes.value_or(0);
            if (copy.copyKind == static_cast<int64_t>(CopyKind::Unknown))
                copy.copyKind = static_cast<int64_t>(copyKindOf(details.kind));
        }
        m_writer.add(std::move(copy));
        return;
    }
    if (memset || startsWith(name, "Memset")) {
        MemsetEvent fill;
        fill.start = start;
        fill.end = end;
        fill.deviceId = deviceId;
        fill.streamId = stream;
        fill.correlationId = correlation;
        fill.globalPid = makeGlobalPid(m_pid);
        if (memset)
            fill.bytes = parseCopyDetails(stats.text(*memset)).bytes.value_or(0);
        m_writer.add(std::move(fill));
        return;
    }
    KernelEvent kernel;
    kernel.start = start;
    kernel.end = end;
    kernel.deviceId = deviceId;
    kernel.streamId = stream;
    kernel.correlationId = correlation;
    kernel.globalPid = makeGlobalPid(m_pid);
    kernel.demangledName = std::string(name);
    if (const auto* detailsStat = XPlaneStats::find(line.statsOf(event), stats.idOf("kernel_details"))) {
        KernelDetails details = parseKernelDetails(stats.text(*detailsStat));
        // TensorFlow 2.x wrote uninitialised launch records for some kernels (regs:17179869185, a grid of 2^37):
        // a launch shape no GPU accepts is counted and left out rather than stored.
        auto plausible = [](std::optional<int64_t> v, int64_t limit) { return v && *v >= 0 && *v <= limit; };
        // ROCm's kernel_details name no registers (grid, block, private_mem, group_mem, occ_pct).
        bool ok = (!details.registers || plausible(details.registers, 255)) && plausible(details.block[0], 1024)
            && plausible(details.block[1], 1024) && plausible(details.block[2], 64)
            && plausible(details.grid[0], 0x7fffffff) && plausible(details.grid[1], 65535)
            && plausible(details.grid[2], 65535);
        if (ok) {
            kernel.registersPerThread = details.registers;
            kernel.staticSharedMemory = details.sharedMemory;
            kernel.gridX = details.grid[0];
            kernel.gridY = details.grid[1];
            kernel.gridZ = details.grid[2];
            kernel.blockX = details.block[0];
            kernel.blockY = details.block[1];
            kernel.blockZ = details.block[2];
        } else {
            m_writer.countProblem("xplane.implausible_kernel_details", ProblemSeverity::Info,
                "a kernel's launch shape (kernel_details) holds values no GPU accepts, as TensorFlow's profiler "
                "wrote for some launches; the kernel is kept without its grid, block and registers",
                stats.text(*detailsStat));
        }
    }
    ++m_kernels;
    m_writer.add(std::move(kernel));
}

// The Steps line: one event per training step (the same steps on every GPU plane; the first plane's are kept).
void XPlaneMapper::mapSteps(const XPlane& plane, const XLineView& line)
{
    if (m_stepsTaken || line.events.empty())
        return;
    m_stepsTaken = true;
    XPlaneStats stats(plane);
    int64_t number = 0;
    for (const XEventView& event : line.events) {
        StepRange step;
        const auto* group = XPlaneStats::find(line.statsOf(event), stats.idOf("group_id"));
        std::optional<int64_t> groupId = group ? stats.integer(*group) : std::nullopt;
        step.stepNumber = groupId.value_or(number);
        ++number;
        step.start = startOf(line, event);
        step.end = endOf(line, event);
        step.globalPid = makeGlobalPid(m_pid);
        m_writer.add(step);
    }
}

// Host plane: one line per thread. Events with a correlation_id are CUDA/HIP API calls (the launch -> kernel link);
// MemoryAllocation/MemoryDeallocation are allocator events; everything else is a framework op or annotation
// (TensorFlow "name:Type" ops, tf.data "Iterator::..." ranges, executor and JAX dispatch ranges).
Status XPlaneMapper::mapHostPlane(std::string_view planeBytes)
{
    google::protobuf::Arena arena;
    const auto parts = splitXPlane(planeBytes, arena);
    if (!parts)
        return damaged();
    const XPlane& plane = *parts->header;
    XPlaneStats stats(plane);
    for (std::string_view bytes : parts->lines) {
        const auto key = peekIdAndName(bytes);
        if (!key)
            return damaged();
        if (isDerivedLine(key->id))
            continue;
        if (!m_line.read(bytes))
            return damaged();
        mapHostLine(*parts, stats, m_line);
    }
    return Status::ok();
}

void XPlaneMapper::mapHostLine(const XPlaneParts& plane, const XPlaneStats& stats, const XLineView& line)
{
    const auto correlationId = stats.idOf("correlation_id");
    const auto bytesId
        = stats.idOf("allocation_bytes") ? stats.idOf("allocation_bytes") : stats.idOf("bytes_allocated");
    const auto requestedId = stats.idOf("requested_bytes");
    const auto addressId = stats.idOf("addr");
    const auto allocatorId = stats.idOf("allocator_name");
    const int64_t tid = m_nextTid++;
    const int64_t globalTid = makeGlobalTid(m_pid, tid);
    ThreadInfo thread;
    thread.globalTid = globalTid;
    thread.globalPid = makeGlobalPid(m_pid);
    thread.tid = tid;
    thread.name = line.displayName.empty() ? line.name : line.displayName;
    m_writer.add(thread);
    const size_t count = line.events.size();
    std::vector<bool> isOp(count), isCall(count);
    std::vector<std::string_view> names(count);
    for (size_t i = 0; i < count; ++i) {
        const XEventView& event = line.events[i];
        names[i] = eventName(plane, event);
        isCall[i] = XPlaneStats::find(line.statsOf(event), correlationId) != nullptr;
        isOp[i] = !isCall[i] && hostCategory(names[i]) == "tf_op";
    }
    const std::vector<int> opOfCall = enclosingOpOfCalls(line, isOp, isCall);
    std::vector<int64_t> externalIdOfOp(count, 0);
    for (size_t i = 0; i < count; ++i)
        if (opOfCall[i] >= 0 && externalIdOfOp[static_cast<size_t>(opOfCall[i])] == 0)
            externalIdOfOp[static_cast<size_t>(opOfCall[i])] = m_nextExternalId++;
    for (size_t i = 0; i < count; ++i) {
        const XEventView& event = line.events[i];
        const std::string_view name = names[i];
        const auto* correlation = XPlaneStats::find(line.statsOf(event), correlationId);
        if (correlation) {
            if (opOfCall[i] >= 0) {
                if (auto id = stats.integer(*correlation))
                    m_writer.add(ExternalCorrelation {
                        *id, externalIdOfOp[static_cast<size_t>(opOfCall[i])], makeGlobalPid(m_pid), 0 });
            }
            RuntimeEvent call;
            call.start = startOf(line, event);
            call.end = endOf(line, event);
            call.globalTid = globalTid;
            call.correlationId = stats.integer(*correlation);
            call.name = std::string(name);
            // cuLaunchKernel and friends are the driver API; cudaX and hipX the runtime one.
            call.eventClass
                = startsWith(name, "cu") && !startsWith(name, "cuda") ? ApiClass::Driver : ApiClass::Runtime;
            m_writer.add(std::move(call));
            continue;
        }
        if (name == "MemoryAllocation" || name == "MemoryDeallocation") {
            MemoryEvent memory;
            memory.start = startOf(line, event);
            memory.globalTid = globalTid;
            const auto* bytes = XPlaneStats::find(line.statsOf(event), bytesId);
            if (!bytes)
                bytes = XPlaneStats::find(line.statsOf(event), requestedId);
            const int64_t size = bytes ? stats.integer(*bytes).value_or(0) : 0;
            memory.bytes = name == "MemoryAllocation" ? size : -size;
            if (const auto* address = XPlaneStats::find(line.statsOf(event), addressId))
                memory.address = stats.integer(*address);
            // TensorFlow's allocators: "GPU_4_bfc" on device 4, "gpu_host_bfc" pinned host memory.
            if (const auto* allocator = XPlaneStats::find(line.statsOf(event), allocatorId)) {
                const std::string allocatorName = stats.text(*allocator);
                if (startsWith(allocatorName, "GPU_")) {
                    memory.deviceType = 1;
                    memory.deviceId = std::atoll(allocatorName.c_str() + 4);
                }
            }
            m_writer.add(std::move(memory));
            continue;
        }
        FrameworkOp op;
        op.start = startOf(line, event);
        op.end = endOf(line, event);
        op.globalTid = globalTid;
        op.name = std::string(name);
        op.category = std::string(hostCategory(name));
        if (externalIdOfOp[i] != 0) {
            op.externalId = externalIdOfOp[i];
            op.extra = R"({"device":"GPU"})"; // it launched GPU work; an op that launched none may be either
        }
        m_writer.add(std::move(op));
    }
}

// The file's bytes, as they are on disk (the import's rate is of the file).
Result<std::string> readFile(const std::string& path, uint64_t* contentBytes)
{
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file)
        return Status::error("cannot read " + path);
    std::string bytes(static_cast<size_t>(file.tellg()), '\0');
    file.seekg(0);
    if (!file.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
        return Status::error("cannot read " + path);
    if (contentBytes)
        *contentBytes += bytes.size();
    return bytes;
}

// Maps a serialized XSpace: GPU planes first, then the host plane, each split and parsed as it is mapped
// (xspace_wire.h), on arenas rather than a heap allocation per message.
Status importSerializedXSpace(std::string_view bytes, const std::string& path, const std::string& sourceFormat,
    TraceWriter& writer, const ImportOptions& options)
{
    google::protobuf::Arena arena;
    const std::optional<XSpaceParts> space = splitXSpace(bytes, arena);
    if (!space)
        return damaged();
    std::vector<std::pair<std::string_view, int64_t>> gpuPlanes;
    std::optional<std::string_view> host;
    bool tpu = false;
    for (std::string_view plane : space->planes) {
        const auto key = peekIdAndName(plane);
        if (!key)
            return damaged();
        const std::string_view name = key->name;
        if (startsWith(name, kGpuPlanePrefix))
            gpuPlanes.emplace_back(plane, std::atoll(std::string(name.substr(kGpuPlanePrefix.size())).c_str()));
        else if (startsWith(name, kTpuPlanePrefix))
            tpu = true;
        else if (name == kHostPlane)
            host = plane;
    }
    if (gpuPlanes.empty())
        return Status::error(tpu ? std::string("holds TPU planes only (a TPU profile), not a GPU trace; "
                                               "nothing written")
                                 : std::string("holds no GPU plane (a CPU-only XPlane capture); "
                                               "nothing written"));
    const int64_t pid = 1 + options.inputIndex; // XPlane keeps no OS pid: one process per input
    XPlaneMapper mapper(writer, pid);
    for (const auto& [plane, deviceId] : gpuPlanes)
        PLACESCOPE_RETURN_IF_ERROR(mapper.mapGpuPlane(plane, deviceId));
    if (host)
        PLACESCOPE_RETURN_IF_ERROR(mapper.mapHostPlane(*host));
    ProcessInfo process;
    process.globalPid = makeGlobalPid(pid);
    process.pid = pid;
    process.rank = options.rank;
    process.name = "XPlane host";
    if (space->header->hostnames_size() > 0)
        process.hostname = space->header->hostnames(0);
    writer.add(process);
    writer.setMeta("source_format", sourceFormat);
    const std::string metaSuffix = options.inputIndex == 0 ? std::string() : "_" + std::to_string(options.inputIndex);
    writer.setMeta("source_file" + metaSuffix,
        std::filesystem::path(options.sourceName.empty() ? path : options.sourceName).filename().string());
    return writer.flush();
}

} // namespace

Status importXPlane(const std::string& path, TraceWriter& writer, const ImportOptions& options)
{
    PLACESCOPE_ASSIGN_OR_RETURN(std::string bytes, readFile(path, options.contentBytes));
    return importSerializedXSpace(bytes, path, "xplane", writer, options);
}

// A space built in memory (TensorBoard's JSON rebuilt as one) is mapped through its serialized form, so both inputs
// take the same path.
Status importXSpace(const tensorflow::profiler::XSpace& space, const std::string& path, const std::string& sourceFormat,
    TraceWriter& writer, const ImportOptions& options)
{
    return importSerializedXSpace(space.SerializeAsString(), path, sourceFormat, writer, options);
}

} // namespace placescope
