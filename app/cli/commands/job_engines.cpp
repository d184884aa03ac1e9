// SPDX-License-Identifier: MIT
#include "app/cli/commands/job_engines.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

extern char** environ;

namespace placescope::cli {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMapMemoryBytes = 256ll << 20; // the most one map process is meant to take

std::string readText(const fs::path& path)
{
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// The last non-empty line of a child's stderr, without the "placescope job map: " every error starts with.
std::string lastErrorLine(const std::string& text)
{
    std::string last;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty())
            last = line;
    const std::string prefix = "placescope job map: ";
    if (last.rfind(prefix, 0) == 0)
        last = last.substr(prefix.size());
    return last.empty() ? "the map process failed without a message" : last;
}

int64_t availableMemoryBytes()
{
    std::ifstream meminfo("/proc/meminfo");
    for (std::string key; meminfo >> key;) {
        int64_t kib = 0;
        meminfo >> kib;
        if (key == "MemAvailable:")
            return kib * 1024;
        meminfo.ignore(64, '\n');
    }
    return 0;
}

struct Running
{
    size_t task = 0;
    fs::path out, err;
};

pid_t spawnMap(const std::string& input, const std::string& folder, const fs::path& out, const fs::path& err)
{
    std::vector<std::string> args { selfExecutable(), "job", "map", input, "-o", folder, "--quiet" };
    std::vector<char*> argv;
    for (std::string& arg : args)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = -1;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0)
        pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

} // namespace

std::string selfExecutable()
{
    std::error_code error;
    fs::path self = fs::read_symlink("/proc/self/exe", error);
    return error ? std::string("placescope") : self.string();
}

int mapParallelism(int requested)
{
    const int cores = std::max(1u, std::thread::hardware_concurrency());
    const int64_t available = availableMemoryBytes();
    const int byMemory = available > 0 ? static_cast<int>(std::max<int64_t>(1, available / kMapMemoryBytes)) : cores;
    return std::max(1, std::min(requested > 0 ? requested : cores, byMemory));
}

std::vector<MapOutcome> runMapTasksLocally(
    const std::vector<std::string>& inputs, const std::string& folder, int parallel, bool showProgress)
{
    std::vector<MapOutcome> outcomes(inputs.size());
    std::deque<size_t> queue;
    for (size_t i = 0; i < inputs.size(); ++i) {
        outcomes[i].input = inputs[i];
        queue.push_back(i);
    }
    const fs::path logs = fs::path(folder) / ".engine";
    fs::create_directories(logs);
    std::map<pid_t, Running> running;
    size_t finished = 0;
    while (!queue.empty() || !running.empty()) {
        while (!queue.empty() && static_cast<int>(running.size()) < parallel) {
            const size_t task = queue.front();
            queue.pop_front();
            Running child { task, logs / (std::to_string(task) + ".out"), logs / (std::to_string(task) + ".err") };
            ++outcomes[task].attempts;
            const pid_t pid = spawnMap(inputs[task], folder, child.out, child.err);
            if (pid < 0) {
                outcomes[task].error = "cannot start " + selfExecutable();
                ++finished;
                continue;
            }
            running.emplace(pid, child);
        }
        if (running.empty())
            continue;
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, 0);
        if (pid < 0)
            break;
        auto it = running.find(pid);
        if (it == running.end())
            continue; // not one of ours
        const Running child = it->second;
        running.erase(it);
        MapOutcome& outcome = outcomes[child.task];
        const std::string out = readText(child.out);
        char* end = nullptr;
        const long long rank = std::strtoll(out.c_str(), &end, 10);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && end != out.c_str()) {
            outcome.rank = rank;
            outcome.error.clear();
        } else {
            outcome.error = WIFSIGNALED(status)
                ? "the map process was killed by signal " + std::to_string(WTERMSIG(status))
                : lastErrorLine(readText(child.err));
            if (outcome.attempts < 2) { // once more: a node's hiccup, a full disk freed meanwhile
                queue.push_back(child.task);
                continue;
            }
        }
        ++finished;
        if (showProgress)
            std::fprintf(stderr, "\rmapping ranks: %zu of %zu", finished, inputs.size());
    }
    if (showProgress)
        std::fprintf(stderr, "\r%50s\r", "");
    std::error_code ignored;
    fs::remove_all(logs, ignored);
    return outcomes;
}

std::optional<std::vector<MapOutcome>> runMapTasksOnDask(
    const std::vector<std::string>& inputs, const std::string& folder, const DaskTarget& target, std::string& error)
{
    // The driver ships beside the binary's share/ (installed and build trees alike); PLACESCOPE_DASK_DRIVER overrides.
    fs::path driver = fs::path(selfExecutable()).parent_path() / ".." / "share" / "placescope" / "placescope_dask.py";
    if (const char* given = std::getenv("PLACESCOPE_DASK_DRIVER"))
        driver = given;
    if (!fs::exists(driver)) {
        error = "the Dask driver is not installed (" + driver.lexically_normal().string() + ")";
        return std::nullopt;
    }
    const fs::path logs = fs::path(folder) / ".engine";
    fs::create_directories(logs);
    const fs::path results = logs / "dask-results.json";
    const fs::path err = logs / "dask.err";
    // Debian's python3-distributed is /usr/bin/python3's; a python3 earlier on PATH (pyenv, a venv) may lack it.
    std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    if (const char* given = std::getenv("PLACESCOPE_PYTHON"))
        python = given;
    std::vector<std::string> args { python, driver.string(), "--placescope", selfExecutable(), "--job", folder,
        "--results", results.string() };
    if (!target.address.empty())
        args.insert(args.end(), { "--scheduler", target.address });
    else if (!target.schedulerFile.empty())
        args.insert(args.end(), { "--scheduler-file", target.schedulerFile });
    else
        args.insert(args.end(), { "--local-workers", std::to_string(target.localWorkers) });
    args.push_back("--");
    args.insert(args.end(), inputs.begin(), inputs.end());
    std::vector<char*> argv;
    for (std::string& arg : args)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = -1;
    const int spawned = posix_spawnp(&pid, python.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    std::error_code ignored;
    if (spawned != 0) {
        error = "cannot start " + python + " for the Dask driver";
        fs::remove_all(logs, ignored);
        return std::nullopt;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    const nlohmann::json parsed = nlohmann::json::parse(readText(results), nullptr, false);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !parsed.is_array()) {
        const std::string why = lastErrorLine(readText(err));
        error = "the Dask driver failed: " + why;
        fs::remove_all(logs, ignored);
        return std::nullopt;
    }
    std::vector<MapOutcome> outcomes;
    for (const auto& item : parsed) {
        MapOutcome outcome;
        outcome.input = item.value("input", "");
        if (item.contains("rank") && item["rank"].is_number_integer())
            outcome.rank = item["rank"].get<int64_t>();
        outcome.error = item.value("error", "");
        outcome.attempts = item.value("attempts", 1);
        outcomes.push_back(std::move(outcome));
    }
    fs::remove_all(logs, ignored);
    return outcomes;
}

} // namespace placescope::cli
