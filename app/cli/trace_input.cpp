// SPDX-License-Identifier: MIT
#include "app/cli/trace_input.h"

#include "profiler/base/printable_text.h"
#include "profiler/base/temp_file_registry.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

namespace placescope::cli {

Result<TraceInput> TraceInput::open(const std::string& input, const std::string& command, bool quiet)
{
    TraceInput result;
    auto trace = openTrace(input);
    if (trace.isOk()) {
        result.m_path = input;
        return result;
    }
    // Not a Placescope trace: importable (Kineto JSON, nsys export, XPlane, ONNX Runtime profile), or the opener's own
    // error (a missing file, another SQLite database, a model).
    auto format = sniffTraceFormat(input);
    if (!format.isOk() || format.value() == TraceFormat::Unknown)
        return trace.status();
    std::error_code error;
    std::string pattern = (std::filesystem::temp_directory_path(error) / "placescope-import-XXXXXX").string();
    if (error || !::mkdtemp(pattern.data()))
        return Status::error("cannot make a temporary folder to import " + input + " into");
    result.m_folder = pattern;
    registerTempFolder(result.m_folder);
    // Named as the input, so a report or a diff that shows the file name shows the one the user gave.
    result.m_path = (std::filesystem::path(result.m_folder) / std::filesystem::path(input).filename()).string();
    if (!quiet)
        printLine(stderr, "placescope %s: importing %s (%s) to a temporary trace\n", command.c_str(), input.c_str(),
            format.value() == TraceFormat::NsysSqlite             ? "Nsight Systems export"
                : format.value() == TraceFormat::XPlane           ? "TensorFlow/JAX XPlane"
                : format.value() == TraceFormat::OrtProfile       ? "ONNX Runtime profile"
                : format.value() == TraceFormat::TensorBoardTrace ? "TensorBoard trace JSON"
                                                                  : "PyTorch profiler JSON");
    auto imported = importTraces({ input }, result.m_path, ImportOptions {});
    if (!imported.isOk())
        return imported.status(); // `result` removes the folder
    return result;
}

TraceInput::TraceInput(TraceInput&& other) noexcept
    : m_path(std::move(other.m_path))
    , m_folder(std::move(other.m_folder))
{
    other.m_folder.clear();
}

TraceInput::~TraceInput()
{
    if (m_folder.empty())
        return;
    std::error_code error;
    std::filesystem::remove_all(m_folder, error);
    unregisterTempFolder(m_folder);
}

} // namespace placescope::cli
