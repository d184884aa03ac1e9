// SPDX-License-Identifier: MIT
#include "placement/cost/device_table.h"

#include "placement/cost/devices_json.h"
#include "profiler/base/units.h"
#include "profiler/store/sqlite_db.h"

#include <nlohmann/json.hpp>

namespace placescope {
namespace {

using Json = nlohmann::json;

constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;

Result<DeviceSpec> parseDevice(const std::string& key, const Json& entry)
{
    DeviceSpec spec;
    spec.key = key;
    spec.name = entry.value("name", key);
    std::string kind = entry.value("kind", std::string());
    if (kind != "gpu" && kind != "cpu")
        return Status::error("device '" + key + "' has kind '" + kind + "' (expected gpu or cpu)");
    spec.isGpu = kind == "gpu";
    for (const char* field : { "fp32_tflops", "memory_bandwidth_gbps" })
        if (!entry.contains(field) || !entry[field].is_number() || entry[field].get<double>() <= 0)
            return Status::error("device '" + key + "' has no positive \"" + field + "\"");
    spec.fp32FlopsPerSecond = entry["fp32_tflops"].get<double>() * kTera;
    spec.tensorFp16FlopsPerSecond = entry.value("tensor_fp16_tflops", entry["fp32_tflops"].get<double>()) * kTera;
    spec.memoryBytesPerSecond = entry["memory_bandwidth_gbps"].get<double>() * kGiga;
    spec.memoryBytes = entry.value("memory_bytes", int64_t(0));
    spec.launchOverheadUs = entry.value("launch_overhead_us", 0.0);
    spec.pcie = entry.value("pcie", std::string());
    if (entry.contains("match"))
        spec.match = entry["match"].get<std::vector<std::string>>();
    if (spec.isGpu && spec.pcie.empty())
        return Status::error("GPU '" + key + "' names no \"pcie\" link");
    return spec;
}

Result<LinkSpec> parseLink(const std::string& key, const Json& entry)
{
    LinkSpec link;
    link.key = key;
    link.pinnedGBps = entry.value("pinned_gbps", 0.0);
    link.pageableGBps = entry.value("pageable_gbps", 0.0);
    link.pinnedLatencyUs = entry.value("pinned_latency_us", 0.0);
    link.pageableLatencyUs = entry.value("pageable_latency_us", 0.0);
    if (link.pinnedGBps <= 0 || link.pageableGBps <= 0)
        return Status::error("link '" + key + "' needs positive pinned_gbps and pageable_gbps");
    return link;
}

// Dense FMA throughput per SM and clock, as FLOP (2 per FMA), by compute capability. FP32 lanes per SM:
// 64 on Volta/Turing/A100, 128 on GA10x/Ada/Hopper/Blackwell. Tensor FP16 with FP32 accumulate per SM:
// 1024 on Volta/Turing/GA10x/Ada data-center parts, 2048 on A100, 4096 on Hopper, 8192 on Blackwell B200
// (each checks against the datasheets in devices.json: e.g. H100 132 SMs x 1.83 GHz x 4096 = 989 TFLOP/s).
struct SmThroughput
{
    double fp32;
    double tensorFp16;
};

SmThroughput smThroughput(int major, int minor)
{
    if (major >= 10)
        return { 256, 8192 };
    if (major == 9)
        return { 256, 4096 };
    if (major == 8)
        return minor == 0 ? SmThroughput { 128, 2048 } : SmThroughput { 256, 1024 };
    if (major == 7)
        return { 128, 1024 };
    if (major == 6 && minor == 0)
        return { 128, 128 };
    return { 256, 256 }; // Pascal GP10x and older: no tensor cores
}

} // namespace

Result<DeviceTable> DeviceTable::builtin() { return fromJson(kDevicesJson); }

Result<DeviceTable> DeviceTable::fromJson(const std::string& jsonText)
{
    Json root = Json::parse(jsonText, nullptr, /*allow_exceptions=*/false);
    if (root.is_discarded())
        return Status::error("the device table is not valid JSON");
    if (!root.is_object() || !root.contains("devices") || !root["devices"].is_object())
        return Status::error("the device table has no \"devices\" object");
    DeviceTable table;
    try {
        for (const auto& [key, entry] : root["devices"].items()) {
            PLACESCOPE_ASSIGN_OR_RETURN(DeviceSpec spec, parseDevice(key, entry));
            table.m_devices[key] = spec;
        }
        const Json links = root.value("links", Json::object()); // named: items() must not outlive it
        for (const auto& [key, entry] : links.items()) {
            PLACESCOPE_ASSIGN_OR_RETURN(LinkSpec link, parseLink(key, entry));
            table.m_links[key] = link;
        }
    } catch (const nlohmann::json::exception& e) {
        return Status::error(std::string("the device table has a malformed entry: ") + e.what());
    }
    for (const auto& [key, spec] : table.m_devices)
        if (spec.isGpu && !table.m_links.count(spec.pcie))
            return Status::error("GPU '" + key + "' names a missing link '" + spec.pcie + "'");
    return table;
}

Result<DeviceSpec> DeviceTable::device(const std::string& key) const
{
    auto it = m_devices.find(key);
    if (it != m_devices.end())
        return it->second;
    std::string known;
    for (const auto& [name, spec] : m_devices)
        known += (known.empty() ? "" : ", ") + name;
    return Status::error("unknown device '" + key + "' (known: " + known + ", or from-trace)");
}

Result<LinkSpec> DeviceTable::link(const std::string& key) const
{
    auto it = m_links.find(key);
    if (it != m_links.end())
        return it->second;
    return Status::error("unknown link '" + key + "' in the device table");
}

const DeviceSpec* DeviceTable::matchGpuName(const std::string& reportedName) const
{
    for (const auto& [key, spec] : m_devices)
        for (const std::string& part : spec.match)
            if (spec.isGpu && !part.empty() && reportedName.find(part) != std::string::npos)
                return &spec;
    return nullptr;
}

std::vector<std::string> DeviceTable::deviceKeys() const
{
    std::vector<std::string> keys;
    for (const auto& [key, spec] : m_devices)
        keys.push_back(key);
    return keys;
}

Result<DeviceSpec> gpuSpecFromTrace(
    const std::string& tracePath, const DeviceTable& table, std::vector<std::string>* notes)
{
    if (tracePath.empty())
        return Status::error("--gpu from-trace needs a trace");
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, SqliteDb::open(tracePath, SqliteDb::Mode::ReadOnly));
    if (!db.hasTable("TARGET_INFO_GPU"))
        return Status::error("trace " + tracePath + " has no TARGET_INFO_GPU table");
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteStatement stmt,
        db.prepare("SELECT name, totalMemory, memoryBandwidth, clockRate, smCount, computeMajor, computeMinor"
                   " FROM TARGET_INFO_GPU ORDER BY id LIMIT 1"));
    if (!stmt.step())
        return stmt.status().isOk() ? Status::error("trace " + tracePath + " records no GPU in TARGET_INFO_GPU")
                                    : stmt.status();
    auto optInt = [&](int column) { return stmt.isNull(column) ? int64_t(0) : stmt.columnInt(column); };
    std::string name = stmt.isNull(0) ? std::string() : stmt.columnText(0);
    int64_t totalMemory = optInt(1), bandwidth = optInt(2), clockHz = optInt(3), smCount = optInt(4);
    int64_t major = optInt(5), minor = optInt(6);
    const DeviceSpec* known = table.matchGpuName(name);

    DeviceSpec spec;
    if (known)
        spec = *known;
    spec.key = "from-trace";
    spec.name = name.empty() ? "trace GPU" : name;
    spec.isGpu = true;
    std::string derived;
    if (smCount > 0 && clockHz > 0 && major > 0) {
        SmThroughput perSm = smThroughput(static_cast<int>(major), static_cast<int>(minor));
        spec.fp32FlopsPerSecond = double(smCount) * double(clockHz) * perSm.fp32;
        spec.tensorFp16FlopsPerSecond = double(smCount) * double(clockHz) * perSm.tensorFp16;
        derived = "peak FLOP/s from " + std::to_string(smCount) + " SMs x " + std::to_string(clockHz / 1000000)
            + " MHz (compute " + std::to_string(major) + "." + std::to_string(minor) + ")";
    } else if (known) {
        derived = "peak FLOP/s from the table entry '" + known->key + "' (the trace lacks SM count or clock)";
    } else {
        return Status::error("trace GPU '" + spec.name + "' has no SM count/clock and matches no device table entry");
    }
    if (bandwidth > 0)
        spec.memoryBytesPerSecond = double(bandwidth);
    else if (!known)
        return Status::error("trace GPU '" + spec.name + "' has no memory bandwidth and matches no device table entry");
    if (totalMemory > 0)
        spec.memoryBytes = totalMemory;
    if (!known) {
        // No table entry: a few microseconds of launch overhead and the PCIe generation of the
        // compute capability's era are the best guesses; both are listed as assumptions.
        spec.launchOverheadUs = 5.0;
        spec.pcie = major >= 9 ? "gen5_x16" : major >= 8 ? "gen4_x16" : "gen3_x16";
    }
    if (notes) {
        notes->push_back("GPU from the trace: " + spec.name + ": " + derived + "; memory bandwidth "
            + formatRate(spec.memoryBytesPerSecond) + ", memory " + formatBytes(spec.memoryBytes)
            + (known ? "" : "; launch overhead and PCIe generation guessed (no table entry matches)"));
    }
    return spec;
}

} // namespace placescope
