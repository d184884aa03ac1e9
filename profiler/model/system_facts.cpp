// SPDX-License-Identifier: MIT
#include "profiler/model/system_facts.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

namespace placescope {
namespace {

struct KnownFact
{
    std::string_view name;
    int64_t nameEnum; // as in nsys 2024.5 exports
};

constexpr KnownFact kKnownFacts[] = {
    { "CpuCores", 1 },
    { "CpuSpeedMhz", 2 },
    { "CpuArchitecture", 3 },
    { "CpuDescription", 13 },
    { "NvDriverVersion", 205 },
    { "HardwarePlatform", 600 },
    { "SoftwarePlatform", 601 },
    { "OsDescription", 605 },
    { "CudaDriverVersion", 611 },
    { "SoftwareReleaseVersion", 618 },
    { "Hostname", 619 },
};

// The value of `key` in a "key : value" (cpuinfo) or key="value" (os-release) file; empty when absent.
std::string fieldOf(const char* path, std::string_view key, char separator)
{
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        if (line.compare(0, key.size(), key) != 0)
            continue;
        size_t at = line.find(separator, key.size());
        if (at == std::string::npos || line.find_first_not_of(" \t", key.size()) != at)
            continue;
        std::string value = line.substr(line.find_first_not_of(" \t", at + 1) == std::string::npos
                ? line.size()
                : line.find_first_not_of(" \t", at + 1));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
            value = value.substr(1, value.size() - 2);
        return value;
    }
    return {};
}

} // namespace

std::optional<int64_t> systemFactNameEnum(std::string_view name)
{
    for (const KnownFact& fact : kKnownFacts)
        if (fact.name == name)
            return fact.nameEnum;
    return std::nullopt;
}

std::vector<SystemFact> localSystemFacts()
{
    std::vector<SystemFact> facts;
    auto add = [&facts](const char* name, std::string value) {
        if (!value.empty())
            facts.push_back(SystemFact { name, std::move(value) });
    };
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0)
        add("Hostname", host);
    add("OsDescription", fieldOf("/etc/os-release", "PRETTY_NAME", '='));
    struct utsname system
    {
    };
    if (uname(&system) == 0) {
        add("SoftwareReleaseVersion", system.release);
        add("CpuArchitecture", system.machine);
    }
    add("CpuDescription", fieldOf("/proc/cpuinfo", "model name", ':'));
    if (unsigned cores = std::thread::hardware_concurrency())
        add("CpuCores", std::to_string(cores));
    return facts;
}

} // namespace placescope
