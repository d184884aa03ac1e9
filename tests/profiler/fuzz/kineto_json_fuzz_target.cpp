// SPDX-License-Identifier: MIT
// Fuzz target: any bytes, as a file, through the whole Kineto import (gzip sniffing, splitter, simdjson, mapper,
// SQLite writer). The import must either succeed and leave a trace that opens, or fail with a one-line error and
// leave nothing behind. Anything else aborts, which libFuzzer (and the corpus replay test) report.
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

const std::filesystem::path& workDir()
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

void require(bool condition, const char* what)
{
    if (!condition) {
        std::fprintf(stderr, "kineto_json fuzz target: %s\n", what);
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string input = (workDir() / "input.json").string();
    const std::string output = (workDir() / "output.sqlite").string();
    if (FILE* f = std::fopen(input.c_str(), "wb")) {
        std::fwrite(data, 1, size, f);
        std::fclose(f);
    } else {
        return 0;
    }
    std::error_code ignored;
    std::filesystem::remove(output, ignored);
    auto summary = placescope::importTraces({ input }, output, {});
    if (summary.isOk()) {
        require(placescope::openTrace(output).isOk(), "a successful import left a trace that does not open");
    } else {
        require(!summary.status().message().empty(), "an import failed without saying why");
        require(summary.status().message().find('\n') == std::string::npos, "an error message spans lines");
        require(!std::filesystem::exists(output), "a failed import left an output file");
        require(!std::filesystem::exists(output + ".partial"), "a failed import left a partial file");
    }
    return 0;
}
