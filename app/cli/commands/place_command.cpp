// SPDX-License-Identifier: MIT
// `placescope place`: proposes a CPU/GPU placement and data layouts.
//   --model model.onnx|et.json|run.sqlite [--trace run.sqlite] [--gpu h100|a100|v100|from-trace]
//   (default GPU: the trace's, as in the GUI; h100 without a trace or when it records none)
//   [--gpu-memory 16GiB] [--framework tf|torch|ort] [--pin NAME=cpu|gpu]... [--objective sum|makespan]
//   [-o proposal.json] [--json]
//   --problem p.json [--objective sum|makespan] [--json]   (a hand-written problem, docs/placement_problem.md)
// Prints the readable proposal (or JSON with --json); -o writes the JSON, complete or not at all, and says so on
// stderr (--quiet: not).
// Errors: one line on stderr, exit 1 (2 for a usage error).
#include "analysis/trace/step_detector.h"
#include "analysis/trace/trace_data.h"
#include "app/cli/command_registry.h"
#include "app/cli/trace_input.h"
#include "placement/cost/capability_table.h"
#include "placement/cost/default_gpu.h"
#include "placement/cost/ort_node_times.h"
#include "placement/cost/placement_model.h"
#include "placement/engine/planner.h"
#include "placement/engine/problem_file.h"
#include "placement/graph/model_loader.h"
#include "placement/layout/layout_pass.h"
#include "placement/proposal/byte_size.h"
#include "placement/proposal/layout_facts.h"
#include "placement/proposal/model_proposal.h"
#include "placement/proposal/placement_figures.h"
#include "profiler/base/output_file.h"
#include "profiler/base/printable_text.h"
#include "profiler/base/units.h"
#include "profiler/store/trace_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace placescope::cli {
namespace {

struct PlaceOptions
{
    std::string problemPath;
    std::string modelPath;
    std::string tracePath;
    std::string gpu; // empty: defaultGpuKey(tracePath)
    std::string gpuMemory;
    std::string framework = "torch";
    std::vector<std::string> pins;
    std::string objective = "sum";
    std::string outputPath;
    bool json = false;
    bool quiet = false;
};

int fail(const std::string& message, int code = 1)
{
    printLine(stderr, "placescope place: %s\n", message.c_str()); // a newline in a name shown as \n
    return code;
}

// A summary, not data: on stderr, as every command's.
void noteWritten(const PlaceOptions& options)
{
    if (!options.quiet)
        printLine(stderr, "placescope place: proposal written to %s\n", options.outputPath.c_str());
}

// The files a run reads: -o must not name any of them.
std::vector<std::string> inputsOf(const PlaceOptions& options)
{
    return { options.problemPath, options.modelPath, options.tracePath };
}

int runProblem(const PlaceOptions& options)
{
    auto graph = loadPlacementProblem(options.problemPath);
    if (!graph.isOk())
        return fail(graph.status().message());
    PlanOptions planOptions;
    planOptions.objective = options.objective == "makespan" ? Objective::Makespan : Objective::Sum;
    auto proposal = plan(*graph, planOptions);
    if (!proposal.isOk())
        return fail(proposal.status().message());
    const std::string json = proposalToJson(*graph, *proposal, planOptions.objective);
    if (!options.outputPath.empty()) {
        Status written = writeFileAtomically(options.outputPath, json + "\n", inputsOf(options));
        if (!written.isOk())
            return fail(written.message());
        noteWritten(options);
    }
    if (options.json) {
        std::printf("%s\n", json.c_str());
        return 0;
    }
    std::printf("objective %s: %s (%s)\n", options.objective.c_str(),
        formatNanoseconds(proposal->objectiveUs * 1e3).c_str(), proposal->exact ? "optimal" : "heuristic");
    for (size_t i = 0; i < graph->ops.size(); ++i)
        std::printf("  %-32s %-10s %s\n", graph->ops[i].id.c_str(), graph->ops[i].type.c_str(),
            graph->devices[proposal->assignment[i]].name.c_str());
    std::printf("transfers: %d, %s, %s; makespan %s\n", proposal->timeline.transferCount,
        formatBytes(proposal->timeline.transferredBytes).c_str(),
        formatNanoseconds(proposal->timeline.transferUs * 1e3).c_str(),
        formatNanoseconds(proposal->timeline.makespanUs * 1e3).c_str());
    return 0;
}

// The values whose form is wrong whatever the model (`--gpu-memory lots`, `--pin x=tpu`): usage errors, exit 2,
// found before any file is read. A well-formed value the model cannot take (an unknown op) is a failure, exit 1.
Status checkUsage(const PlaceOptions& options)
{
    if (!options.gpuMemory.empty())
        if (auto bytes = parseByteSize(options.gpuMemory); !bytes.isOk())
            return Status::error("--gpu-memory: " + bytes.status().message());
    for (const std::string& pin : options.pins) {
        const std::string::size_type equals = pin.rfind('=');
        if (equals == std::string::npos || equals == 0)
            return Status::error("--pin '" + pin + "' is not NAME=cpu or NAME=gpu");
        const std::string device = pin.substr(equals + 1);
        if (device != "cpu" && device != "gpu")
            return Status::error("--pin '" + pin + "': device '" + device + "' is not cpu or gpu");
    }
    return Status::ok();
}

// --pin NAME=cpu|gpu onto the graph op of the model op NAME; errors name the op and the cause.
Status applyPins(const std::vector<std::string>& pins, const ModelGraph& model, const std::string& framework,
    PlacementModel& placement)
{
    for (const std::string& pin : pins) {
        const std::string::size_type equals = pin.rfind('='); // checked by checkUsage
        const std::string name = pin.substr(0, equals);
        const std::string device = pin.substr(equals + 1);
        const int deviceIndex = device == "gpu" ? 1 : 0;
        int modelOp = -1;
        for (size_t i = 0; i < model.ops.size(); ++i)
            if (model.ops[i].name == name) {
                modelOp = static_cast<int>(i);
                break;
            }
        if (modelOp < 0)
            return Status::error("--pin: unknown op '" + name + "' (the model has " + std::to_string(model.ops.size())
                + " ops; op names are in the --json output)");
        const int graphOp = placement.graphOpOfModelOp[modelOp];
        if (graphOp < 0)
            return Status::error(
                "--pin: op '" + name + "' produces a weight and is placed with its consumer; pin the consumer");
        PlacementOp& op = placement.graph.ops[graphOp];
        if (!std::isfinite(op.costUs[deviceIndex]))
            return Status::error("--pin: op '" + name + "' (" + op.type + ") has no " + device + " kernel in the "
                + framework + " table");
        op.pin = deviceIndex;
    }
    return Status::ok();
}

// The measured step: the ops' measured times on the device each ran on, when the trace linked them.
std::optional<double> measuredStepUs(const ModelGraph& model, int* measuredOps)
{
    double total = 0;
    *measuredOps = 0;
    for (const ModelOp& op : model.ops) {
        double us = op.measuredDevice == "gpu" ? op.measuredGpuUs : op.measuredDevice == "cpu" ? op.measuredCpuUs : -1;
        if (us < 0)
            us = std::max(op.measuredGpuUs, op.measuredCpuUs);
        if (us >= 0) {
            total += us;
            ++*measuredOps;
        }
    }
    if (*measuredOps == 0)
        return std::nullopt;
    return total;
}

// The measured step of the trace: the mean of the steps the findings' step detector finds (recorded steps,
// step-like annotations or a repeating kernel pattern); nothing when it only sees the whole trace.
std::optional<double> detectedStepUs(const std::string& tracePath, std::string* note)
{
    auto db = openTrace(tracePath);
    if (!db.isOk())
        return std::nullopt;
    auto trace = TraceData::load(*db);
    if (!trace.isOk())
        return std::nullopt;
    const StepSet steps = detectSteps(*trace);
    if (steps.source == StepSet::Source::WholeTrace || steps.count() == 0)
        return std::nullopt;
    *note = "mean of " + std::to_string(steps.count()) + " steps in the trace (" + steps.description + ")";
    return static_cast<double>(steps.totalNs()) / 1000.0 / static_cast<double>(steps.count());
}

// The layout pass's device facts for the specs the model was costed with; a note says what they assume.
LayoutFacts layoutFacts(const PlacementModel& placement, std::vector<std::string>& notes)
{
    LayoutFacts facts = layoutFactsFor(placement.cpu, placement.gpu);
    if (facts.gpuComputeCapability > 0) {
        char line[160];
        std::snprintf(line, sizeof line,
            "layout: GPU compute capability %.1f (from the name '%s'); TF32 assumed on for "
            "fp32 convs on Ampere and newer (the TF and PyTorch default)",
            facts.gpuComputeCapability, placement.gpu.name.c_str());
        notes.push_back(line);
    }
    return facts;
}

int runModel(const PlaceOptions& options)
{
    CostOptions costOptions;
    costOptions.gpu = options.gpu.empty() ? defaultGpuKey(options.tracePath) : options.gpu;
    costOptions.framework = options.framework;
    costOptions.tracePath = options.tracePath;
    if (!options.gpuMemory.empty()) {
        costOptions.gpuMemoryBytes = *parseByteSize(options.gpuMemory); // checked by checkUsage
    }
    if (options.gpu == "from-trace" && options.tracePath.empty())
        return fail("--gpu from-trace needs --trace run.sqlite");
    auto loaded = loadModelGraph(options.modelPath);
    if (!loaded.isOk())
        return fail(loaded.status().message());
    if (loaded->ops.empty())
        return fail(options.modelPath + ": the model has no ops");
    // Beside an ONNX Runtime profile, the nodes it measured cost what they took there (as in the GUI).
    auto model = withTraceMeasurements(std::move(loaded).value(), options.tracePath);
    if (!model.isOk())
        return fail(model.status().message());
    auto placement = buildPlacementModel(*model, costOptions);
    if (!placement.isOk())
        return fail(placement.status().message());
    Status pinned = applyPins(options.pins, *model, options.framework, *placement);
    if (!pinned.isOk())
        return fail(pinned.message());
    PlanOptions planOptions;
    planOptions.objective = options.objective == "makespan" ? Objective::Makespan : Objective::Sum;
    // The same call the GUI's placement panel makes, so both show the same figures.
    auto figures = planPlacementFigures(*placement, planOptions);
    if (!figures.isOk())
        return fail(figures.status().message());
    const Proposal* proposal = &figures->proposal;

    auto capabilities = CapabilityTable::forFramework(options.framework);
    if (!capabilities.isOk())
        return fail(capabilities.status().message());
    ModelProposalContext context;
    context.modelPath = options.modelPath;
    context.framework = options.framework;
    context.gpu = costOptions.gpu;
    context.objective = planOptions.objective;
    const LayoutFacts facts = layoutFacts(*placement, context.extraAssumptions);
    const std::vector<int> devices = deviceOfModelOps(*model, *placement, proposal->assignment);
    const LayoutResult layout = runLayoutPass(*model, devices, *capabilities, facts);
    if (!options.tracePath.empty()) {
        context.measuredStepUs = detectedStepUs(options.tracePath, &context.measuredNote);
        int measuredOps = 0;
        if (!context.measuredStepUs)
            context.measuredStepUs = measuredStepUs(*model, &measuredOps);
        if (measuredOps > 0)
            context.measuredNote = "sum of the trace's times of " + std::to_string(measuredOps) + " linked ops";
        else if (!context.measuredStepUs)
            context.measuredNote = "the trace shows no steps and links no op of this model to what it ran";
    }
    const ModelProposal result = buildModelProposal(*model, *placement, *figures, layout, context);
    const std::string json = options.json || !options.outputPath.empty() ? modelProposalJson(result) : std::string();
    if (!options.outputPath.empty()) {
        Status written = writeFileAtomically(options.outputPath, json + "\n", inputsOf(options));
        if (!written.isOk())
            return fail(written.message());
        noteWritten(options);
    }
    if (options.json)
        std::printf("%s\n", json.c_str());
    else
        std::fputs(proposalText(result).c_str(), stdout);
    return 0;
}

int runPlace(const PlaceOptions& given)
{
    // -o - is the proposal JSON on standard output, as without -o with --json.
    PlaceOptions options = given;
    if (options.outputPath == "-") {
        options.outputPath.clear();
        options.json = true;
    }
    if (Status usage = checkUsage(options); !usage.isOk())
        return fail(usage.message(), 2);
    if (options.problemPath.empty() == options.modelPath.empty())
        return fail("give --model FILE or --problem FILE (one of them)", 2);
    // Refused before the planning, not after it: -o naming an input, a device or a folder.
    if (!options.outputPath.empty())
        if (Status usable = checkOutputPath(options.outputPath, inputsOf(options)); !usable.isOk())
            return fail(usable.message());
    if (options.problemPath.empty() && !options.tracePath.empty()) {
        // A Kineto JSON or nsys export --trace is imported to a temporary trace first (removed when done).
        auto input = TraceInput::open(options.tracePath, "place", options.quiet);
        if (!input.isOk())
            return fail("--trace: " + input.status().message());
        options.tracePath = input->path();
        return runModel(options);
    }
    return options.problemPath.empty() ? runModel(options) : runProblem(options);
}

const CommandRegistration kRegistration(
    "place", "Propose a CPU/GPU placement and data layouts for a model", 60, [](CLI::App& app) -> std::function<int()> {
        auto options = std::make_shared<PlaceOptions>();
        app.add_option("--model", options->modelPath, "ONNX model, PyTorch execution trace (JSON) or Placescope trace");
        app.add_option("--problem", options->problemPath, "placement problem JSON (docs/placement_problem.md)");
        app.add_option("--trace", options->tracePath,
            "Trace of a run (Placescope, Kineto JSON or nsys export): measured op costs and links");
        app.add_option("--gpu", options->gpu,
            "GPU: a device table key (h100, a100, v100, ...) or from-trace; default: the --trace's GPU, else h100");
        app.add_option("--gpu-memory", options->gpuMemory, "GPU memory limit, e.g. 16GiB");
        app.add_option("--framework", options->framework, "whose kernels and placement rules: tf, torch or ort")
            ->check(CLI::IsMember({ "tf", "torch", "ort" }))
            ->capture_default_str();
        app.add_option("--pin", options->pins, "NAME=cpu or NAME=gpu: keep the op on that device (repeatable)");
        app.add_option("--objective", options->objective, "sum or makespan")
            ->check(CLI::IsMember({ "sum", "makespan" }))
            ->capture_default_str();
        app.add_option("-o,--output", options->outputPath, "write the proposal JSON to this file");
        app.add_flag("--json", options->json, "print the proposal as JSON");
        app.add_flag("-q,--quiet", options->quiet, "no summary line on stderr (errors still print)");
        return [options] { return runPlace(*options); };
    });

} // namespace
} // namespace placescope::cli
