// SPDX-License-Identifier: MIT
#include "profiler/importers/common/byte_source.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace placescope {

struct ByteSource::Inflater
{
    z_stream stream {};
    std::vector<unsigned char> input = std::vector<unsigned char>(1 << 18);
    bool initialized = false;
    ~Inflater()
    {
        if (initialized)
            inflateEnd(&stream);
    }
};

Result<std::unique_ptr<ByteSource>> ByteSource::open(const std::string& path)
{
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        return Status::error(path + " is a directory, not a trace file");
    std::unique_ptr<ByteSource> source(new ByteSource);
    source->m_path = path;
    source->m_file = std::fopen(path.c_str(), "rb");
    if (!source->m_file)
        return Status::error("cannot read " + path + ": " + std::strerror(errno));
    source->m_fileBytes = std::filesystem::file_size(path, error);
    unsigned char magic[2] = {};
    size_t n = std::fread(magic, 1, 2, source->m_file);
    std::rewind(source->m_file);
    source->m_gzip = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (source->m_gzip) {
        source->m_inflater = std::make_unique<Inflater>();
        // 15 + 32: zlib or gzip header, detected automatically.
        if (inflateInit2(&source->m_inflater->stream, 15 + 32) != Z_OK)
            return Status::error("cannot start gzip decompression of " + path);
        source->m_inflater->initialized = true;
    }
    return source;
}

ByteSource::~ByteSource()
{
    if (m_file)
        std::fclose(m_file);
}

Result<size_t> ByteSource::read(char* out, size_t capacity)
{
    if (!m_gzip) {
        size_t n = std::fread(out, 1, capacity, m_file);
        if (n == 0 && std::ferror(m_file))
            return Status::error("read error in " + m_path);
        m_fileBytesRead += n;
        m_contentBytesRead += n;
        return n;
    }
    return readGzip(out, capacity);
}

Result<size_t> ByteSource::readGzip(char* out, size_t capacity)
{
    z_stream& z = m_inflater->stream;
    size_t produced = 0;
    while (produced < capacity) {
        if (z.avail_in == 0) {
            size_t n = std::fread(m_inflater->input.data(), 1, m_inflater->input.size(), m_file);
            if (n == 0) {
                if (std::ferror(m_file))
                    return Status::error("read error in " + m_path);
                if (!m_streamEnded)
                    return Status::error("truncated gzip file (the compressed stream ends early)");
                break;
            }
            m_fileBytesRead += n;
            z.next_in = m_inflater->input.data();
            z.avail_in = static_cast<uInt>(n);
            if (m_streamEnded) {
                // Another gzip member follows (concatenated .gz files), unless this is trailing zero padding.
                bool allZero = true;
                for (size_t i = 0; i < n && allZero; ++i)
                    allZero = m_inflater->input[i] == 0;
                if (allZero) {
                    z.avail_in = 0;
                    continue;
                }
                inflateReset(&z);
                m_streamEnded = false;
            }
        } else if (m_streamEnded) {
            inflateReset(&z);
            m_streamEnded = false;
        }
        z.next_out = reinterpret_cast<Bytef*>(out + produced);
        z.avail_out = static_cast<uInt>(std::min<size_t>(capacity - produced, 1u << 30));
        size_t before = z.avail_out;
        int rc = inflate(&z, Z_NO_FLUSH);
        produced += before - z.avail_out;
        if (rc == Z_STREAM_END) {
            m_streamEnded = true;
            continue;
        }
        if (rc == Z_BUF_ERROR && z.avail_in == 0)
            continue; // needs more input
        if (rc != Z_OK)
            return Status::error(std::string("corrupt gzip data") + (z.msg ? std::string(" (") + z.msg + ")" : ""));
    }
    m_contentBytesRead += produced;
    return produced;
}

} // namespace placescope
