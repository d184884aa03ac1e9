// SPDX-License-Identifier: MIT
// JSON report for scripts: every finding with its evidence, saving and fixes, and the run's figures. Written with
// nlohmann::json like the program's other JSON (stats, reports, diff, what-if); keys keep the order they are set in
// (ordered_json), a non-finite figure is null, and text that is not UTF-8 is replaced, not an error.
#include "analysis/render/report_writer.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace placescope {

namespace {

using Json = nlohmann::ordered_json;

Json savingJson(const Saving& s)
{
    Json j = { { "per_step_ms", s.perStepMs }, { "percent_of_step", s.percentOfStep },
        { "memory_bytes", s.memoryBytes }, { "upper_bound", s.upperBound }, { "method", s.method } };
    if (s.simulated) {
        j["simulated_ms"] = s.simulatedMs;
        j["simulated_edit"] = s.simulatedEdit;
        j["simulated_above_bound"] = s.simulatedAboveBound();
        if (s.simulatedStepSpread >= 0)
            j["simulated_step_spread"] = s.simulatedStepSpread;
        if (!s.simulatedWhy.empty())
            j["simulated_why"] = s.simulatedWhy;
    }
    return j;
}

Json findingJson(const Finding& f)
{
    Json evidence = Json::array();
    for (const Evidence& e : f.evidence) {
        Json examples = Json::array();
        for (const EvidenceRange& x : e.examples)
            examples.push_back({ { "start_ns", x.startNs }, { "end_ns", x.endNs }, { "label", x.label } });
        evidence.push_back({ { "what", e.what }, { "count", e.count }, { "total_ns", e.totalNs },
            { "total_bytes", e.totalBytes }, { "examples", std::move(examples) } });
    }
    Json fix = Json::object();
    for (const FrameworkFix& framework : frameworkFixes(f.fix))
        fix[std::string(framework.jsonKey)] = *framework.text;
    return { { "rule", f.ruleId }, { "title", f.title }, { "severity", std::string(severityName(f.severity)) },
        { "summary", f.summary }, { "saving", savingJson(f.saving) }, { "evidence", std::move(evidence) },
        { "fix", std::move(fix) } };
}

Json deviceJson(const DeviceBreakdown& d)
{
    Json causes = Json::object();
    for (int c = 0; c < kIdleCauseCount; ++c)
        causes[std::string(idleCauseName(static_cast<IdleCause>(c)))] = d.idleCauseNs[c];
    return { { "label", d.label }, { "window_ns", d.windowNs }, { "compute_ns", d.computeNs },
        { "communication_ns", d.commNs }, { "copy_ns", d.copyOnlyNs }, { "idle_ns", d.idleNs },
        { "idle_causes_ns", std::move(causes) }, { "utilization", d.utilization } };
}

Json memoryJson(const MemoryCurve& m)
{
    int64_t peakReserved = 0, peakAllocated = 0;
    for (const auto& p : m.points) {
        peakReserved = std::max(peakReserved, p.reserved);
        peakAllocated = std::max(peakAllocated, p.allocated);
    }
    return { { "device", m.deviceId }, { "capacity_bytes", m.capacityBytes }, { "peak_reserved_bytes", peakReserved },
        { "peak_allocated_bytes", peakAllocated }, { "points", static_cast<int64_t>(m.points.size()) } };
}

} // namespace

std::string renderJsonReport(const AnalysisReport& r)
{
    Json o;
    o["trace"] = r.traceName;
    o["source_format"] = r.sourceFormat;
    o["gpu"] = r.gpuName;
    o["origin_ns"] = r.originNs;
    o["steps"] = { { "source", r.stepSource }, { "description", r.stepDescription }, { "count", r.stepCount },
        { "mean_ms", r.meanStepMs }, { "step_time", r.stepTimeHow } };
    o["kernels"] = { { "count", r.kernelCount }, { "total_ns", r.kernelNs },
        { "layout_conversion_count", r.layoutKernelCount }, { "layout_conversion_ns", r.layoutKernelNs } };
    if (const auto& p = r.tfOpPlacement)
        o["tf_op_placement"] = { { "host_ops", p->hostOps }, { "device_ops", p->deviceOps },
            { "host_op_percent", p->hostOpPercent() }, { "device_op_percent", 100.0 - p->hostOpPercent() },
            { "host_op_ns", p->hostOpNs }, { "device_op_ns", p->deviceOpNs } };
    o["memcpy_count"] = r.memcpyCount;
    o["memset_count"] = r.memsetCount;
    o["notes"] = r.notes;
    if (r.allFixes)
        o["all_fixes"] = { { "edits", r.allFixes->edits }, { "measured_step_ns", r.allFixes->measuredStepNs },
            { "replay_step_ns", r.allFixes->replayStepNs }, { "predicted_step_ns", r.allFixes->predictedStepNs } };
    o["findings"] = Json::array();
    for (const Finding& f : r.findings)
        o["findings"].push_back(findingJson(f));
    o["devices"] = Json::array();
    for (const DeviceBreakdown& d : r.devices)
        o["devices"].push_back(deviceJson(d));
    o["top_kernels"] = Json::array();
    for (const TopKernel& k : r.topKernels)
        o["top_kernels"].push_back({ { "name", k.name }, { "count", k.count }, { "total_ns", k.totalNs } });
    o["memory"] = Json::array();
    for (const MemoryCurve& m : r.memory)
        o["memory"].push_back(memoryJson(m));
    return o.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace placescope
