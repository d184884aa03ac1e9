// SPDX-License-Identifier: MIT
// SpooledInput: an input that is not a regular file (`-` for standard input, a FIFO, /dev/stdin, a process
// substitution) copied once into a temporary file, so the importers can sniff its head, reopen it and seek in it
// as they do with a file. Reading a pipe twice would lose its head to the sniffing and block on the second open.
// The temporary file is removed when the SpooledInput goes, and on a stopping signal (temp_file_registry.h).
#pragma once

#include "profiler/base/status.h"

#include <functional>
#include <string>
#include <string_view>

namespace placescope {

class SpooledInput
{
public:
    // Says whether a stream's first bytes (at least 16 unless it ends sooner) may begin a trace; its error is
    // returned before the rest is read, so an endless stream of something else (/dev/zero) ends at once.
    using HeadCheck = std::function<Status(std::string_view head)>;

    // A regular file (or anything that is not there) is used in place; `-` and other non-files are copied, once
    // `checkHead` (when given) accepts their head.
    static Result<SpooledInput> open(const std::string& input, const HeadCheck& checkHead = {});

    SpooledInput(SpooledInput&& other) noexcept;
    SpooledInput& operator=(SpooledInput&& other) noexcept;
    SpooledInput(const SpooledInput&) = delete;
    SpooledInput& operator=(const SpooledInput&) = delete;
    ~SpooledInput();

    const std::string& readPath() const { return m_readPath; } // what the importers open
    const std::string& name() const { return m_name; } // what messages and PS_META name ("stdin" for -)
    bool spooled() const { return !m_tempPath.empty(); }

private:
    SpooledInput() = default;
    std::string m_readPath;
    std::string m_name;
    std::string m_tempPath; // ours to remove; empty when the input is read in place
};

} // namespace placescope
