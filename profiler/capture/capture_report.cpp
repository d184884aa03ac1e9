// SPDX-License-Identifier: MIT
#include "profiler/capture/capture_report.h"

#include "profiler/base/printable_text.h"
#include "profiler/base/units.h"

#include "profiler/importers/importer.h"
#include "profiler/store/sqlite_db.h"

#include <cstdlib>

#include <filesystem>
#include <unistd.h>

namespace placescope::capture {

CaptureLog::CaptureLog(FILE* out, bool liveLine, bool quiet)
    : m_out(out)
    , m_live(!quiet && liveLine && out && isatty(fileno(out)))
    , m_quiet(quiet)
{ }

std::string CaptureLog::withCommas(int64_t value) { return withThousands(value); }

void CaptureLog::line(const std::string& text)
{
    clearLive();
    printLine(m_out, "placescope capture: %s\n", text.c_str());
    std::fflush(m_out);
}

void CaptureLog::note(const std::string& text)
{
    if (!m_quiet)
        line(text);
}

std::string CaptureLog::liveText(const std::vector<PartStatus>& statuses)
{
    int64_t events = 0, inFlight = 0, dropped = 0;
    for (const PartStatus& status : statuses) {
        events += status.events;
        inFlight += status.buffersInFlight;
        dropped += status.droppedRecords;
    }
    return "placescope capture: " + withCommas(events) + " events, " + std::to_string(inFlight) + " buffers in flight, "
        + withCommas(dropped) + " dropped, " + std::to_string(statuses.size())
        + (statuses.size() == 1 ? " process" : " processes");
}

void CaptureLog::live(const std::vector<PartStatus>& statuses)
{
    if (!m_live || statuses.empty())
        return;
    std::string text = liveText(statuses);
    size_t width = text.size();
    if (width < m_liveWidth)
        text.append(m_liveWidth - width, ' ');
    m_liveWidth = width;
    std::fprintf(m_out, "\r%s", text.c_str());
    std::fflush(m_out);
}

void CaptureLog::clearLive()
{
    if (m_liveWidth == 0)
        return;
    std::fprintf(m_out, "\r%*s\r", static_cast<int>(m_liveWidth), "");
    m_liveWidth = 0;
}

void CaptureLog::summary(
    const std::string& outputPath, const MergeSummary& merged, const std::vector<PartStatus>& statuses)
{
    auto rows = [&](const char* table) {
        auto found = merged.rowsByTable.find(table);
        return found == merged.rowsByTable.end() ? int64_t(0) : found->second;
    };
    std::string text = "wrote " + outputPath + " from " + std::to_string(merged.partsMerged)
        + (merged.partsMerged == 1 ? " process: " : " processes: ") + withCommas(rows("CUPTI_ACTIVITY_KIND_KERNEL"))
        + " kernels, " + withCommas(rows("CUPTI_ACTIVITY_KIND_MEMCPY")) + " copies, "
        + withCommas(rows("CUPTI_ACTIVITY_KIND_MEMSET")) + " memsets, "
        + withCommas(rows("CUDA_GPU_MEMORY_USAGE_EVENTS")) + " allocations/frees, "
        + withCommas(rows("CUPTI_ACTIVITY_KIND_RUNTIME")) + " API calls, "
        + withCommas(rows("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")) + " syncs, " + withCommas(rows("NVTX_EVENTS"))
        + " NVTX events, " + withCommas(rows("TARGET_INFO_GPU")) + " GPUs";
    if (int64_t memory = rows("PS_MEMORY_EVENTS"))
        text += ", " + withCommas(memory) + " PyTorch memory events";
    note(text);
    int64_t dropped = merged.droppedRecords;
    for (const PartStatus& status : statuses)
        dropped = std::max(dropped, status.droppedRecords);
    if (dropped > 0)
        note("WARNING: " + withCommas(dropped)
            + " activity records were dropped (CUPTI had no free buffer); they are counted in PS_PROBLEMS. "
              "Raise --buffer-mb or record fewer --kinds.");
    for (const std::string& skipped : merged.partsSkipped)
        note("WARNING: a part could not be read and is missing from the trace: " + skipped);
}

std::optional<MergeInput> importTorchMemory(
    const std::string& kinetoTrace, const std::string& partsDir, CaptureLog& log)
{
    std::error_code error;
    if (!std::filesystem::exists(kinetoTrace, error)) {
        log.note("--torch-memory: the program did not write " + kinetoTrace
            + "; the trace has no PyTorch tensor-level memory events");
        return std::nullopt;
    }
    std::string path = partsDir + "/torch-memory.sqlite";
    auto imported = importTraces({ kinetoTrace }, path, ImportOptions {});
    if (!imported.isOk()) {
        log.note("--torch-memory: cannot read " + kinetoTrace + ": " + imported.status().message());
        return std::nullopt;
    }
    MergeInput input { path, { "PS_MEMORY_EVENTS" }, 0 };
    // Kineto writes times relative to baseTimeNanoseconds (Unix time); older traces have absolute times.
    if (auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly); db.isOk()) {
        auto statement = db->prepare("SELECT value FROM PS_META WHERE key = 'trace_base_time_ns'");
        if (statement.isOk() && statement->step()) {
            std::string text = statement->columnText(0);
            char* end = nullptr;
            long long base = std::strtoll(text.c_str(), &end, 10);
            if (end && *end == '\0')
                input.timeShiftNs = base;
        }
    }
    return input;
}

} // namespace placescope::capture
