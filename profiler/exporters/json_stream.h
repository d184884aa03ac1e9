// SPDX-License-Identifier: MIT
// JsonStream: writes JSON text to a file in order, without building a document in memory (exports of traces
// with millions of events). Strings are escaped and made valid UTF-8 (bad bytes become U+FFFD), so the output
// parses whatever the trace holds. Chrome-trace timestamps are written as microseconds with exactly three
// decimals (ns precision, no float rounding). Owns its FILE*; one thread.
#pragma once

#include "profiler/base/status.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace placescope {

class JsonStream
{
public:
    JsonStream() = default;
    ~JsonStream();
    JsonStream(const JsonStream&) = delete;
    JsonStream& operator=(const JsonStream&) = delete;

    Status open(const std::string& path);
    // Flushes and closes; the first write error, if any.
    Status close();
    uint64_t bytesWritten() const { return m_bytes + m_buffer.size(); }

    void beginObject(std::string_view key = {});
    void endObject();
    void beginArray(std::string_view key = {});
    void endArray();

    void field(std::string_view key, int64_t value);
    void field(std::string_view key, double value);
    void field(std::string_view key, std::string_view value);
    void field(std::string_view key, const char* value) { field(key, std::string_view(value)); }
    // Microseconds from nanoseconds: 1234567 -> 1234.567.
    void timestampField(std::string_view key, int64_t ns);
    // `json` must already be valid JSON text (checked by the caller).
    void rawField(std::string_view key, std::string_view json);
    void value(int64_t value);

    static void appendEscaped(std::string& out, std::string_view text);
    static void appendMicroseconds(std::string& out, int64_t ns);

private:
    void separator(std::string_view key);
    void maybeFlush();

    FILE* m_file = nullptr;
    std::string m_buffer;
    uint64_t m_bytes = 0;
    bool m_failed = false;
    std::vector<bool> m_first; // per open container: nothing written in it yet
};

} // namespace placescope
