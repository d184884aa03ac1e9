// SPDX-License-Identifier: MIT
#include "profiler/importers/xplane/xplane_stats.h"

#include <charconv>

namespace placescope {

XPlaneStats::XPlaneStats(const tensorflow::profiler::XPlane& plane)
    : m_plane(plane)
{
    for (const auto& [id, metadata] : plane.stat_metadata())
        m_idsByName.emplace(metadata.name(), id);
    for (const auto& stat : plane.stats())
        m_planeStats.push_back(statView(stat));
}

std::optional<int64_t> XPlaneStats::idOf(std::string_view name) const
{
    auto found = m_idsByName.find(name);
    return found == m_idsByName.end() ? std::nullopt : std::optional<int64_t>(found->second);
}

std::string_view XPlaneStats::nameOf(int64_t metadataId) const
{
    auto found = m_plane.stat_metadata().find(metadataId);
    return found == m_plane.stat_metadata().end() ? std::string_view() : std::string_view(found->second.name());
}

namespace {

std::optional<int64_t> parseInteger(std::string_view text)
{
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end == text.data())
        return std::nullopt;
    return value;
}

} // namespace

std::optional<int64_t> XPlaneStats::integer(const XStatView& stat) const
{
    using Kind = XStatView::Kind;
    switch (stat.kind) {
    case Kind::Int64:
        return stat.signedValue;
    case Kind::Uint64:
        return static_cast<int64_t>(stat.unsignedValue);
    case Kind::Double:
        return static_cast<int64_t>(stat.doubleValue);
    case Kind::Str:
        return parseInteger(stat.text);
    case Kind::Ref:
        return parseInteger(nameOf(static_cast<int64_t>(stat.unsignedValue)));
    default:
        return std::nullopt;
    }
}

std::string XPlaneStats::text(const XStatView& stat) const
{
    using Kind = XStatView::Kind;
    switch (stat.kind) {
    case Kind::Str:
        return std::string(stat.text);
    case Kind::Ref:
        return std::string(nameOf(static_cast<int64_t>(stat.unsignedValue)));
    case Kind::Int64:
        return std::to_string(stat.signedValue);
    case Kind::Uint64:
        return std::to_string(stat.unsignedValue);
    case Kind::Double:
        return std::to_string(stat.doubleValue);
    default:
        return {};
    }
}

namespace {

// Calls field(key, value) for each "key:value" of a text split at spaces (and commas between keys, as ROCm writes).
template <typename Field> void forEachField(std::string_view text, Field field)
{
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find(' ', at);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view item = text.substr(at, end - at);
        size_t colon = item.find(':');
        if (colon != std::string_view::npos)
            field(item.substr(0, colon), item.substr(colon + 1));
        at = end + 1;
    }
}

// "160,1,1" into three values; a value that does not parse stays nullopt.
void parseTriple(std::string_view text, std::optional<int64_t> (&out)[3])
{
    for (int i = 0; i < 3 && !text.empty(); ++i) {
        size_t comma = text.find(',');
        out[i] = parseInteger(text.substr(0, comma));
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    }
}

} // namespace

KernelDetails parseKernelDetails(std::string_view text)
{
    KernelDetails details;
    forEachField(text, [&](std::string_view key, std::string_view value) {
        if (key == "regs")
            details.registers = parseInteger(value);
        else if (key == "shm" || key == "static_shared" || key == "group_mem")
            details.sharedMemory = parseInteger(value);
        else if (key == "grid")
            parseTriple(value, details.grid);
        else if (key == "block")
            parseTriple(value, details.block);
    });
    return details;
}

CopyDetails parseCopyDetails(std::string_view text)
{
    CopyDetails details;
    forEachField(text, [&](std::string_view key, std::string_view value) {
        if (key == "kind")
            details.kind = std::string(value);
        else if (key == "size" || key == "num_bytes")
            details.bytes = parseInteger(value);
    });
    return details;
}

} // namespace placescope
