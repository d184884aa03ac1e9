// SPDX-License-Identifier: MIT
// `placescope job`: a whole distributed training job, one trace file per rank.
//   job import FILES -o JOB [-j N] [--dask ADDRESS | --dask-scheduler-file F | --dask-local N]
//       map: each rank's file becomes its own trace plus a small summary (JOB/ranks/), one process per rank, here
//       (-j) or on Dask; a failed rank is retried once and named, missing ranks are named; JOB/job.json lists them.
//   job map FILE -o JOB            one map task (what the engines run per rank); prints the rank it found
//   job report JOB NAME [--format text|csv|json] [-o FILE]    one reduce table (--list names them)
//   job analyze JOB [-o job.html]  the verdict and the main tables as text, or every table and the heatmap as HTML
// Reports read the summaries only (analysis/job/job_reduce.h), never the traces.
#include "analysis/job/job_folder.h"
#include "analysis/job/job_html.h"
#include "analysis/job/job_reduce.h"
#include "analysis/job/job_tables.h"
#include "app/cli/command_registry.h"
#include "app/cli/commands/job_engines.h"
#include "app/cli/document_output.h"
#include "profiler/base/output_file.h"
#include "profiler/base/printable_text.h"
#include "profiler/base/units.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <variant>

namespace placescope::cli {
namespace {

namespace fs = std::filesystem;

struct JobArgs
{
    std::vector<std::string> inputs;
    std::string input;
    std::string folder;
    std::string output;
    std::string name;
    std::string format;
    bool json = false; // job report: the same as --format json
    int parallel = 0;
    DaskTarget dask;
    bool list = false;
    bool quiet = false;
};

int fail(const char* command, const std::string& message, int code = 1)
{
    printLine(stderr, "placescope job %s: %s\n", command, message.c_str());
    return code;
}

int runMap(const JobArgs& args)
{
    auto rank = mapRank(args.input, args.output);
    if (!rank.isOk())
        return fail("map", args.input + ": " + rank.status().message());
    std::printf("%lld\n", static_cast<long long>(*rank));
    return 0;
}

int runImport(const JobArgs& args)
{
    if (args.parallel < 0)
        return fail("import", "-j must be 1 or more", 2);
    const int engines = (args.dask.address.empty() ? 0 : 1) + (args.dask.schedulerFile.empty() ? 0 : 1)
        + (args.dask.localWorkers > 0 ? 1 : 0);
    if (engines > 1)
        return fail("import", "give one of --dask, --dask-scheduler-file and --dask-local", 2);
    for (const std::string& input : args.inputs) {
        // "No such file" only when there is none: one in a folder the user may not enter, or that the user may
        // not read, is a permission problem, said as such (it was a std::filesystem exception's text).
        struct stat st;
        if (::stat(input.c_str(), &st) != 0)
            return fail("import",
                errno == ENOENT || errno == ENOTDIR ? input + ": no such file"
                                                    : "cannot read " + input + ": " + std::strerror(errno));
        if (!S_ISREG(st.st_mode))
            return fail("import", input + " is not a regular file; a rank's trace is a file");
        if (::access(input.c_str(), R_OK) != 0)
            return fail("import", "cannot read " + input + ": " + std::strerror(errno));
    }
    std::error_code error;
    if (fs::exists(args.output, error) && (!fs::is_directory(args.output) || !fs::is_empty(args.output)))
        return fail("import", args.output + " exists and is not an empty folder; give a new folder for the job");
    fs::create_directories(fs::path(args.output) / "ranks", error);
    if (error)
        return fail("import", "cannot create " + args.output + ": " + error.message());
    const auto began = std::chrono::steady_clock::now();
    std::vector<MapOutcome> outcomes;
    if (args.dask.any()) {
        std::string why;
        auto ran = runMapTasksOnDask(args.inputs, args.output, args.dask, why);
        if (!ran)
            return fail("import", why);
        outcomes = std::move(*ran);
    } else {
        outcomes = runMapTasksLocally(
            args.inputs, args.output, mapParallelism(args.parallel), !args.quiet && ::isatty(STDERR_FILENO));
    }
    std::vector<std::pair<std::string, int64_t>> mapped;
    std::vector<JobFailure> failed;
    for (const MapOutcome& outcome : outcomes)
        if (outcome.rank)
            mapped.emplace_back(outcome.input, *outcome.rank);
        else
            failed.push_back({ outcome.input, outcome.error });
    auto manifest = collectJob(args.output, mapped, failed);
    if (!manifest.isOk())
        return fail("import", manifest.status().message());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (!args.quiet) {
        printLine(stderr, "wrote %s: %zu rank(s) in %s\n", args.output.c_str(), manifest->ranks.size(),
            formatNanoseconds(seconds * 1e9).c_str());
        for (const JobFailure& f : manifest->failed)
            printLine(
                stderr, "placescope job import: warning: %s failed twice: %s\n", f.input.c_str(), f.error.c_str());
        if (!manifest->missing.empty()) {
            std::string list;
            for (int64_t r : manifest->missing)
                list += (list.empty() ? "" : " ") + std::to_string(r);
            printLine(stderr, "placescope job import: warning: missing ranks of %lld: %s\n",
                static_cast<long long>(manifest->worldSize), list.c_str());
        }
    }
    return manifest->ranks.empty() ? fail("import", "no rank was imported") : 0;
}

// The job's manifest and its reduction, or the exit code of the failure (already printed).
struct LoadedJob
{
    JobManifest manifest;
    JobReduction job;
};
std::variant<LoadedJob, int> loadJob(const char* command, const std::string& folder)
{
    auto manifest = readJobManifest(folder);
    if (!manifest.isOk())
        return fail(command, manifest.status().message());
    auto job = reduceJob(summaryPaths(folder, *manifest));
    if (!job.isOk())
        return fail(command, job.status().message());
    return LoadedJob { std::move(*manifest), std::move(*job) };
}

// The document's format and place as every command picks them (app/cli/document_output.h); -o must not be the
// job's manifest.
DocumentOutput documentOf(const char* command, const JobArgs& args)
{
    DocumentOutput output(std::string("job ") + command);
    output.format = args.format;
    output.json = args.json;
    output.path = args.output;
    output.inputs = { jobManifestPath(args.folder) };
    return output;
}

int writeOutput(const char* command, const DocumentOutput& output, const std::string& text, bool quiet)
{
    if (int status = output.write(text); status != 0)
        return status;
    if (!output.toStdout() && !quiet)
        printLine(stderr, "placescope job %s: written to %s\n", command, output.path.c_str());
    return 0;
}

int runReport(const JobArgs& args)
{
    if (args.list) {
        for (const JobReportInfo& report : jobReports())
            std::printf("%-12s %s\n", report.name.c_str(), report.description.c_str());
        return 0;
    }
    if (args.folder.empty() || args.name.empty())
        return fail("report", "give a job folder and a report: placescope job report JOB NAME (--list names them)", 2);
    bool known = false;
    for (const JobReportInfo& report : jobReports())
        known = known || report.name == args.name;
    if (!known)
        return fail("report", "unknown report '" + args.name + "' (" + jobReportNames() + ")", 2);
    const DocumentOutput output = documentOf("report", args);
    auto name = output.formatName({ { ".csv", "csv" }, { ".json", "json" } });
    if (!name.isOk())
        return fail("report", name.status().message(), 2);
    TableFormat format = TableFormat::Text;
    if (!parseTableFormat(*name, format))
        return fail("report", "--format must be text, csv or json, not '" + *name + "'", 2);
    if (!output.checkPath())
        return 1;
    auto loaded = loadJob("report", args.folder);
    if (auto* code = std::get_if<int>(&loaded))
        return *code;
    const LoadedJob& job = std::get<LoadedJob>(loaded);
    const ReportTable table = *jobReportTable(job.job, args.name, failureLines(job.manifest));
    if (format != TableFormat::Text && !args.quiet)
        for (const std::string& note : table.notes)
            printLine(stderr, "placescope job report %s: note: %s\n", args.name.c_str(), note.c_str());
    return writeOutput("report", output, renderTable(table, format), args.quiet);
}

int runAnalyze(const JobArgs& args)
{
    const DocumentOutput output = documentOf("analyze", args);
    auto name = output.formatName({ { ".html", "html" }, { ".htm", "html" } });
    if (!name.isOk())
        return fail("analyze", name.status().message(), 2);
    if (*name != "html" && *name != "text")
        return fail("analyze", "--format must be text or html, not '" + *name + "'", 2);
    const bool html = *name == "html";
    if (!output.checkPath())
        return 1;
    auto loaded = loadJob("analyze", args.folder);
    if (auto* code = std::get_if<int>(&loaded))
        return *code;
    const LoadedJob& job = std::get<LoadedJob>(loaded);
    const std::vector<std::string> failed = failureLines(job.manifest);
    const std::string title = "Job " + fs::path(args.folder).lexically_normal().filename().string() + ": "
        + std::to_string(job.job.ranks.size()) + " ranks, " + std::to_string(job.job.steps.size()) + " steps";
    return writeOutput(
        "analyze", output, html ? jobHtml(job.job, failed, title) : jobText(job.job, failed), args.quiet);
}

const CommandRegistration kRegistration { "job",
    "A whole distributed job: import its ranks in parallel (here or on Dask), then name the straggler", 12,
    [](CLI::App& app) -> std::function<int()> {
        auto args = std::make_shared<JobArgs>();
        app.require_subcommand(1);
        CLI::App* importCommand
            = app.add_subcommand("import", "Import each rank's trace file into a job folder, in parallel");
        importCommand->add_option("inputs", args->inputs, "One trace file per rank (Kineto JSON, plain or gzipped)")
            ->required();
        importCommand->add_option("-o,--output", args->output, "The job folder to create (new or empty)")->required();
        importCommand->add_option(
            "-j,--jobs", args->parallel, "Map processes at once (default: one per core, as memory allows)");
        importCommand->add_option(
            "--dask", args->dask.address, "Run the map tasks on this Dask scheduler (tcp://host:8786)");
        importCommand->add_option("--dask-scheduler-file", args->dask.schedulerFile,
            "Run them on the Dask cluster this scheduler file names (dask scheduler --scheduler-file)");
        importCommand->add_option(
            "--dask-local", args->dask.localWorkers, "Run them on a Dask LocalCluster of N processes");
        importCommand->add_flag("-q,--quiet", args->quiet, "No progress, summary or warnings");
        CLI::App* mapCommand = app.add_subcommand("map", "One map task: import one rank's file into a job folder");
        mapCommand->add_option("input", args->input, "The rank's trace file")->required();
        mapCommand->add_option("-o,--output", args->output, "The job folder")->required();
        mapCommand->add_flag("-q,--quiet", args->quiet, "Accepted for the engines; map prints only its rank");
        CLI::App* reportCommand = app.add_subcommand("report", "One table of a job (stragglers, steps, pacing, ...)");
        reportCommand->add_option("job", args->folder, "The job folder (placescope job import)");
        reportCommand->add_option("name", args->name, "The report (see --list)");
        reportCommand->add_flag("--list", args->list, "List the reports and exit");
        reportCommand->add_option(
            "--format", args->format, "text, csv or json (default: from -o's extension, else text)");
        reportCommand->add_flag("--json", args->json, "The same as --format json");
        reportCommand->add_option("-o,--output", args->output, "Write the table here instead of stdout");
        reportCommand->add_flag(
            "-q,--quiet", args->quiet, "No notes on stderr (CSV, JSON) and no summary line after -o");
        CLI::App* analyzeCommand
            = app.add_subcommand("analyze", "The straggler verdict and the job's tables (HTML with -o x.html)");
        analyzeCommand->add_option("job", args->folder, "The job folder")->required();
        analyzeCommand->add_option("-o,--output", args->output, "Write here (.html: the page with the heatmap)");
        analyzeCommand->add_option("--format", args->format, "text or html (default: from -o's extension, else text)");
        analyzeCommand->add_flag("-q,--quiet", args->quiet, "No summary line after -o");
        return [args, importCommand, mapCommand, reportCommand, analyzeCommand]() -> int {
            if (importCommand->parsed())
                return runImport(*args);
            if (mapCommand->parsed())
                return runMap(*args);
            if (reportCommand->parsed())
                return runReport(*args);
            if (analyzeCommand->parsed())
                return runAnalyze(*args);
            return 2;
        };
    } };

} // namespace
} // namespace placescope::cli
