// SPDX-License-Identifier: MIT
// JSON report for scripts: every finding with its evidence, saving and fixes, and the run's figures.
#include "analysis/render/report_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace placescope {

namespace {

std::string quote(const std::string& s)
{
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

std::string num(double v)
{
    if (!std::isfinite(v))
        return "null";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string num(int64_t v) { return std::to_string(v); }

} // namespace

std::string renderJsonReport(const AnalysisReport& r)
{
    std::string o = "{\n";
    o += "  \"trace\": " + quote(r.traceName) + ",\n  \"source_format\": " + quote(r.sourceFormat) + ",\n";
    o += "  \"gpu\": " + quote(r.gpuName) + ",\n  \"origin_ns\": " + num(r.originNs) + ",\n";
    o += "  \"steps\": {\"source\": " + quote(r.stepSource) + ", \"description\": " + quote(r.stepDescription)
        + ", \"count\": " + num(r.stepCount) + ", \"mean_ms\": " + num(r.meanStepMs) + "},\n";
    o += "  \"kernels\": {\"count\": " + num(r.kernelCount) + ", \"total_ns\": " + num(r.kernelNs)
        + ", \"layout_conversion_count\": " + num(r.layoutKernelCount)
        + ", \"layout_conversion_ns\": " + num(r.layoutKernelNs) + "},\n";
    o += "  \"memcpy_count\": " + num(r.memcpyCount) + ",\n  \"memset_count\": " + num(r.memsetCount) + ",\n";
    o += "  \"notes\": [";
    for (size_t i = 0; i < r.notes.size(); ++i)
        o += (i ? ", " : "") + quote(r.notes[i]);
    o += "],\n";
    if (r.allFixes) {
        o += "  \"all_fixes\": {\"edits\": [";
        for (size_t i = 0; i < r.allFixes->edits.size(); ++i)
            o += (i ? ", " : "") + quote(r.allFixes->edits[i]);
        o += "], \"measured_step_ns\": " + num(r.allFixes->measuredStepNs) + ", \"replay_step_ns\": "
            + num(r.allFixes->replayStepNs) + ", \"predicted_step_ns\": " + num(r.allFixes->predictedStepNs) + "},\n";
    }
    o += "  \"findings\": [";
    for (size_t i = 0; i < r.findings.size(); ++i) {
        const Finding& f = r.findings[i];
        o += std::string(i ? "," : "") + "\n    {\"rule\": " + quote(f.ruleId) + ", \"title\": " + quote(f.title)
            + ", \"severity\": " + quote(std::string(severityName(f.severity))) + ",\n     \"summary\": "
            + quote(f.summary) + ",\n     \"saving\": {\"per_step_ms\": " + num(f.saving.perStepMs)
            + ", \"percent_of_step\": " + num(f.saving.percentOfStep) + ", \"memory_bytes\": "
            + num(f.saving.memoryBytes) + ", \"upper_bound\": " + (f.saving.upperBound ? "true" : "false")
            + ", \"method\": " + quote(f.saving.method)
            + (f.saving.simulated ? ", \"simulated_ms\": " + num(f.saving.simulatedMs)
                        + ", \"simulated_edit\": " + quote(f.saving.simulatedEdit)
                                  : std::string())
            + "},\n     \"evidence\": [";
        for (size_t j = 0; j < f.evidence.size(); ++j) {
            const Evidence& e = f.evidence[j];
            o += std::string(j ? ", " : "") + "{\"what\": " + quote(e.what) + ", \"count\": " + num(e.count)
                + ", \"total_ns\": " + num(e.totalNs) + ", \"total_bytes\": " + num(e.totalBytes) + ", \"examples\": [";
            for (size_t k = 0; k < e.examples.size(); ++k)
                o += std::string(k ? ", " : "") + "{\"start_ns\": " + num(e.examples[k].startNs)
                    + ", \"end_ns\": " + num(e.examples[k].endNs) + ", \"label\": " + quote(e.examples[k].label) + "}";
            o += "]}";
        }
        o += "],\n     \"fix\": {\"pytorch\": " + quote(f.fix.pytorch) + ", \"tensorflow\": " + quote(f.fix.tensorflow)
            + ", \"onnxruntime\": " + quote(f.fix.onnxRuntime) + "}}";
    }
    o += "\n  ],\n  \"devices\": [";
    for (size_t i = 0; i < r.devices.size(); ++i) {
        const auto& d = r.devices[i];
        o += std::string(i ? "," : "") + "\n    {\"label\": " + quote(d.label) + ", \"window_ns\": " + num(d.windowNs)
            + ", \"compute_ns\": " + num(d.computeNs) + ", \"communication_ns\": " + num(d.commNs)
            + ", \"copy_ns\": " + num(d.copyOnlyNs) + ", \"idle_ns\": " + num(d.idleNs) + ", \"idle_causes_ns\": {";
        for (int c = 0; c < kIdleCauseCount; ++c)
            o += std::string(c ? ", " : "") + quote(std::string(idleCauseName(static_cast<IdleCause>(c)))) + ": "
                + num(d.idleCauseNs[c]);
        o += "}, \"utilization\": [";
        for (size_t b = 0; b < d.utilization.size(); ++b)
            o += (b ? "," : "") + num(d.utilization[b]);
        o += "]}";
    }
    o += "\n  ],\n  \"top_kernels\": [";
    for (size_t i = 0; i < r.topKernels.size(); ++i)
        o += std::string(i ? "," : "") + "\n    {\"name\": " + quote(r.topKernels[i].name)
            + ", \"count\": " + num(r.topKernels[i].count) + ", \"total_ns\": " + num(r.topKernels[i].totalNs) + "}";
    o += "\n  ],\n  \"memory\": [";
    for (size_t i = 0; i < r.memory.size(); ++i) {
        const auto& m = r.memory[i];
        int64_t peakReserved = 0, peakAllocated = 0;
        for (const auto& p : m.points) {
            peakReserved = std::max(peakReserved, p.reserved);
            peakAllocated = std::max(peakAllocated, p.allocated);
        }
        o += std::string(i ? "," : "") + "\n    {\"device\": " + num(m.deviceId) + ", \"capacity_bytes\": "
            + num(m.capacityBytes) + ", \"peak_reserved_bytes\": " + num(peakReserved) + ", \"peak_allocated_bytes\": "
            + num(peakAllocated) + ", \"points\": " + num(static_cast<int64_t>(m.points.size())) + "}";
    }
    o += "\n  ]\n}\n";
    return o;
}

} // namespace placescope
