// SPDX-License-Identifier: MIT
#include "profiler/exporters/json_stream.h"

#include <cerrno>
#include <cmath>
#include <cstring>

namespace placescope {

namespace {

constexpr size_t kFlushBytes = 1 << 20;

// Length of the valid UTF-8 sequence at text[i], or 0 when the byte there does not start one.
size_t utf8Length(std::string_view text, size_t i)
{
    auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char c = byte(i);
    size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || i + length > text.size())
        return 0;
    for (size_t k = 1; k < length; ++k)
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
    if (length == 2 && c < 0xC2)
        return 0; // overlong
    if (length == 3) {
        unsigned code = ((c & 0x0F) << 12) | ((byte(i + 1) & 0x3F) << 6);
        if (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF))
            return 0; // overlong or surrogate
    }
    if (length == 4) {
        unsigned code = ((c & 0x07) << 18) | ((byte(i + 1) & 0x3F) << 12);
        if (code < 0x10000 || code > 0x10FFFF)
            return 0;
    }
    return length;
}

} // namespace

JsonStream::~JsonStream()
{
    if (m_file)
        std::fclose(m_file);
}

Status JsonStream::open(const std::string& path)
{
    m_file = std::fopen(path.c_str(), "wb");
    if (!m_file)
        return Status::error("cannot write " + path + ": " + std::strerror(errno));
    m_buffer.reserve(kFlushBytes + 4096);
    return Status::ok();
}

void JsonStream::maybeFlush()
{
    if (m_buffer.size() < kFlushBytes)
        return;
    if (std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size())
        m_failed = true;
    m_bytes += m_buffer.size();
    m_buffer.clear();
}

Status JsonStream::close()
{
    if (!m_file)
        return Status::error("JSON output is not open");
    if (!m_buffer.empty() && std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size())
        m_failed = true;
    m_bytes += m_buffer.size();
    m_buffer.clear();
    bool closeFailed = std::fclose(m_file) != 0;
    m_file = nullptr;
    if (m_failed || closeFailed)
        return Status::error(std::string("writing the JSON output failed: ") + std::strerror(errno));
    return Status::ok();
}

void JsonStream::appendEscaped(std::string& out, std::string_view text)
{
    out += '"';
    for (size_t i = 0; i < text.size();) {
        auto c = static_cast<unsigned char>(text[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
            ++i;
        } else if (c < 0x20) {
            static const char* kHex = "0123456789abcdef";
            out += c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : "";
            if (c != '\n' && c != '\t' && c != '\r') {
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 15];
            }
            ++i;
        } else if (size_t length = utf8Length(text, i)) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out += "\xEF\xBF\xBD"; // U+FFFD for a byte that is not UTF-8
            ++i;
        }
    }
    out += '"';
}

void JsonStream::appendMicroseconds(std::string& out, int64_t ns)
{
    char text[32];
    uint64_t magnitude = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
    std::snprintf(text, sizeof text, "%s%llu.%03llu", ns < 0 ? "-" : "",
        static_cast<unsigned long long>(magnitude / 1000), static_cast<unsigned long long>(magnitude % 1000));
    out += text;
}

void JsonStream::separator(std::string_view key)
{
    if (!m_first.empty()) {
        if (!m_first.back())
            m_buffer += ',';
        m_first.back() = false;
    }
    if (!key.empty()) {
        appendEscaped(m_buffer, key);
        m_buffer += ':';
    }
}

void JsonStream::beginObject(std::string_view key)
{
    separator(key);
    m_buffer += '{';
    m_first.push_back(true);
}

void JsonStream::endObject()
{
    m_buffer += '}';
    m_first.pop_back();
    if (m_first.size() <= 2)
        maybeFlush();
}

void JsonStream::beginArray(std::string_view key)
{
    separator(key);
    m_buffer += '[';
    m_first.push_back(true);
}

void JsonStream::endArray()
{
    m_buffer += ']';
    m_first.pop_back();
}

void JsonStream::field(std::string_view key, int64_t value)
{
    separator(key);
    m_buffer += std::to_string(value);
}

void JsonStream::field(std::string_view key, double value)
{
    separator(key);
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", std::isfinite(value) ? value : 0.0); // JSON has no NaN/inf
    m_buffer += text;
}

void JsonStream::field(std::string_view key, std::string_view value)
{
    separator(key);
    appendEscaped(m_buffer, value);
}

void JsonStream::timestampField(std::string_view key, int64_t ns)
{
    separator(key);
    appendMicroseconds(m_buffer, ns);
}

void JsonStream::rawField(std::string_view key, std::string_view json)
{
    separator(key);
    m_buffer += json;
}

void JsonStream::value(int64_t value) { field({}, value); }

} // namespace placescope
