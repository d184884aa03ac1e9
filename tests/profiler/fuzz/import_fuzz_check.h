// SPDX-License-Identifier: MIT
// What every import fuzz target checks (Kineto JSON, nsys SQLite): any bytes, written as a file, through the whole
// import (sniffing, the format's reader, the trace writer). The import must either succeed and leave a trace
// that opens, or fail with a one-line error and leave nothing behind. Anything else aborts, which libFuzzer (and
// the corpus replay test) report.
#pragma once

#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace placescope::fuzz {

inline const std::filesystem::path& workDir()
{
    static const std::filesystem::path dir = [] {
        // tmpfs when there is one: every input writes a file and a small SQLite trace.
        std::filesystem::path base = std::filesystem::is_directory("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                                               : std::filesystem::temp_directory_path();
        auto path = base / ("placescope_fuzz_" + std::to_string(::getpid()));
        std::filesystem::create_directories(path);
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(workDir(), ignored);
        });
        return path;
    }();
    return dir;
}

inline void require(bool condition, const char* target, const char* what)
{
    if (!condition) {
        std::fprintf(stderr, "%s fuzz target: %s\n", target, what);
        std::abort();
    }
}

// Imports `data` as the file `inputName` (its name does not steer the import: formats are sniffed from the bytes).
inline int importOnce(const uint8_t* data, size_t size, const char* inputName, const char* target)
{
    const std::string input = (workDir() / inputName).string();
    const std::string output = (workDir() / "output.sqlite").string();
    if (FILE* f = std::fopen(input.c_str(), "wb")) {
        std::fwrite(data, 1, size, f);
        std::fclose(f);
    } else {
        return 0;
    }
    std::error_code ignored;
    std::filesystem::remove(output, ignored);
    auto summary = importTraces({ input }, output, {});
    if (summary.isOk()) {
        require(openTrace(output).isOk(), target, "a successful import left a trace that does not open");
    } else {
        require(!summary.status().message().empty(), target, "an import failed without saying why");
        require(summary.status().message().find('\n') == std::string::npos, target, "an error message spans lines");
        require(!std::filesystem::exists(output), target, "a failed import left an output file");
        require(!std::filesystem::exists(output + ".partial"), target, "a failed import left a partial file");
    }
    return 0;
}

} // namespace placescope::fuzz
