// SPDX-License-Identifier: MIT
// The placement problem file validates every number (issue 15): a negative latency, byte count or memory limit, a
// byte count past 1e15 (1.5e30, 2^64-1, which made the objective negative or wrap), a cost that is not a number,
// and a device name given twice are one-line errors naming the field; sound problems still load and plan.
#include "placement/engine/planner.h"
#include "placement/engine/problem_file.h"

#include <gtest/gtest.h>

#include <string>

namespace placescope {
namespace {

// A two-device problem with `device`, `link`, `op` and `edge` spliced in where each belongs.
std::string problem(const std::string& gpu = R"({"name":"gpu","kind":"gpu"})",
    const std::string& link = R"({"from":"cpu","to":"gpu","latency_us":10,"bandwidth_gbps":12})",
    const std::string& costs = R"({"cpu":100,"gpu":10})", const std::string& edgeBytes = "1000",
    const std::string& opMemory = "0")
{
    return R"({"devices":[{"name":"cpu"},)" + gpu + R"(],"links":[)" + link
        + R"(],"ops":[{"id":"a","cost_us":{"cpu":5,"gpu":50}},{"id":"b","cost_us":)" + costs + R"(,"memory_bytes":)"
        + opMemory + R"(}],"edges":[{"from":"a","to":"b","bytes":)" + edgeBytes + "}]}";
}

void expectError(const std::string& text, const std::string& expected)
{
    auto graph = parsePlacementProblem(text);
    ASSERT_FALSE(graph.isOk()) << text;
    const std::string& message = graph.status().message();
    EXPECT_NE(message.find(expected), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(ProblemFileValidation, SoundProblemLoadsAndPlans)
{
    auto graph = parsePlacementProblem(problem());
    ASSERT_TRUE(graph.isOk()) << graph.status().message();
    EXPECT_EQ(graph->edges.at(0).bytes, 1000);
    auto planned = plan(*graph, {});
    ASSERT_TRUE(planned.isOk()) << planned.status().message();
    EXPECT_GT(planned->objectiveUs, 0);
}

TEST(ProblemFileValidation, NegativeNumbersAreRefused)
{
    expectError(problem(R"({"name":"gpu","kind":"gpu","memory_bytes":-1})"),
        "device 'gpu' memory_bytes is -1; a byte count cannot be negative");
    expectError(problem(R"({"name":"gpu","kind":"gpu"})", R"({"from":"cpu","to":"gpu","latency_us":-5})"),
        "link cpu -> gpu latency_us is -5; expected microseconds from 0 to 1e12");
    expectError(
        problem(R"({"name":"gpu","kind":"gpu"})", R"({"from":"cpu","to":"gpu"})", "{\"cpu\":100,\"gpu\":10}", "-1000"),
        "edge 'a' -> 'b' bytes is -1000; a byte count cannot be negative");
    expectError(problem(R"({"name":"gpu","kind":"gpu"})", R"({"from":"cpu","to":"gpu"})", "{\"cpu\":-3,\"gpu\":10}"),
        "op 'b' cost_us.cpu is -3");
    expectError(
        problem(R"({"name":"gpu","kind":"gpu"})", R"({"from":"cpu","to":"gpu"})", "{\"cpu\":1,\"gpu\":10}", "0", "-8"),
        "op 'b' memory_bytes is -8");
    expectError(problem(R"({"name":"gpu","kind":"gpu"})", R"({"from":"cpu","to":"gpu","bandwidth_gbps":0})"),
        "bandwidth_gbps is 0; expected a positive number");
}

TEST(ProblemFileValidation, HugeOrFractionalByteCountsAreRefused)
{
    const std::string gpu = R"({"name":"gpu","kind":"gpu"})", link = R"({"from":"cpu","to":"gpu"})",
                      costs = R"({"cpu":100,"gpu":10})";
    expectError(problem(gpu, link, costs, "1.5e30"), "edge 'a' -> 'b' bytes is 1.5e+30; expected a whole number");
    expectError(problem(gpu, link, costs, "18446744073709551615"), "bytes is 18446744073709551615; expected a whole");
    expectError(problem(gpu, link, costs, "12.5"), "bytes is 12.5; expected a whole number");
    expectError(problem(gpu, link, costs, "\"lots\""), "bytes is \"lots\", not a number");
    // 1e15 is the largest accepted, and plans to a finite, positive objective.
    auto largest = parsePlacementProblem(problem(gpu, link, costs, "1000000000000000"));
    ASSERT_TRUE(largest.isOk()) << largest.status().message();
    auto planned = plan(*largest, {});
    ASSERT_TRUE(planned.isOk()) << planned.status().message();
    EXPECT_GT(planned->objectiveUs, 0);
}

TEST(ProblemFileValidation, DuplicateDeviceNamesAreRefused)
{
    expectError(problem(R"({"name":"cpu","kind":"gpu"})"), "device name 'cpu' appears twice");
}

} // namespace
} // namespace placescope
