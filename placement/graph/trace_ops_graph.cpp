// SPDX-License-Identifier: MIT
#include "placement/graph/trace_ops_graph.h"

#include "analysis/trace/step_detector.h"
#include "analysis/trace/trace_data.h"
#include "placement/graph/graph_file.h"
#include "placement/graph/torch_tensor_facts.h"
#include "profiler/model/global_ids.h"
#include "profiler/store/trace_file.h"

#include <simdjson.h>

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace placescope {

namespace {

constexpr size_t kChainWindow = 64; // how far back an input may chain to an earlier op's output

struct Argument
{
    std::vector<int64_t> shape;
    bool isTensor = false; // a recorded shape of rank >= 1 and a tensor dtype
    std::string dtype;
    DataLayout layout = DataLayout::None; // from the recorded strides (channels_last = NHWC)
};

// Kineto names framework ops "cpu_op"; the 2021 legacy schema named them "Operator".
bool isFrameworkOp(const std::string& category) { return category == "cpu_op" || category == "Operator"; }

struct GpuWork
{
    int64_t ns = 0;
    int count = 0; // kernels and memsets
    void add(const GpuWork& other)
    {
        ns += other.ns;
        count += other.count;
    }
};

// Kernels and memsets attributed to what launched them. Through PS_EXTERNAL_CORRELATION to the framework op's
// externalId where that id names a recorded op; otherwise (traces whose runtime "External id" is just the
// correlation id, as the HTA AlexNet trace) by the launching API call, which then belongs to the op whose time
// span on the same thread contains the call. Copies are transfers: the cost model prices them on the edges.
struct WorkIndex
{
    std::unordered_map<uint64_t, GpuWork> byExternalId; // (pid, externalId)
    std::unordered_map<uint64_t, GpuWork> byCorrelation; // (pid, correlationId), not reachable by externalId
};

WorkIndex indexGpuWork(const TraceData& trace)
{
    std::unordered_set<uint64_t> opExternalIds;
    for (const HostRange& range : trace.hostRanges)
        if (isFrameworkOp(range.category) && range.externalId >= 0)
            opExternalIds.insert(TraceData::correlationKey(globalPidOfGlobalTid(range.globalTid), range.externalId));
    WorkIndex index;
    for (const GpuOp& gpuOp : trace.gpuOps) {
        if (gpuOp.kind == GpuOp::Kind::Memcpy || gpuOp.correlationId < 0)
            continue;
        const GpuWork work { gpuOp.durationNs(), 1 };
        const uint64_t correlation = TraceData::correlationKey(gpuOp.globalPid, gpuOp.correlationId);
        auto it = trace.externalIdOfCorrelation.find(correlation);
        if (it != trace.externalIdOfCorrelation.end()) {
            const uint64_t external = TraceData::correlationKey(gpuOp.globalPid, it->second);
            if (opExternalIds.count(external)) {
                index.byExternalId[external].add(work);
                continue;
            }
        }
        index.byCorrelation[correlation].add(work);
    }
    return index;
}

struct TopOp
{
    const HostRange* range = nullptr;
    GpuWork gpu; // linked to the op or the ops it called
    std::string scope;
    std::vector<Argument> arguments;
};

// A list of flat integer lists ([[32,3,224,224],[],...]); a member that is not flat (a tensor list) is
// returned empty with `flat` false.
std::vector<std::vector<int64_t>> parseIntLists(
    simdjson::dom::parser& parser, const std::string& json, std::vector<bool>* flat)
{
    std::vector<std::vector<int64_t>> lists;
    simdjson::dom::array items;
    if (json.empty() || parser.parse(json).get_array().get(items) != simdjson::SUCCESS)
        return lists;
    for (simdjson::dom::element item : items) {
        std::vector<int64_t> list;
        simdjson::dom::array numbers;
        bool isFlat = item.get_array().get(numbers) == simdjson::SUCCESS;
        if (isFlat)
            for (simdjson::dom::element number : numbers) {
                int64_t value = 0;
                if (number.get_int64().get(value) != simdjson::SUCCESS) {
                    isFlat = false;
                    list.clear();
                    break;
                }
                list.push_back(value);
            }
        lists.push_back(std::move(list));
        if (flat)
            flat->push_back(isFlat);
    }
    return lists;
}

std::vector<Argument> parseArguments(
    const std::string& dimsJson, const std::string& typesJson, const std::string& stridesJson)
{
    std::vector<Argument> arguments;
    simdjson::dom::parser parser;
    std::vector<bool> flat;
    std::vector<std::vector<int64_t>> shapes = parseIntLists(parser, dimsJson, &flat);
    const std::vector<std::vector<int64_t>> strides = parseIntLists(parser, stridesJson, nullptr);
    for (size_t i = 0; i < shapes.size(); ++i) {
        Argument argument;
        argument.shape = std::move(shapes[i]);
        argument.isTensor = flat[i] && !argument.shape.empty();
        if (i < strides.size())
            argument.layout = layoutFromStrides(argument.shape, strides[i]);
        arguments.push_back(std::move(argument));
    }
    simdjson::dom::parser typeParser;
    simdjson::dom::array types;
    if (!typesJson.empty() && typeParser.parse(typesJson).get_array().get(types) == simdjson::SUCCESS) {
        size_t index = 0;
        for (simdjson::dom::element type : types) {
            std::string_view text;
            if (index < arguments.size() && type.get_string().get(text) == simdjson::SUCCESS)
                arguments[index].dtype = dtypeFromTorchName(std::string(text));
            ++index;
        }
    }
    for (Argument& argument : arguments)
        argument.isTensor = argument.isTensor && !argument.dtype.empty();
    return arguments;
}

// The window of one iteration in host time. Recorded and annotated steps are host ranges already; a step found
// from a repeating kernel pattern is a GPU time window, so it becomes the span of the ops that launched its work.
struct StepChoice
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    std::string note;
};

StepChoice chooseStep(const TraceData& trace, const StepSet& steps)
{
    StepChoice choice { INT64_MIN, INT64_MAX, "" };
    if (steps.source == StepSet::Source::WholeTrace || steps.steps.empty()) {
        choice.note = "no steps found: the graph holds every op of the trace";
        return choice;
    }
    std::vector<size_t> byDuration(steps.steps.size());
    for (size_t i = 0; i < byDuration.size(); ++i)
        byDuration[i] = i;
    std::stable_sort(byDuration.begin(), byDuration.end(), [&](size_t a, size_t b) {
        return steps.steps[a].endNs - steps.steps[a].startNs < steps.steps[b].endNs - steps.steps[b].startNs;
    });
    // The lower median: of two steps (warmup and measured) the shorter, warm one.
    const StepWindow& step = steps.steps[byDuration[(byDuration.size() - 1) / 2]];
    choice.startNs = step.startNs;
    choice.endNs = step.endNs;
    choice.note = "one iteration: step " + std::to_string(step.stepNumber) + " (median duration) of "
        + std::to_string(steps.steps.size()) + " from " + std::string(stepSourceName(steps.source));
    if (steps.source != StepSet::Source::KernelPattern)
        return choice;
    // The host-side span of the API calls that launched the step's GPU work.
    std::unordered_map<uint64_t, const ApiCall*> callOfCorrelation;
    for (const ApiCall& call : trace.apiCalls)
        if (call.correlationId >= 0)
            callOfCorrelation[TraceData::correlationKey(globalPidOfGlobalTid(call.globalTid), call.correlationId)]
                = &call;
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const GpuOp& work : trace.gpuOps) {
        if (work.startNs < step.startNs || work.startNs >= step.endNs)
            continue;
        auto it = callOfCorrelation.find(TraceData::correlationKey(work.globalPid, work.correlationId));
        if (it != callOfCorrelation.end()) {
            first = std::min(first, it->second->startNs);
            last = std::max(last, it->second->endNs);
        }
    }
    if (first < last) {
        choice.startNs = first;
        choice.endNs = last;
    }
    return choice;
}

bool isStepAnnotation(const std::string& name) { return name.rfind("ProfilerStep", 0) == 0; }

// Benchmarks and training loops that record no steps often wrap each pass in an annotation ("[param|...|warmup|
// forward]", "[param|...|measure|forward]" in the HTA AlexNet trace). Annotations of one thread that hold the
// same sequence of top-level ops (three or more) are taken as iterations; of several such groups, the one with
// the longest sequence. Returns the iterations' windows, empty when nothing repeats.
std::vector<StepWindow> repeatedAnnotationSteps(
    const TraceData& trace, const std::map<int64_t, std::vector<TopOp>>& threads)
{
    std::map<std::string, std::vector<StepWindow>> windowsBySequence;
    std::map<std::string, size_t> lengthOfSequence;
    for (const HostRange& range : trace.hostRanges) {
        if (range.category != "user_annotation" && !range.isNvtx)
            continue;
        auto thread = threads.find(range.globalTid);
        if (thread == threads.end())
            continue;
        const std::vector<TopOp>& tops = thread->second;
        auto first = std::lower_bound(tops.begin(), tops.end(), range.startNs,
            [](const TopOp& top, int64_t time) { return top.range->startNs < time; });
        std::string sequence;
        size_t length = 0;
        for (auto it = first; it != tops.end() && it->range->startNs < range.endNs; ++it, ++length)
            sequence += trace.name(it->range->nameId) + "\n";
        if (length < 3)
            continue;
        sequence = std::to_string(range.globalTid) + ":" + sequence;
        windowsBySequence[sequence].push_back({ 0, range.startNs, range.endNs, -1 });
        lengthOfSequence[sequence] = length;
    }
    std::vector<StepWindow> steps;
    size_t bestLength = 0;
    for (const auto& [sequence, windows] : windowsBySequence) {
        // Nested annotations with the same ops (an outer range holding exactly one inner one) are one pass.
        std::vector<StepWindow> disjoint;
        for (const StepWindow& window : windows)
            if (disjoint.empty() || window.startNs >= disjoint.back().endNs)
                disjoint.push_back(window);
        if (disjoint.size() >= 2 && lengthOfSequence[sequence] > bestLength) {
            bestLength = lengthOfSequence[sequence];
            steps = std::move(disjoint);
        }
    }
    for (size_t i = 0; i < steps.size(); ++i)
        steps[i].stepNumber = static_cast<int64_t>(i);
    return steps;
}

// Outermost framework ops per thread inside the window, with the GPU work of everything nested in them and the
// annotations around them as scope.
// Input strides by (thread, start, name): TraceData leaves them out, so they are read here, for traces that have them.
using StrideIndex = std::map<std::tuple<int64_t, int64_t, int64_t>, std::string>;

StrideIndex readInputStrides(SqliteDb& db)
{
    StrideIndex strides;
    if (!db.hasTable("PS_FRAMEWORK_OPS"))
        return strides;
    auto statement = db.prepare("SELECT globalTid, start, nameId, inputStrides FROM PS_FRAMEWORK_OPS "
                                "WHERE inputStrides IS NOT NULL AND inputStrides != ''");
    if (!statement)
        return strides;
    while (statement->step())
        strides[{ statement->columnInt(0), statement->columnInt(1), statement->columnInt(2) }]
            = statement->columnText(3);
    return strides;
}

std::map<int64_t, std::vector<TopOp>> topLevelOps(
    const TraceData& trace, const StepChoice& window, const WorkIndex& work, const StrideIndex& strides)
{
    std::map<int64_t, std::vector<const HostRange*>> opsByThread, annotationsByThread;
    for (const HostRange& range : trace.hostRanges) {
        if (range.startNs < window.startNs || range.startNs >= window.endNs)
            continue;
        // The 2021 schema records ProfilerStep#N as an "Operator": a step, not an op to place.
        if (isFrameworkOp(range.category) && !isStepAnnotation(trace.name(range.nameId)))
            opsByThread[range.globalTid].push_back(&range);
        else if ((range.category == "user_annotation" || range.isNvtx) && !isStepAnnotation(trace.name(range.nameId)))
            annotationsByThread[range.globalTid].push_back(&range);
    }
    auto outerFirst = [](const HostRange* a, const HostRange* b) {
        return a->startNs != b->startNs ? a->startNs < b->startNs : a->endNs > b->endNs;
    };
    std::map<int64_t, std::vector<TopOp>> result;
    for (auto& [thread, ranges] : opsByThread) {
        std::stable_sort(ranges.begin(), ranges.end(), outerFirst);
        auto& annotations = annotationsByThread[thread];
        std::stable_sort(annotations.begin(), annotations.end(), outerFirst);
        std::vector<const HostRange*> open;
        size_t nextAnnotation = 0;
        std::vector<TopOp>& tops = result[thread];
        for (const HostRange* range : ranges) {
            TopOp* owner = !tops.empty() && range->startNs < tops.back().range->endNs ? &tops.back() : nullptr;
            if (!owner) {
                while (nextAnnotation < annotations.size() && annotations[nextAnnotation]->startNs <= range->startNs)
                    open.push_back(annotations[nextAnnotation++]);
                open.erase(std::remove_if(open.begin(), open.end(),
                               [&](const HostRange* a) { return a->endNs <= range->startNs; }),
                    open.end());
                TopOp top;
                top.range = range;
                for (const HostRange* annotation : open)
                    top.scope += (top.scope.empty() ? "" : "/") + trace.name(annotation->nameId);
                auto stride = strides.find({ range->globalTid, range->startNs, range->nameId });
                top.arguments = parseArguments(
                    range->inputDims, range->inputTypes, stride != strides.end() ? stride->second : std::string());
                tops.push_back(std::move(top));
                owner = &tops.back();
            }
            auto it = work.byExternalId.find(
                TraceData::correlationKey(globalPidOfGlobalTid(range->globalTid), range->externalId));
            if (range->externalId >= 0 && it != work.byExternalId.end())
                owner->gpu.add(it->second);
        }
    }
    // Work reachable only through its launching call: the top-level op around the call on the call's thread.
    for (const ApiCall& call : trace.apiCalls) {
        auto it = work.byCorrelation.find(
            TraceData::correlationKey(globalPidOfGlobalTid(call.globalTid), call.correlationId));
        auto thread = result.find(call.globalTid);
        if (it == work.byCorrelation.end() || thread == result.end())
            continue;
        std::vector<TopOp>& tops = thread->second;
        auto after = std::upper_bound(tops.begin(), tops.end(), call.startNs,
            [](int64_t time, const TopOp& top) { return time < top.range->startNs; });
        if (after != tops.begin() && call.startNs < std::prev(after)->range->endNs)
            std::prev(after)->gpu.add(it->second);
    }
    return result;
}

} // namespace

Result<ModelGraph> modelGraphFromTrace(const std::string& tracePath)
{
    if (auto head = readGraphFileHead(tracePath, 1); !head)
        return head.status();
    PLACESCOPE_ASSIGN_OR_RETURN(SqliteDb db, openTrace(tracePath, TraceAccess::ReadOnly));
    PLACESCOPE_ASSIGN_OR_RETURN(TraceData trace, TraceData::load(db));
    if (std::none_of(trace.hostRanges.begin(), trace.hostRanges.end(),
            [](const HostRange& range) { return isFrameworkOp(range.category); }))
        return Status::error(tracePath
            + ": the trace has no framework ops (PS_FRAMEWORK_OPS): record it with the "
              "PyTorch profiler or import its Kineto JSON");

    const WorkIndex work = indexGpuWork(trace);

    ModelGraph graph;
    graph.source = "trace-ops";
    graph.path = tracePath;
    StepSet steps = detectSteps(trace);
    if (steps.source == StepSet::Source::WholeTrace) {
        const StepChoice everything { INT64_MIN, INT64_MAX, "" };
        std::vector<StepWindow> repeated
            = repeatedAnnotationSteps(trace, topLevelOps(trace, everything, work, StrideIndex {}));
        if (!repeated.empty()) {
            steps.steps = std::move(repeated);
            steps.source = StepSet::Source::Annotation;
        }
    }
    const StepChoice window = chooseStep(trace, steps);
    graph.notes.push_back(window.note);
    std::map<int64_t, std::vector<TopOp>> threads = topLevelOps(trace, window, work, readInputStrides(db));

    // Ops in global time order; each thread's ops keep their order, so every edge points forward.
    struct Placed
    {
        int64_t thread;
        size_t index;
    };
    std::vector<Placed> order;
    for (const auto& [thread, tops] : threads)
        for (size_t i = 0; i < tops.size(); ++i)
            order.push_back({ thread, i });
    std::stable_sort(order.begin(), order.end(), [&](const Placed& a, const Placed& b) {
        return threads[a.thread][a.index].range->startNs < threads[b.thread][b.index].range->startNs;
    });
    std::map<int64_t, std::vector<int>> opIndexOf; // thread -> op index per top-level position
    for (auto& [thread, tops] : threads)
        opIndexOf[thread].assign(tops.size(), -1);
    for (size_t i = 0; i < order.size(); ++i)
        opIndexOf[order[i].thread][order[i].index] = static_cast<int>(i);

    std::unordered_map<std::string, int> typeCount;
    graph.ops.resize(order.size());
    std::vector<int> outputOf(order.size(), -1);
    bool anyShapes = false;
    for (auto& [thread, tops] : threads) {
        const std::vector<int>& opIndex = opIndexOf[thread];
        // Guessed output of op k: what the next op on the thread takes as its first input.
        std::vector<const Argument*> guessedOutput(tops.size(), nullptr);
        for (size_t k = 0; k + 1 < tops.size(); ++k)
            if (!tops[k + 1].arguments.empty() && tops[k + 1].arguments[0].isTensor)
                guessedOutput[k] = &tops[k + 1].arguments[0];
        for (size_t k = 0; k < tops.size(); ++k) {
            const TopOp& top = tops[k];
            ModelOp& op = graph.ops[opIndex[k]];
            op.type = trace.name(top.range->nameId);
            op.name = op.type + "#" + std::to_string(typeCount[op.type]++);
            op.scope = top.scope;
            op.traceStartNs = top.range->startNs;
            op.traceGlobalTid = top.range->globalTid;
            // An op that launched GPU work spent its host time dispatching, which says nothing about what it
            // would cost computed on the CPU: only ops that ran on the host get a measured CPU time.
            const double hostUs = static_cast<double>(top.range->endNs - top.range->startNs) / 1000.0;
            op.measuredCpuUs = top.gpu.count > 0 ? -1.0 : hostUs;
            op.measuredGpuUs = top.gpu.count > 0 ? static_cast<double>(top.gpu.ns) / 1000.0 : -1.0;
            op.measuredDevice = top.gpu.count > 0 ? "gpu" : "cpu";

            ModelValue output;
            output.name = op.name + ":out";
            output.producer = opIndex[k];
            if (guessedOutput[k]) {
                output.shape = guessedOutput[k]->shape;
                output.shapeKnown = true;
                output.dtype = guessedOutput[k]->dtype;
                output.bytes = staticTensorBytes(output.shape, true, output.dtype);
                output.layout = guessedOutput[k]->layout;
            }
            output.isGraphOutput = k + 1 == tops.size();
            graph.values.push_back(std::move(output));
            outputOf[opIndex[k]] = static_cast<int>(graph.values.size()) - 1;
            op.outputs.push_back(outputOf[opIndex[k]]);
        }
        for (size_t k = 0; k < tops.size(); ++k) {
            const TopOp& top = tops[k];
            ModelOp& op = graph.ops[opIndex[k]];
            for (size_t j = 0; j < top.arguments.size(); ++j) {
                const Argument& argument = top.arguments[j];
                anyShapes |= argument.isTensor;
                if (j == 0 && k > 0)
                    continue; // the previous op's output, added below
                if (!argument.isTensor)
                    continue;
                int source = -1;
                for (size_t back = 2; j > 0 && back <= k && back <= kChainWindow; ++back) {
                    const Argument* candidate = guessedOutput[k - back];
                    if (candidate && candidate->shape == argument.shape && candidate->dtype == argument.dtype) {
                        source = outputOf[opIndex[k - back]];
                        break;
                    }
                }
                if (source < 0) {
                    ModelValue external;
                    external.name = op.name + ":in" + std::to_string(j);
                    external.shape = argument.shape;
                    external.shapeKnown = true;
                    external.dtype = argument.dtype;
                    external.bytes = staticTensorBytes(external.shape, true, external.dtype);
                    external.layout = argument.layout;
                    external.isWeight = j > 0; // parameters; the first op's data input comes from outside
                    external.isGraphInput = j == 0;
                    graph.values.push_back(std::move(external));
                    source = static_cast<int>(graph.values.size()) - 1;
                }
                if (std::find(op.inputs.begin(), op.inputs.end(), source) == op.inputs.end())
                    op.inputs.push_back(source);
            }
            if (k > 0)
                op.inputs.insert(op.inputs.begin(), outputOf[opIndex[k - 1]]);
        }
    }
    if (!anyShapes)
        graph.notes.push_back("the trace records no input shapes (profiler record_shapes off): edges follow "
                              "program order only and sizes are unknown");
    graph.notes.push_back("data edges approximated from program order and matching shapes (a trace has no tensor ids)");
    if (graph.ops.empty())
        return Status::error(tracePath + ": no framework op falls inside the chosen step");
    return graph;
}

} // namespace placescope
