// SPDX-License-Identifier: MIT
#include "placement/cost/model_trace_match.h"

#include "placement/cost/op_work.h"
#include "placement/cost/ort_node_times.h"
#include "profiler/store/trace_file.h"

#include <simdjson.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace placescope {
namespace {

struct TraceOp
{
    int64_t globalTid;
    int64_t startNs;
    int64_t endNs;
    bool hasShape; // the trace recorded the first input's shape
    std::vector<int64_t> shape; // that shape
};

// The first input's shape of a recorded op ([[32,3,224,224],[64,3,7,7]] -> 32,3,224,224); false when the trace
// recorded none (or the first input is not a flat list of integers).
bool firstInputShape(simdjson::dom::parser& parser, const std::string& json, std::vector<int64_t>& shape)
{
    shape.clear();
    simdjson::dom::array items;
    if (json.empty() || parser.parse(json).get_array().get(items) != simdjson::SUCCESS)
        return false;
    for (simdjson::dom::element item : items) {
        simdjson::dom::array numbers;
        if (item.get_array().get(numbers) != simdjson::SUCCESS)
            return false;
        for (simdjson::dom::element number : numbers) {
            int64_t value = 0;
            if (number.get_int64().get(value) != simdjson::SUCCESS)
                return false;
            shape.push_back(value);
        }
        return true;
    }
    return false;
}

// A model's shape against a recorded one: same rank, and each dimension equal where the model knows it; the
// batch (dimension 0 of a rank >= 2 tensor) may differ, as a model exported for batch 1 runs any batch.
bool sameShape(const std::vector<int64_t>& model, const std::vector<int64_t>& recorded)
{
    if (model.size() != recorded.size())
        return false;
    for (size_t i = 0; i < model.size(); ++i)
        if (model[i] >= 0 && model[i] != recorded[i] && !(i == 0 && model.size() >= 2))
            return false;
    return true;
}

// Keeps the outermost of nested occurrences per thread (aten::conv2d holds aten::convolution, both Conv).
std::vector<OpOccurrence> outermost(std::vector<const TraceOp*> ops)
{
    std::sort(ops.begin(), ops.end(), [](const TraceOp* a, const TraceOp* b) {
        return a->globalTid != b->globalTid ? a->globalTid < b->globalTid : a->startNs < b->startNs;
    });
    std::vector<OpOccurrence> kept;
    int64_t lastTid = -1, lastEnd = INT64_MIN;
    for (const TraceOp* op : ops) {
        if (op->globalTid == lastTid && op->startNs < lastEnd)
            continue;
        kept.push_back({ op->globalTid, op->startNs });
        lastTid = op->globalTid;
        lastEnd = op->endNs;
    }
    return kept;
}

} // namespace

std::string ModelTraceMatch::summary() const
{
    if (comparedOps == 0)
        return "the model has no op that runs anything, so nothing of it can be found in the trace";
    const std::string counts = std::to_string(matchedOps) + " of the model's " + std::to_string(comparedOps) + " ops";
    if (traceOps == 0)
        return "the trace records no framework ops, so none of the model's " + std::to_string(comparedOps)
            + " ops can be found in it";
    if (matchedOps == 0)
        return "none of the model's " + std::to_string(comparedOps) + " ops ran in this trace (matched by " + rule
            + "): the model is likely not what the trace recorded";
    if (mismatch())
        return "only " + counts + " ran in this trace (matched by " + rule
            + "): the model is likely not what the trace recorded";
    if (byNodeName && matchedOps < comparedOps)
        return counts + " ran under their own name in this ONNX Runtime profile (matched by " + rule + "); the other "
            + std::to_string(comparedOps - matchedOps)
            + " were fused, renamed or removed by its graph optimizer, or did not run";
    return counts + " ran in this trace (matched by " + rule + ")";
}

Result<ModelTraceMatch> matchModelToTrace(const ModelGraph& model, const std::string& tracePath)
{
    PLACESCOPE_ASSIGN_OR_RETURN(auto db, openTrace(tracePath));
    ModelTraceMatch match;
    match.occurrences.resize(model.ops.size());
    const bool byOccurrence = model.source == "trace-ops";
    match.byNodeName = model.source == "onnx" && isOrtProfileTrace(db);
    const bool byName = byOccurrence || match.byNodeName; // the trace's op name is the model op's
    match.rule = byOccurrence ? "the same occurrence"
        : match.byNodeName    ? "the same node name"
                              : "the same kind of op on inputs of the same shape";
    for (const ModelOp& op : model.ops)
        match.comparedOps += op.producesWeight ? 0 : 1;
    if (!db.hasTable("PS_FRAMEWORK_OPS"))
        return match;

    // The kinds the model asks for, so only their rows are kept (a large trace holds far more ops).
    auto kindOf = [&](const ModelOp& op) {
        return byOccurrence ? op.type : match.byNodeName ? op.name : canonicalOpType(op.type);
    };
    std::set<std::string> wanted;
    for (const ModelOp& op : model.ops)
        wanted.insert(kindOf(op));
    std::map<std::string, std::vector<TraceOp>> byKind; // name (trace-ops, ORT node) or canonical type -> ops
    // An ORT profile's node runs; its session events and fences are no node of the model.
    PLACESCOPE_ASSIGN_OR_RETURN(auto stmt,
        db.prepare(std::string("SELECT o.globalTid, o.start, o.end, s.value, COALESCE(o.inputDims, '') FROM "
                               "PS_FRAMEWORK_OPS o JOIN StringIds s ON s.id = o.nameId WHERE ")
            + (match.byNodeName ? "o.category IN ('ort_node', 'ort_memcpy', 'ort_layout')"
                                : "o.category NOT IN ('user_annotation', 'gpu_user_annotation', 'python_function')")));
    std::unordered_map<std::string, const std::string*> kindOfName; // each distinct name canonicalised once
    simdjson::dom::parser parser;
    std::vector<int64_t> shape;
    while (stmt.step()) {
        ++match.traceOps;
        const std::string name = stmt.columnText(3);
        auto known = kindOfName.find(name);
        if (known == kindOfName.end()) {
            const std::string kind = byName ? name : canonicalOpType(name);
            auto it = wanted.find(kind);
            known = kindOfName.emplace(name, it == wanted.end() ? nullptr : &*it).first;
        }
        if (!known->second)
            continue;
        const bool hasShape = !byName && firstInputShape(parser, stmt.columnText(4), shape);
        byKind[*known->second].push_back({ stmt.columnInt(0), stmt.columnInt(1), stmt.columnInt(2), hasShape, shape });
    }
    PLACESCOPE_RETURN_IF_ERROR(stmt.status());
    auto byThreadAndStart = [](const TraceOp& a, const TraceOp& b) {
        return a.globalTid != b.globalTid ? a.globalTid < b.globalTid : a.startNs < b.startNs;
    };
    if (byName)
        for (auto& [kind, ops] : byKind)
            std::sort(ops.begin(), ops.end(), byThreadAndStart);

    for (size_t i = 0; i < model.ops.size(); ++i) {
        const ModelOp& op = model.ops[i];
        if (op.producesWeight)
            continue;
        auto kind = byKind.find(kindOf(op));
        if (kind == byKind.end())
            continue;
        std::vector<const TraceOp*> hits;
        if (match.byNodeName) {
            for (const TraceOp& traceOp : kind->second)
                hits.push_back(&traceOp);
        } else if (byOccurrence) {
            const auto [from, to] = std::equal_range(kind->second.begin(), kind->second.end(),
                TraceOp { op.traceGlobalTid, op.traceStartNs, 0, false, {} }, byThreadAndStart);
            for (auto it = from; it != to; ++it)
                hits.push_back(&*it);
        } else {
            const ModelValue* input
                = op.inputs.empty() ? nullptr : &model.values[static_cast<size_t>(op.inputs.front())];
            const bool shapeKnown = input && input->shapeKnown && !input->shape.empty();
            for (const TraceOp& traceOp : kind->second)
                if (!shapeKnown || (traceOp.hasShape && sameShape(input->shape, traceOp.shape)))
                    hits.push_back(&traceOp);
        }
        match.occurrences[i] = outermost(std::move(hits));
        match.matchedOps += match.occurrences[i].empty() ? 0 : 1;
    }
    return match;
}

} // namespace placescope
