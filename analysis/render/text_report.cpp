// SPDX-License-Identifier: MIT
// Text and Markdown reports: the same content, ranked findings first, then the run's figures.
#include "analysis/render/report_writer.h"

#include "analysis/findings/saving_text.h"
#include "profiler/base/units.h"

#include <cstdio>

namespace placescope {

namespace {

std::string evidenceLine(const Evidence& e)
{
    std::string line = e.what;
    if (e.count)
        line += ": " + std::to_string(e.count);
    if (e.totalNs)
        line += (e.count ? ", " : ": ") + formatNanoseconds(static_cast<double>(e.totalNs));
    if (e.totalBytes)
        line += ", " + formatBytes(e.totalBytes);
    return line;
}

// Example ranges as "at <ms since the trace's first event>, lasting <ms>".
std::string rangeLine(const EvidenceRange& r, int64_t originNs)
{
    if (r.startNs < 0)
        return r.label;
    const std::string at = formatNanoseconds(static_cast<double>(r.startNs - originNs));
    if (r.endNs > r.startNs)
        return "[at " + at + ", " + formatNanoseconds(static_cast<double>(r.endNs - r.startNs)) + "] " + r.label;
    return "[at " + at + "] " + r.label;
}

std::string header(const AnalysisReport& r)
{
    // Counts with thousands separators and times through the units formatter, as everywhere else people read them.
    return "Steps: " + withThousands(r.stepCount) + " from " + r.stepSource + " (" + r.stepDescription + "), mean "
        + formatNanoseconds(r.meanStepMs * 1e6) + (r.stepTimeHow.empty() ? "" : ", " + r.stepTimeHow)
        + "\nKernels: " + withThousands(r.kernelCount) + " (" + formatNanoseconds(static_cast<double>(r.kernelNs))
        + "), copies: " + withThousands(r.memcpyCount) + ", memsets: " + withThousands(r.memsetCount) + "\n";
}

// The GPU time breakdown and the layout-conversion line: what a trace without GPU work leaves out.
std::string gpuTextSection(const AnalysisReport& r)
{
    std::string out;
    out += "\nGPU time breakdown (analysed steps):\n";
    for (const auto& d : r.devices) {
        double w = d.windowNs > 0 ? static_cast<double>(d.windowNs) : 1.0;
        char buf[256];
        std::snprintf(buf, sizeof buf, "  %-16s compute %s, communication %s, copies %s, idle %s\n", d.label.c_str(),
            formatPercent(100.0 * d.computeNs / w).c_str(), formatPercent(100.0 * d.commNs / w).c_str(),
            formatPercent(100.0 * d.copyOnlyNs / w).c_str(), formatPercent(100.0 * d.idleNs / w).c_str());
        out += buf;
    }
    if (r.kernelNs > 0) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
            "Layout conversion kernels (cuDNN nchwToNhwc/nhwcToNchw, reformat, transpose): %lld, %s, %s of kernel "
            "time\n",
            static_cast<long long>(r.layoutKernelCount),
            formatNanoseconds(static_cast<double>(r.layoutKernelNs)).c_str(),
            formatPercent(100.0 * static_cast<double>(r.layoutKernelNs) / static_cast<double>(r.kernelNs)).c_str());
        out += buf;
    }
    return out;
}

} // namespace

std::string renderTextReport(const AnalysisReport& r)
{
    std::string out
        = "Placescope analysis of " + r.traceName + (r.gpuName.empty() ? "" : " (" + r.gpuName + ")") + "\n";
    out += header(r);
    for (const auto& note : r.notes)
        out += "Note: " + note + "\n";
    if (r.findings.empty())
        out += std::string("\n") + kNoFindingsText + "\n";
    int rank = 0;
    for (const auto& f : r.findings) {
        out += "\n#" + std::to_string(++rank) + " [" + std::string(severityName(f.severity)) + "] " + f.title + "\n";
        out += "   Saving: " + savingText(f.saving) + "\n   " + f.summary + "\n   Evidence:\n";
        for (const auto& e : f.evidence) {
            out += "     - " + evidenceLine(e) + "\n";
            for (const auto& x : e.examples)
                out += "         " + rangeLine(x, r.originNs) + "\n";
        }
        out += "   How estimated: " + f.saving.method + "\n";
        for (const FrameworkFix& fix : frameworkFixes(f.fix))
            out += "   Fix (" + std::string(fix.label) + "): " + *fix.text + "\n";
    }
    if (const std::string all = allFixesText(r); !all.empty())
        out += "\n" + all + "\n";
    out += r.hasGpuWork() ? gpuTextSection(r) : std::string("\n") + kNoGpuWorkText + "\n";
    if (r.tfOpPlacement)
        out += opPlacementLine(*r.tfOpPlacement) + "\n";
    return out;
}

std::string renderMarkdownReport(const AnalysisReport& r)
{
    std::string out = "# Placescope analysis of `" + r.traceName + "`\n\n";
    if (!r.gpuName.empty())
        out += "GPU: " + r.gpuName + "  \n";
    std::string h = header(r);
    for (size_t p; (p = h.find('\n')) != std::string::npos;)
        h.replace(p, 1, "  \r");
    for (char& c : h)
        if (c == '\r')
            c = '\n';
    out += h + "\n";
    for (const auto& note : r.notes)
        out += "> Note: " + note + "\n\n";
    out += "## Findings\n\n";
    if (r.findings.empty())
        out += std::string(kNoFindingsText) + "\n\n";
    else {
        out += "| # | severity | finding | saving |\n|---|---|---|---|\n";
        int rank = 0;
        for (const auto& f : r.findings)
            out += "| " + std::to_string(++rank) + " | " + std::string(severityName(f.severity)) + " | " + f.title
                + " | " + savingText(f.saving) + " |\n";
        out += "\n";
    }
    if (const std::string all = allFixesText(r); !all.empty())
        out += all + "\n\n";
    int rank = 0;
    for (const auto& f : r.findings) {
        out += "### " + std::to_string(++rank) + ". " + f.title + " (" + std::string(severityName(f.severity))
            + ")\n\n";
        out += f.summary + "\n\n**Saving:** " + savingText(f.saving) + ". *How estimated:* " + f.saving.method + "\n\n";
        out += "**Evidence**\n\n";
        for (const auto& e : f.evidence) {
            out += "- " + evidenceLine(e) + "\n";
            for (const auto& x : e.examples)
                out += "  - `" + rangeLine(x, r.originNs) + "`\n";
        }
        out += "\n**Fix**\n\n";
        for (const FrameworkFix& fix : frameworkFixes(f.fix))
            out += "- " + std::string(fix.label) + ": " + *fix.text + "\n";
        out += "\n";
    }
    if (!r.hasGpuWork())
        out += "## GPU work\n\n" + std::string(kNoGpuWorkText) + "\n";
    else
        out += "## GPU time breakdown\n\n| device | compute | communication | copies | idle |\n|---|---|---|---|---|\n";
    for (const auto& d : r.devices) {
        double w = d.windowNs > 0 ? static_cast<double>(d.windowNs) : 1.0;
        out += "| " + d.label + " | " + formatPercent(100.0 * d.computeNs / w) + " | "
            + formatPercent(100.0 * d.commNs / w) + " | " + formatPercent(100.0 * d.copyOnlyNs / w) + " | "
            + formatPercent(100.0 * d.idleNs / w) + " |\n";
    }
    if (r.tfOpPlacement)
        out += "\n## TensorFlow op placement\n\n" + opPlacementText(*r.tfOpPlacement) + "\n\n" + opPlacementMeaning()
            + "\n";
    if (!r.hasGpuWork())
        return out;
    out += "\n## Top kernels\n\n| kernel | count | total |\n|---|---|---|\n";
    for (const auto& k : r.topKernels)
        out += "| `" + k.name.substr(0, 100) + "` | " + std::to_string(k.count) + " | "
            + formatNanoseconds(static_cast<double>(k.totalNs)) + " |\n";
    return out;
}

} // namespace placescope
