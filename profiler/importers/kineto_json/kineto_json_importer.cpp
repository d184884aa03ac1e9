// SPDX-License-Identifier: MIT
// Kineto (PyTorch profiler) JSON importer: streams the file (plain or gzip) through JsonEventSplitter and parses
// each event into a KinetoRecord on a reader thread (EventBatchReader, KinetoRecordParser), maps the records
// to rows here (KinetoEventMapper), and parses the small top-level members (deviceProperties, distributedInfo,
// versions) with the simdjson DOM. Memory: a few batches of events plus the largest event.
#include "profiler/importers/common/byte_source.h"
#include "profiler/importers/importer.h"
#include "profiler/importers/kineto_json/event_batch_reader.h"
#include "profiler/importers/kineto_json/kineto_event_mapper.h"
#include "profiler/importers/kineto_json/kineto_problems.h"
#include "profiler/store/trace_writer.h"

#include <simdjson.h>

#include <filesystem>
#include <vector>

namespace placescope {
namespace {

struct TopLevel
{
    std::optional<int64_t> rank;
    std::string hostname; // "hostname", where the producer added it (Kineto itself does not)
    std::string cudaDriverVersion; // "cuda_driver_version": cudaDriverGetVersion's number, as nsys writes it
    std::vector<GpuInfo> gpus;
};

std::optional<int64_t> domInt(simdjson::dom::element element)
{
    int64_t value = 0;
    if (!element.get_int64().get(value))
        return value;
    double real = 0;
    if (!element.get_double().get(real))
        return static_cast<int64_t>(real);
    return std::nullopt;
}

void readDeviceProperties(simdjson::dom::element value, TopLevel& top)
{
    simdjson::dom::array devices;
    if (value.get_array().get(devices))
        return;
    for (simdjson::dom::element device : devices) {
        simdjson::dom::object object;
        if (device.get_object().get(object))
            continue;
        GpuInfo gpu;
        std::optional<int64_t> maxThreadsPerSm, warpSize;
        for (auto [key, field] : object) {
            if (key == "id")
                gpu.id = domInt(field).value_or(0);
            else if (key == "name") {
                std::string_view name;
                if (!field.get_string().get(name))
                    gpu.name = std::string(name);
            } else if (key == "totalGlobalMem")
                gpu.totalMemory = domInt(field);
            else if (key == "computeMajor")
                gpu.computeMajor = domInt(field);
            else if (key == "computeMinor")
                gpu.computeMinor = domInt(field);
            else if (key == "maxThreadsPerBlock")
                gpu.maxThreadsPerBlock = domInt(field);
            else if (key == "maxThreadsPerMultiprocessor")
                maxThreadsPerSm = domInt(field);
            else if (key == "regsPerBlock")
                gpu.maxRegistersPerBlock = domInt(field);
            else if (key == "regsPerMultiprocessor")
                gpu.maxRegistersPerSm = domInt(field);
            else if (key == "warpSize")
                gpu.threadsPerWarp = warpSize = domInt(field);
            else if (key == "sharedMemPerBlock")
                gpu.maxShmemPerBlock = domInt(field);
            else if (key == "sharedMemPerBlockOptin")
                gpu.maxShmemPerBlockOptin = domInt(field);
            else if (key == "sharedMemPerMultiprocessor")
                gpu.maxShmemPerSm = domInt(field);
            else if (key == "numSms")
                gpu.smCount = domInt(field);
        }
        if (maxThreadsPerSm && warpSize && *warpSize > 0)
            gpu.maxWarpsPerSm = *maxThreadsPerSm / *warpSize;
        top.gpus.push_back(std::move(gpu));
    }
}

void readTopLevel(std::string_view key, std::string_view raw, TraceWriter& writer, TopLevel& top,
    simdjson::dom::parser& parser, const std::string& metaSuffix)
{
    if (raw.size() > (64u << 20))
        return;
    simdjson::padded_string padded(raw);
    simdjson::dom::element value;
    if (parser.parse(padded).get(value))
        return;
    if (key == "deviceProperties") {
        readDeviceProperties(value, top);
        return;
    }
    // The recording machine's name, a system fact as in nsys exports. Only this key: the top level may also hold
    // what a user added (add_metadata_json), and nothing else of it is taken for a fact.
    if (key == "hostname") {
        std::string_view text;
        if (!value.get_string().get(text) && !text.empty() && text.size() <= 255)
            top.hostname = repairKinetoUtf8(text);
        return;
    }
    if (key == "cuda_driver_version") {
        std::string_view text;
        if (auto number = domInt(value))
            top.cudaDriverVersion = std::to_string(*number);
        else if (!value.get_string().get(text) && !text.empty()
            && text.find_first_not_of("0123456789") == std::string_view::npos && text.size() < 10)
            top.cudaDriverVersion = std::string(text);
    }
    if (key == "distributedInfo") {
        simdjson::dom::object info;
        if (value.get_object().get(info))
            return;
        for (auto [name, field] : info) {
            if (name == "rank")
                top.rank = domInt(field);
            else if (name == "backend" || name == "world_size" || name == "nccl_version") {
                std::string_view text;
                std::string metaKey = name == "backend" ? "distributed_backend" : std::string(name);
                if (!field.get_string().get(text))
                    writer.setMeta(metaKey + metaSuffix, text);
                else if (auto number = domInt(field))
                    writer.setMeta(metaKey + metaSuffix, std::to_string(*number));
            }
        }
        return;
    }
    static const std::pair<std::string_view, std::string_view> kScalars[] = {
        { "schemaVersion", "kineto_schema_version" },
        { "cupti_version", "cupti_version" },
        { "cuda_runtime_version", "cuda_runtime_version" },
        { "cuda_driver_version", "cuda_driver_version" },
        { "baseTimeNanoseconds", "trace_base_time_ns" },
        { "displayTimeUnit", "display_time_unit" },
        { "record_shapes", "record_shapes" },
        { "profile_memory", "profile_memory" },
        { "with_stack", "with_stack" },
        { "trace_id", "trace_id" },
    };
    for (const auto& [jsonKey, metaKey] : kScalars) {
        if (key != jsonKey)
            continue;
        std::string_view text;
        if (!value.get_string().get(text))
            writer.setMeta(std::string(metaKey) + metaSuffix, text.substr(0, 200));
        else if (auto number = domInt(value))
            writer.setMeta(std::string(metaKey) + metaSuffix, std::to_string(*number));
    }
}

} // namespace

Status importKinetoJson(const std::string& path, TraceWriter& writer, const ImportOptions& options)
{
    PLACESCOPE_ASSIGN_OR_RETURN(auto source, ByteSource::open(path));
    KinetoEventMapper mapper(writer, options.inputIndex);
    TopLevel top;
    simdjson::dom::parser domParser;
    std::string metaSuffix = options.inputIndex == 0 ? std::string() : "_" + std::to_string(options.inputIndex);
    // Decompression, splitting and parsing run on the reader's thread; this one maps (and the writer's thread
    // inserts), so the three overlap.
    EventBatchReader reader(std::move(source));
    uint64_t lastProgress = 0;
    for (;;) {
        PLACESCOPE_ASSIGN_OR_RETURN(std::unique_ptr<EventBatch> batch, reader.next());
        if (batch->items.empty())
            break;
        for (size_t i = 0; i < batch->items.size(); ++i) {
            const EventBatch::Item& item = batch->items[i];
            if (item.isEvent)
                mapper.addRecord(batch->records[i]);
            else
                readTopLevel(batch->key(item), batch->value(item), writer, top, domParser, metaSuffix);
        }
        if (options.cancel && options.cancel->isCancelled())
            return Status::error("import cancelled");
        if (options.progress && batch->fileBytesRead - lastProgress > reader.fileBytes() / 200) {
            lastProgress = batch->fileBytesRead;
            options.progress(lastProgress, reader.fileBytes());
        }
        reader.recycle(std::move(batch));
    }
    const EventStreamEnd& end = reader.end();
    if (options.contentBytes)
        *options.contentBytes += end.contentBytes;
    if (end.eventTooLarge)
        return Status::error("not a PyTorch profiler trace (a single value is larger than 256 MB)");
    if (!end.sawTraceEvents)
        return Status::error(end.contentBytes == 0
                ? std::string("empty file")
                : std::string("not a PyTorch profiler trace (no traceEvents array)"));
    if (!end.closed)
        writer.countProblem(kinetoProblem("kineto.truncated_json").kind, ProblemSeverity::DataLoss,
            kinetoProblem("kineto.truncated_json").help, std::to_string(end.events) + " events read");
    if (end.trailingBytes > 0) {
        const ProblemInfo& trailing = kinetoProblem("kineto.trailing_data");
        writer.countProblem(trailing.kind, trailing.severity, trailing.help,
            std::to_string(end.trailingBytes) + " bytes, beginning "
                + repairKinetoUtf8(std::string_view(end.trailingHead).substr(0, 40)));
    }
    std::optional<int64_t> rank = options.rank ? options.rank : top.rank;
    if (!rank && options.inputCount > 1)
        rank = options.inputIndex;
    mapper.finish(rank, top.hostname);
    if (options.inputIndex == 0) { // the ranks of one job share their GPU list; the first input's is kept
        for (const GpuInfo& gpu : top.gpus)
            writer.add(gpu);
        // System facts of the recording machine where the trace names them, never of the importing one. Other
        // ranks' host names are kept on their processes (PS_PROCESSES.hostname).
        if (!top.hostname.empty())
            writer.add(SystemFact { "Hostname", top.hostname });
        if (!top.cudaDriverVersion.empty())
            writer.add(SystemFact { "CudaDriverVersion", top.cudaDriverVersion });
    }
    writer.setMeta("source_format", "kineto_json");
    writer.setMeta("source_file" + metaSuffix,
        std::filesystem::path(options.sourceName.empty() ? path : options.sourceName).filename().string());
    if (rank)
        writer.setMeta("rank" + metaSuffix, std::to_string(*rank));
    if (options.progress)
        options.progress(reader.fileBytes(), reader.fileBytes());
    return writer.flush();
}

} // namespace placescope
