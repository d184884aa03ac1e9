// SPDX-License-Identifier: MIT
// `placescope whatif --edit` with the regexes a careless or hostile user gives, on a Kineto trace whose kernel name
// is 200 kB long (a template instantiation can be): std::regex died on `.*` and `(a*)*b` here with SIGSEGV; every
// pattern now answers and says what it matched, and an invalid one is one line and exit 2.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace placescope::testing {
namespace {

// Three launches, each of one kernel named `kernelName`, 1 ms apart.
void writeKinetoTrace(const std::string& path, const std::string& kernelName)
{
    std::ofstream out(path);
    out << R"({"schemaVersion": 1, "traceEvents": [)";
    for (int k = 0; k < 3; ++k) {
        const int ts = k * 1000;
        out << (k ? "," : "") << R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, )"
            << R"("tid": 100, "ts": )" << ts << R"(, "dur": 5, "args": {"correlation": )" << k + 1 << "}},"
            << R"({"ph": "X", "cat": "kernel", "name": ")" << kernelName << R"(", "pid": 0, "tid": 7, "ts": )"
            << ts + 10 << R"(, "dur": 500, "args": {"device": 0, "stream": 7, "correlation": )" << k + 1 << "}}";
    }
    out << "]}\n";
}

class RegexCli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_temp = new TempDir("regex_cli");
        writeKinetoTrace(
            s_temp->file("huge_name.json"), "void at::native::gemm_kernel<" + std::string(200000, 'a') + ">");
        const CliRun r
            = runPlacescope({ "import", s_temp->file("huge_name.json"), "-o", trace(), "-q" }, s_temp->path());
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    static void TearDownTestSuite()
    {
        delete s_temp;
        s_temp = nullptr;
    }
    static std::string trace() { return s_temp->file("huge_name.sqlite"); }
    static CliRun whatif(const std::string& edit)
    {
        return runPlacescope({ "whatif", trace(), "--edit", edit }, s_temp->path());
    }

    static TempDir* s_temp;
};
TempDir* RegexCli::s_temp = nullptr;

TEST_F(RegexCli, AnyPatternOnAHugeNameAnswersWithWhatItMatched)
{
    const std::vector<std::pair<std::string, std::string>> cases
        = { { "kernels:.*=x0.5", "matched 3 GPU ops." }, { "kernels:(a|b)*=x0.5", "matched 3 GPU ops." },
              { "kernels:(a*)*b=x0.5", "matched 0 GPU ops." }, { "kernels:(a|aa)*c$=x0.5", "matched 0 GPU ops." },
              { "drop:.*gemm.*", "matched 3 GPU ops." }, { "no-sync:(a*)*b", "" } };
    for (const auto& [edit, says] : cases) {
        const CliRun r = whatif(edit);
        EXPECT_EQ(r.exitCode, 0) << edit << " (signal " << r.signal << "): " << r.err;
        EXPECT_NE(r.out.find(edit + ": "), std::string::npos) << edit << ":\n" << r.out;
        EXPECT_NE(r.out.find(says), std::string::npos) << edit << ":\n" << r.out;
    }
}

TEST_F(RegexCli, AnInvalidPatternIsOneLineAndExitTwo)
{
    expectOneLineError(whatif("kernels:(=x0.5"), 2, "edit 'kernels:(=x0.5': '(' is not a regular expression");
    expectOneLineError(whatif("drop:a**"), 2, "'a**' is not a regular expression (bad repetition operator");
    expectOneLineError(whatif("no-sync:(?<=x)y"), 2, "'(?<=x)y' is not a regular expression");
    expectOneLineError(whatif("drop:((a{1000}){1000}){1000}"), 2, "is not a regular expression");
}

// The collectives report read NCCL kernel names with std::regex: SIGSEGV on a 200 kB name.
TEST(HugeNameCli, TheCollectivesReportReadsAHugeNcclKernelName)
{
    TempDir dir("huge_nccl_name");
    writeKinetoTrace(dir.file("nccl.json"), "ncclDevKernel_AllReduce_Sum_f32_RING_LL_" + std::string(200000, 'a'));
    ASSERT_EQ(
        runPlacescope({ "import", dir.file("nccl.json"), "-o", dir.file("nccl.sqlite"), "-q" }, dir.path()).exitCode,
        0);
    const CliRun r = runPlacescope({ "report", "collectives", dir.file("nccl.sqlite") }, dir.path());
    EXPECT_EQ(r.exitCode, 0) << "signal " << r.signal << ": " << r.err;
    EXPECT_NE(r.out.find("AllReduce"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("RING"), std::string::npos) << r.out;
}

} // namespace
} // namespace placescope::testing
