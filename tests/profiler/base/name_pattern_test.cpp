// SPDX-License-Identifier: MIT
// The one matcher for user-given regexes (NamePattern, RE2): patterns that make a backtracking engine recurse per
// character or run for exponential time answer on a 1 MB name; an invalid or oversized pattern is one line that
// names the pattern and RE2's reason.
#include "profiler/base/name_pattern.h"

#include <gtest/gtest.h>

#include <string>

namespace placescope {
namespace {

NamePattern compiled(const std::string& pattern)
{
    auto p = NamePattern::compile(pattern);
    EXPECT_TRUE(p.isOk()) << p.status().message();
    return p.isOk() ? p.value() : NamePattern();
}

TEST(NamePattern, MatchesAnywhereInTheName)
{
    EXPECT_TRUE(compiled("gemm").search("void cutlass::gemm_kernel<float>"));
    EXPECT_FALSE(compiled("^gemm").search("void cutlass::gemm_kernel<float>"));
    EXPECT_FALSE(compiled("GEMM").search("sgemm")); // case counts, as it did with std::regex
    EXPECT_TRUE(compiled("(?i)GEMM").search("sgemm"));
    EXPECT_TRUE(compiled("nccl|rccl").search("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
    EXPECT_TRUE(compiled("é").search("kernel_é")); // names and patterns are UTF-8
}

// std::regex recursed once per character here (SIGSEGV on a 200 kB kernel name) or backtracked for minutes.
TEST(NamePattern, CatastrophicPatternsOnHugeNamesAnswer)
{
    const std::string huge = "void gemm<" + std::string(1 << 20, 'a') + ">";
    EXPECT_FALSE(compiled("(a*)*b").search(huge));
    EXPECT_FALSE(compiled("(a|aa)*c").search(huge));
    EXPECT_TRUE(compiled(".*gemm.*").search(huge));
    EXPECT_TRUE(compiled("(a|b)*>$").search(huge));
    EXPECT_TRUE(compiled(".*").search(huge));
}

TEST(NamePattern, AnInvalidPatternIsOneLineNamingIt)
{
    for (const std::string& pattern :
        { std::string("("), std::string("kernel["), std::string("a**"), std::string("(?<=x)y"), std::string("\\1") }) {
        auto p = NamePattern::compile(pattern);
        ASSERT_FALSE(p.isOk()) << pattern;
        EXPECT_NE(p.status().message().find("'" + pattern + "' is not a regular expression ("), std::string::npos)
            << p.status().message();
        EXPECT_EQ(p.status().message().find('\n'), std::string::npos) << p.status().message();
    }
}

TEST(NamePattern, APatternTooBigToCompileIsRefused)
{
    auto p = NamePattern::compile("((a{1000}){1000}){1000}");
    ASSERT_FALSE(p.isOk());
    EXPECT_EQ(p.status().message().find('\n'), std::string::npos) << p.status().message();
}

} // namespace
} // namespace placescope
