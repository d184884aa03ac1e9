// SPDX-License-Identifier: MIT
// A value whose form is wrong whatever the input (a size that is not a size, a device that is not cpu or gpu, a query
// without SQL) is a usage error, exit 2 as the conventions say; these exited 1.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace placescope::testing {
namespace {

const std::string kModel = std::string(PLACESCOPE_DATA_DIR) + "/models/mnist.onnx";
const std::string kTrace = std::string(PLACESCOPE_SOURCE_DIR) + "/resources/samples/resnet50_train_3steps.sqlite";

TEST(UsageExitCodesCli, PlaceWithAMalformedSizeOrPinIsAUsageError)
{
    TempDir dir("usage_exit_place");
    expectOneLineError(runPlacescope({ "place", "--model", kModel, "--gpu-memory", "lots" }, dir.path()), 2,
        "placescope place: --gpu-memory: bad size 'lots'");
    expectOneLineError(runPlacescope({ "place", "--gpu-memory", "lots" }, dir.path()), 2, "bad size 'lots'");
    expectOneLineError(runPlacescope({ "place", "--model", kModel, "--pin", "x=tpu" }, dir.path()), 2,
        "placescope place: --pin 'x=tpu': device 'tpu' is not cpu or gpu");
    expectOneLineError(runPlacescope({ "place", "--model", kModel, "--pin", "x" }, dir.path()), 2,
        "--pin 'x' is not NAME=cpu or NAME=gpu");
    // A well-formed pin of an op the model does not have is about the model: a failure, not a usage error.
    expectOneLineError(runPlacescope({ "place", "--model", kModel, "--pin", "no_such_op=cpu" }, dir.path()), 1,
        "unknown op 'no_such_op'");
}

TEST(UsageExitCodesCli, QueryWithoutSqlIsAUsageError)
{
    TempDir dir("usage_exit_query");
    std::ofstream(dir / "empty.sql") << "  ;\n";
    expectOneLineError(runPlacescope({ "query", kTrace }, dir.path()), 2, "placescope query: no SQL given");
    expectOneLineError(runPlacescope({ "query", kTrace, "" }, dir.path()), 2, "placescope query: no SQL given");
    expectOneLineError(runPlacescope({ "query", kTrace, " ; " }, dir.path()), 2, "placescope query: no SQL given");
    expectOneLineError(
        runPlacescope({ "query", kTrace, "--file", dir.file("empty.sql") }, dir.path()), 2, "no SQL given");
}

} // namespace
} // namespace placescope::testing
