// SPDX-License-Identifier: MIT
#include "placement/cost/ort_node_times.h"

#include <nlohmann/json.hpp>

#include <utility>

namespace placescope {

bool isOrtProfileTrace(SqliteDb& db)
{
    if (!db.hasTable("PS_META"))
        return false;
    auto count
        = db.queryInt("SELECT COUNT(*) FROM PS_META WHERE key = 'source_format' AND value = 'onnxruntime_profile'");
    return count.isOk() && count.value() > 0;
}

Result<OrtNodeTimes> readOrtNodeTimes(const std::string& tracePath)
{
    // Opened as the link model and the device table open it: an nsys export given as the trace is no ORT profile,
    // not an error.
    PLACESCOPE_ASSIGN_OR_RETURN(auto db, SqliteDb::open(tracePath, SqliteDb::Mode::ReadOnly));
    OrtNodeTimes times;
    if (!isOrtProfileTrace(db) || !db.hasTable("PS_FRAMEWORK_OPS"))
        return times;
    times.fromOrtProfile = true;
    PLACESCOPE_ASSIGN_OR_RETURN(times.runs,
        db.queryInt("SELECT COUNT(*) FROM PS_FRAMEWORK_OPS o JOIN StringIds s ON s.id = o.nameId "
                    "WHERE o.category = 'ort_session' AND s.value = 'model_run'"));
    // The importer's categories of a node's run (its fences are ort_fence, the session's events ort_session).
    PLACESCOPE_ASSIGN_OR_RETURN(auto stmt,
        db.prepare("SELECT s.value, COUNT(*), SUM(o.end - o.start), COALESCE(MIN(o.extra), '') "
                   "FROM PS_FRAMEWORK_OPS o JOIN StringIds s ON s.id = o.nameId "
                   "WHERE o.category IN ('ort_node', 'ort_memcpy', 'ort_layout') GROUP BY s.value"));
    while (stmt.step()) {
        OrtNodeTime node;
        node.occurrences = stmt.columnInt(1);
        node.totalNs = stmt.columnInt(2);
        const int64_t per = times.runs > 0 ? times.runs : node.occurrences;
        node.meanUs = static_cast<double>(node.totalNs) / 1000.0 / static_cast<double>(per);
        // Every run of one node names the same provider: ORT assigns a node's provider once, at session creation.
        const auto extra = nlohmann::json::parse(stmt.columnText(3), nullptr, false);
        if (extra.is_object()) {
            node.provider = extra.value("provider", std::string());
            const std::string device = extra.value("device", std::string());
            node.device = device == "GPU" ? "gpu" : device == "CPU" ? "cpu" : "";
        }
        times.byName.emplace(stmt.columnText(0), std::move(node));
    }
    PLACESCOPE_RETURN_IF_ERROR(stmt.status());
    return times;
}

size_t applyOrtNodeTimes(ModelGraph& model, const OrtNodeTimes& times)
{
    if (!times.fromOrtProfile || model.source != "onnx")
        return 0;
    size_t applied = 0;
    for (ModelOp& op : model.ops) {
        auto node = times.byName.find(op.name);
        if (node == times.byName.end() || op.producesWeight)
            continue;
        const OrtNodeTime& measured = node->second;
        // A provider the importer does not know leaves the device open: the time is still the node's, on neither
        // device's cost, as where it ran is unknown.
        if (measured.device == "gpu")
            op.measuredGpuUs = measured.meanUs;
        else if (measured.device == "cpu")
            op.measuredCpuUs = measured.meanUs;
        op.measuredDevice = measured.device;
        op.measuredProvider = measured.provider;
        ++applied;
    }
    return applied;
}

Result<ModelGraph> withTraceMeasurements(ModelGraph model, const std::string& tracePath)
{
    if (tracePath.empty() || model.source != "onnx")
        return model;
    PLACESCOPE_ASSIGN_OR_RETURN(OrtNodeTimes times, readOrtNodeTimes(tracePath));
    applyOrtNodeTimes(model, times);
    return model;
}

} // namespace placescope
