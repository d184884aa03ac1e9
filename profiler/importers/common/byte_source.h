// SPDX-License-Identifier: MIT
// ByteSource: reads a plain or gzip-compressed file in chunks, so importers can stream inputs far larger than
// memory. Gzip is detected from the magic bytes; a gzip stream that ends early (truncated download, disk full
// during the copy) is a one-line error, never silently short data. Concatenated gzip members are read.
// Owns its file handle; not thread-safe.
#pragma once

#include "profiler/base/status.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace placescope {

class ByteSource
{
public:
    static Result<std::unique_ptr<ByteSource>> open(const std::string& path);
    ~ByteSource();
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Reads up to `capacity` bytes of (uncompressed) content; 0 at the end. Errors on a corrupt or cut stream.
    Result<size_t> read(char* out, size_t capacity);
    // Reads the rest of a gzip stream and throws it away, for its error: a gzip member's CRC is checked only at
    // its end, so damage inside it first reaches a reader as garbage. Ok for a plain file, which it leaves alone.
    Status checkRestOfStream();
    bool isGzip() const { return m_gzip; }
    uint64_t fileBytes() const { return m_fileBytes; }
    uint64_t fileBytesRead() const { return m_fileBytesRead; } // compressed bytes consumed, for progress
    uint64_t contentBytesRead() const { return m_contentBytesRead; }

private:
    ByteSource() = default;
    Result<size_t> readGzip(char* out, size_t capacity);

    std::string m_path;
    FILE* m_file = nullptr;
    bool m_gzip = false;
    bool m_streamEnded = false; // last gzip member finished
    uint64_t m_fileBytes = 0;
    uint64_t m_fileBytesRead = 0;
    uint64_t m_contentBytesRead = 0;
    struct Inflater;
    std::unique_ptr<Inflater> m_inflater;
};

} // namespace placescope
