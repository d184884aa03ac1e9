// SPDX-License-Identifier: MIT
// CaptureConfig: what `placescope capture` asks every traced process to record, and how it travels from the
// launcher to the injection library in each process (environment variables, since children and grandchildren
// of the program inherit them and nothing else reaches them).
//
// Plain value type; the parsing functions are pure and thread-safe.
#pragma once

#include "profiler/base/status.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace placescope::capture {

// The --kinds a user chooses. Device info, overhead and external-correlation records are always recorded.
enum CaptureKind : uint32_t
{
    kKindKernel = 1u << 0,
    kKindMemcpy = 1u << 1,
    kKindMemset = 1u << 2,
    kKindMemory = 1u << 3,
    kKindRuntime = 1u << 4,
    kKindDriver = 1u << 5,
    kKindSync = 1u << 6,
    kKindNvtx = 1u << 7,
};
inline constexpr uint32_t kAllKinds = 0xFF;
// Every driver API call is left out by default: `runtime` already brings the driver calls that launch or move
// work (api_selection.h); `driver` records all of them.
inline constexpr uint32_t kDefaultKinds = kAllKinds & ~kKindDriver;

// Environment variables set by the launcher for the traced program (and inherited by its children).
inline constexpr const char* kEnvPartsDir = "PLACESCOPE_CAPTURE_DIR";
inline constexpr const char* kEnvKinds = "PLACESCOPE_CAPTURE_KINDS";
inline constexpr const char* kEnvBufferBytes = "PLACESCOPE_CAPTURE_BUFFER_BYTES";
inline constexpr const char* kEnvWindow = "PLACESCOPE_CAPTURE_WINDOW_NS"; // "<startNs>:<endNs>", 0 = open end
inline constexpr const char* kEnvFlushMs = "PLACESCOPE_CAPTURE_FLUSH_MS";

struct CaptureConfig
{
    uint32_t kinds = kDefaultKinds;
    int64_t bufferBytes = 8 << 20; // one CUPTI activity buffer (CUPTI advises 1 to 10 MB)
    int64_t maxBufferedBytes = 256 << 20; // buffers handed out and not yet written; past it CUPTI drops records
    int64_t windowStartNs = 0; // CLOCK_REALTIME ns; records before it are not kept (0: from the start)
    int64_t windowEndNs = 0; // CLOCK_REALTIME ns; records from it on are not kept (0: to the end)
    int64_t flushIntervalMs = 1000; // how often CUPTI buffers are flushed and the part file committed
    std::string partsDir; // where each traced process writes its part
};

// "kernel,memcpy,nvtx" -> bits. "all" and "default" are accepted; an unknown name is an error naming it.
Result<uint32_t> parseKinds(std::string_view list);
std::string kindsToString(uint32_t kinds);

// The environment variables that carry `config` to the traced processes.
std::map<std::string, std::string> configToEnvironment(const CaptureConfig& config);
// Reads the configuration back; `lookup` returns a variable's value (getenv in the injection library).
// Fails when kEnvPartsDir is missing or a value does not parse.
Result<CaptureConfig> configFromEnvironment(const std::function<std::optional<std::string>(const char*)>& lookup);

} // namespace placescope::capture
