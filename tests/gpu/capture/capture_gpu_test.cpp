// SPDX-License-Identifier: MIT
// `placescope capture` on a real GPU (CTest label gpu; skipped where no GPU is present): every kernel, copy,
// memset, allocation, sync and NVTX range of capture_gpu_program lands in the trace with exact counts, with
// host-clock timestamps inside the run and launch -> kernel correlation; exit codes are the program's; child
// processes are merged with their ranks; a second CUPTI subscriber and a SIGKILL are survived.
#include "gpu_program_counts.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <dlfcn.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace placescope {
namespace {

namespace fs = std::filesystem;
using namespace gpuprogram;

bool gpuPresent()
{
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver)
        return false;
    auto init = reinterpret_cast<int (*)(unsigned)>(dlsym(driver, "cuInit"));
    auto count = reinterpret_cast<int (*)(int*)>(dlsym(driver, "cuDeviceGetCount"));
    int devices = 0;
    return init && count && init(0) == 0 && count(&devices) == 0 && devices > 0;
}

// The built binaries: PLACESCOPE_BIN_DIR, unless PLACESCOPE_TEST_BIN_DIR points elsewhere (binaries copied to
// a GPU machine).
std::string binDir()
{
    const char* dir = std::getenv("PLACESCOPE_TEST_BIN_DIR");
    return dir && *dir ? dir : PLACESCOPE_BIN_DIR;
}

int64_t realtimeNs()
{
    timespec now {};
    clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

pid_t spawn(const std::vector<std::string>& args, const std::string& stderrPath)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(stderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 2);
        std::vector<char*> argv;
        for (const std::string& arg : args)
            argv.push_back(const_cast<char*>(arg.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    return pid;
}

int waitExit(pid_t pid)
{
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

class CaptureGpuTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (!gpuPresent())
            GTEST_SKIP() << "no CUDA GPU on this machine";
        m_dir = fs::temp_directory_path()
            / ("placescope_gpu_" + std::to_string(getpid()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override
    {
        if (!m_dir.empty())
            fs::remove_all(m_dir);
    }

    // Runs `placescope capture -o <dir>/<name> --kinds all <options> -- capture_gpu_program <args>`; returns its
    // exit code.
    int capture(const std::string& name, const std::vector<std::string>& programArgs,
        const std::vector<std::string>& options = {})
    {
        m_trace = (m_dir / name).string();
        std::vector<std::string> args = { binDir() + "/placescope", "capture", "-o", m_trace, "--kinds", "all" };
        args.insert(args.end(), options.begin(), options.end());
        args.push_back("--");
        args.push_back(binDir() + "/capture_gpu_program");
        args.insert(args.end(), programArgs.begin(), programArgs.end());
        m_startNs = realtimeNs();
        int code = waitExit(spawn(args, (m_dir / "stderr.txt").string()));
        m_endNs = realtimeNs();
        m_stderr = readFile((m_dir / "stderr.txt").string());
        return code;
    }

    int64_t query(const std::string& sql)
    {
        auto db = openTrace(m_trace);
        EXPECT_TRUE(db.isOk()) << db.status().message();
        if (!db.isOk())
            return -1;
        auto value = db->queryInt(sql);
        EXPECT_TRUE(value.isOk()) << sql << ": " << value.status().message();
        return value.isOk() ? value.value() : -1;
    }

    int64_t copies(int copyKind, int srcKind, int dstKind)
    {
        return query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = " + std::to_string(copyKind)
            + " AND srcKind = " + std::to_string(srcKind) + " AND dstKind = " + std::to_string(dstKind)
            + " AND bytes = " + std::to_string(kCopyBytes));
    }

    fs::path m_dir;
    std::string m_trace;
    std::string m_stderr;
    int64_t m_startNs = 0;
    int64_t m_endNs = 0;
};

TEST_F(CaptureGpuTest, RecordsEveryOperationOfTheProgramExactly)
{
    ASSERT_EQ(capture("one.sqlite", {}), 0) << m_stderr;
    const int kernels = kScaleLaunches + kAddLaunches;
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), kernels);
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
                    "WHERE s.value = 'scaleKernel'"),
        kScaleLaunches);
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                    "WHERE s.value = 'addKernel(float*, float, int)'"),
        kAddLaunches);
    // Timestamps are on the host clock, inside the run, and every kernel has its launch call.
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start >= " + std::to_string(m_startNs)
                  + " AND end > start AND end <= " + std::to_string(m_endNs)),
        kernels);
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                    "WHERE s.value LIKE 'cudaLaunchKernel%'"),
        kernels);
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE NOT EXISTS (SELECT 1 FROM "
                    "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId AND r.globalTid / 16777216 "
                    "= k.globalPid / 16777216 AND r.start <= k.start)"),
        0);
    // nsys enum ids: copyKind 1 HtoD, 2 DtoH, 8 DtoD; memory kinds 0 pageable, 1 pinned, 2 device.
    EXPECT_EQ(copies(1, 0, 2), kCopiesHtoDPageable);
    EXPECT_EQ(copies(1, 1, 2), kCopiesHtoDPinned);
    EXPECT_EQ(copies(8, 2, 2), kCopiesDtoD);
    EXPECT_EQ(copies(2, 2, 1), kCopiesDtoHPinned);
    EXPECT_EQ(copies(2, 2, 0), kCopiesDtoHPageable);
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"),
        kCopiesHtoDPageable + kCopiesHtoDPinned + kCopiesDtoD + kCopiesDtoHPinned + kCopiesDtoHPageable);
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE bytes = "
                  + std::to_string(kDeviceAllocationBytes[1])),
        kMemsets);
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE bytes = "
                  + std::to_string(kDeviceAllocationBytes[2])),
        kMemsetsAsync);
    for (int64_t bytes : kDeviceAllocationBytes) {
        std::string where = " FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memKind = 2 AND bytes = " + std::to_string(bytes);
        EXPECT_EQ(query("SELECT COUNT(*)" + where + " AND memoryOperationType = 0"), 1) << bytes;
        EXPECT_EQ(query("SELECT COUNT(*)" + where + " AND memoryOperationType = 1"), 1) << bytes;
    }
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memKind = 2"), 6);
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE syncType = 3"), kStreamSyncs);
    EXPECT_EQ(query("SELECT COUNT(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId WHERE n.eventType = 59 "
                    "AND s.value IN ('setup', 'compute') AND n.end > n.start"),
        kNvtxRanges);
    EXPECT_EQ(query("SELECT COUNT(*) FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId WHERE n.eventType = 34 "
                    "AND s.value = 'start'"),
        kNvtxMarks);
    // The 'compute' range holds the 15 launches.
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId, "
                    "NVTX_EVENTS n JOIN StringIds t ON t.id = n.textId WHERE t.value = 'compute' AND s.value LIKE "
                    "'cudaLaunchKernel%' AND r.start >= n.start AND r.end <= n.end"),
        kernels);
    EXPECT_GE(query("SELECT COUNT(*) FROM TARGET_INFO_GPU WHERE name <> '' AND smCount > 0 AND totalMemory > 0"), 1);
    // The columns nsys fills beyond CUPTI's basics, from the device record and the driver's attributes.
    EXPECT_GE(query("SELECT COUNT(*) FROM TARGET_INFO_GPU WHERE busLocation GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:*.0'"
                    " AND isDiscrete IN (0, 1) AND constantMemory = 65536 AND maxShmemPerBlockOptin >= maxShmemPerBlock"
                    " AND maxBlockDimX = 1024 AND maxGridDimX = 2147483647 AND maxBlocksPerSm > 0"
                    " AND uuid NOT LIKE 'GPU-%'"),
        1);
    // nsys's context list, from CUPTI's context records: the program's pid, its null stream.
    EXPECT_GE(query("SELECT COUNT(*) FROM TARGET_INFO_CUDA_CONTEXT_INFO WHERE vmId = 1 AND processId > 0"), 1);
    EXPECT_EQ(query("SELECT COUNT(*) FROM PS_PROCESSES WHERE pid > 0"), 1);
    EXPECT_EQ(query("SELECT COUNT(*) FROM PS_PROBLEMS WHERE kind = 'capture.dropped_records'"), 0);
    EXPECT_NE(m_stderr.find("15 kernels"), std::string::npos) << m_stderr;
}

TEST_F(CaptureGpuTest, ExitsWithTheProgramsCodeAndKeepsTheTrace)
{
    EXPECT_EQ(capture("fail.sqlite", { "--fail" }), kFailExitCode) << m_stderr;
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), kScaleLaunches + kAddLaunches);
}

TEST_F(CaptureGpuTest, QuietWritesTheSameTraceAndPrintsNothing)
{
    // The summary line ("wrote ... 15 kernels") is no error: --quiet leaves stderr to the program alone (issue 19).
    ASSERT_EQ(capture("quiet.sqlite", {}, { "--quiet" }), 0) << m_stderr;
    EXPECT_EQ(m_stderr, "");
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), kScaleLaunches + kAddLaunches);
}

TEST_F(CaptureGpuTest, MergesChildProcessesWithTheirRanks)
{
    ASSERT_EQ(capture("children.sqlite", { "--children", "2" }), 0) << m_stderr;
    const int kernels = kScaleLaunches + kAddLaunches;
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 3 * kernels);
    EXPECT_EQ(query("SELECT COUNT(*) FROM PS_PROCESSES"), 3);
    EXPECT_EQ(query("SELECT COUNT(*) FROM PS_PROCESSES WHERE rank IN (1, 2)"), 2);
    EXPECT_EQ(query("SELECT COUNT(DISTINCT globalPid) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 3);
    EXPECT_EQ(
        query("SELECT MIN(n) FROM (SELECT COUNT(*) AS n FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY globalPid)"), kernels);
    // Kernel names are interned once across the parts.
    EXPECT_EQ(query("SELECT COUNT(*) FROM StringIds WHERE value = 'addKernel(float*, float, int)'"), 1);
}

TEST_F(CaptureGpuTest, AnotherCuptiSubscriberMeansOneLineAndNoTrace)
{
    EXPECT_EQ(capture("other.sqlite", { "--subscribe-first" }), 3) << m_stderr;
    EXPECT_FALSE(fs::exists(m_trace));
    EXPECT_NE(m_stderr.find("another CUPTI profiler"), std::string::npos) << m_stderr;
    EXPECT_EQ(std::count(m_stderr.begin(), m_stderr.end(), '\n'), 1) << m_stderr;
}

TEST_F(CaptureGpuTest, SigkillOfTheProgramLeavesWhatWasFlushed)
{
    m_trace = (m_dir / "killed.sqlite").string();
    std::vector<std::string> args = { binDir() + "/placescope", "capture", "-o", m_trace, "--",
        binDir() + "/capture_gpu_program", "--sleep", "60" };
    pid_t launcher = spawn(args, (m_dir / "stderr.txt").string());
    // Wait until the program's part has all 15 kernels' worth of events flushed (a status file appears).
    pid_t program = 0;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!program && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        for (const auto& entry : fs::recursive_directory_iterator(m_dir)) {
            std::string name = entry.path().filename().string();
            if (name.rfind("status-", 0) == 0 && name.find('.') == std::string::npos) {
                std::ifstream in(entry.path());
                int64_t events = 0;
                if (in >> events && events > 40)
                    program = static_cast<pid_t>(std::stoll(name.substr(7)));
            }
        }
    }
    ASSERT_GT(program, 0) << "the program's part never showed its events";
    // The program sleeps after its work: two more periodic flushes (1 s each) and everything is on disk.
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    kill(program, SIGKILL);
    EXPECT_EQ(waitExit(launcher), 128 + SIGKILL);
    EXPECT_EQ(query("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), kScaleLaunches + kAddLaunches);
}

} // namespace
} // namespace placescope
