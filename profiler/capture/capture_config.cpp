// SPDX-License-Identifier: MIT
#include "profiler/capture/capture_config.h"

#include <charconv>
#include <vector>

namespace placescope::capture {
namespace {

struct KindName
{
    const char* name;
    uint32_t bit;
};
constexpr KindName kKindNames[] = {
    { "kernel", kKindKernel },
    { "memcpy", kKindMemcpy },
    { "memset", kKindMemset },
    { "memory", kKindMemory },
    { "runtime", kKindRuntime },
    { "driver", kKindDriver },
    { "sync", kKindSync },
    { "nvtx", kKindNvtx },
};

std::optional<int64_t> parseInt(std::string_view text)
{
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

} // namespace

Result<uint32_t> parseKinds(std::string_view list)
{
    uint32_t kinds = 0;
    while (true) {
        size_t comma = list.find(',');
        std::string_view name = trim(list.substr(0, comma));
        if (name == "all")
            kinds |= kAllKinds;
        else if (name == "default")
            kinds |= kDefaultKinds;
        else if (!name.empty()) {
            bool found = false;
            for (const KindName& kind : kKindNames) {
                if (name == kind.name) {
                    kinds |= kind.bit;
                    found = true;
                }
            }
            if (!found)
                return Status::error("unknown kind '" + std::string(name)
                    + "' (kinds: kernel, memcpy, memset, memory, runtime, driver, sync, nvtx, all)");
        }
        if (comma == std::string_view::npos)
            break;
        list.remove_prefix(comma + 1);
    }
    if (kinds == 0)
        return Status::error("no kind to record (kinds: kernel, memcpy, memset, memory, runtime, driver, sync, nvtx)");
    return kinds;
}

std::string kindsToString(uint32_t kinds)
{
    std::string text;
    for (const KindName& kind : kKindNames) {
        if (kinds & kind.bit) {
            if (!text.empty())
                text += ',';
            text += kind.name;
        }
    }
    return text;
}

std::map<std::string, std::string> configToEnvironment(const CaptureConfig& config)
{
    return {
        { kEnvPartsDir, config.partsDir },
        { kEnvKinds, kindsToString(config.kinds) },
        { kEnvBufferBytes, std::to_string(config.bufferBytes) + ":" + std::to_string(config.maxBufferedBytes) },
        { kEnvWindow, std::to_string(config.windowStartNs) + ":" + std::to_string(config.windowEndNs) },
        { kEnvFlushMs, std::to_string(config.flushIntervalMs) },
    };
}

Result<CaptureConfig> configFromEnvironment(const std::function<std::optional<std::string>(const char*)>& lookup)
{
    CaptureConfig config;
    std::optional<std::string> dir = lookup(kEnvPartsDir);
    if (!dir || dir->empty())
        return Status::error(std::string(kEnvPartsDir) + " is not set");
    config.partsDir = *dir;
    if (std::optional<std::string> kinds = lookup(kEnvKinds)) {
        PLACESCOPE_ASSIGN_OR_RETURN(config.kinds, parseKinds(*kinds));
    }
    auto parsePair = [&](const char* name, int64_t& first, int64_t& second) -> Status {
        std::optional<std::string> text = lookup(name);
        if (!text)
            return Status::ok();
        size_t colon = text->find(':');
        std::optional<int64_t> a = parseInt(std::string_view(*text).substr(0, colon));
        std::optional<int64_t> b = colon == std::string::npos ? std::optional<int64_t>(second)
                                                              : parseInt(std::string_view(*text).substr(colon + 1));
        if (!a || !b || *a < 0 || *b < 0)
            return Status::error(std::string(name) + " is not '<number>:<number>': " + *text);
        first = *a;
        second = *b;
        return Status::ok();
    };
    PLACESCOPE_RETURN_IF_ERROR(parsePair(kEnvBufferBytes, config.bufferBytes, config.maxBufferedBytes));
    PLACESCOPE_RETURN_IF_ERROR(parsePair(kEnvWindow, config.windowStartNs, config.windowEndNs));
    if (std::optional<std::string> flush = lookup(kEnvFlushMs)) {
        std::optional<int64_t> ms = parseInt(*flush);
        if (!ms || *ms <= 0)
            return Status::error(std::string(kEnvFlushMs) + " is not a positive number: " + *flush);
        config.flushIntervalMs = *ms;
    }
    // CUPTI needs 8-byte aligned buffers of a sensible size; keep at least two buffers in the budget.
    if (config.bufferBytes < (64 << 10) || config.bufferBytes > (1ll << 30))
        return Status::error(
            "activity buffer size out of range (64 KB to 1 GB): " + std::to_string(config.bufferBytes));
    config.bufferBytes &= ~int64_t(7);
    if (config.maxBufferedBytes < 2 * config.bufferBytes)
        config.maxBufferedBytes = 2 * config.bufferBytes;
    return config;
}

} // namespace placescope::capture
