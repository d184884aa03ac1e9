// SPDX-License-Identifier: MIT
// The split of a serialized XPlane (xspace_wire.h), its event metadata read by hand and the line reader (xline_view.h)
// together, against the generated parser on one plane: on every truncation and every byte changed to a handful of
// values, splitting the plane and reading each of its lines succeeds exactly when the generated parser accepts the
// plane, and reads the same event names and lines.
#include "profiler/importers/xplane/xline_view.h"
#include "profiler/importers/xplane/xspace_wire.h"
#include "tests/profiler/xplane/damaged_copies.h"

#include <google/protobuf/stubs/logging.h>
#include <gtest/gtest.h>

#include <string>

namespace placescope {
namespace {

using tensorflow::profiler::XLine;
using tensorflow::profiler::XPlane;

std::string samplePlane()
{
    XPlane plane;
    plane.set_id(4);
    plane.set_name("/device:GPU:4");
    auto& kernel = (*plane.mutable_event_metadata())[7];
    kernel.set_id(7);
    kernel.set_name("volta_sgemm_128x64_nn");
    kernel.set_display_name("sgemm");
    kernel.set_metadata(std::string("\x01\xff", 2));
    kernel.add_child_id(300); // packed: two bytes
    kernel.add_child_id(5);
    auto* kernelStat = kernel.add_stats();
    kernelStat->set_metadata_id(1);
    kernelStat->set_str_value("hlo");
    (*plane.mutable_event_metadata())[8].set_name("MemcpyH2D");
    (*plane.mutable_stat_metadata())[1].set_name("correlation_id");
    auto* stat = plane.add_stats();
    stat->set_metadata_id(1);
    stat->set_int64_value(1530000);
    for (const char* name : { "Stream #14(Kernel)", "Steps" }) {
        XLine* line = plane.add_lines();
        line->set_name(name);
        line->set_timestamp_ns(1000);
        auto* event = line->add_events();
        event->set_metadata_id(7);
        event->set_offset_ps(5000);
        auto* eventStat = event->add_stats();
        eventStat->set_metadata_id(1);
        eventStat->set_str_value("42");
    }
    return plane.SerializeAsString();
}

// The plane's name and its lines' names and event counts, or "" when it is refused.
std::string readByHand(const std::string& bytes)
{
    google::protobuf::Arena arena;
    const auto key = peekIdAndName(bytes);
    const auto parts = splitXPlane(bytes, arena);
    if (!key || !parts)
        return "";
    std::string out = std::string(key->name) + "/" + parts->header->name();
    for (int64_t id : { 7, 8, 9 })
        if (auto found = parts->eventNames.find(id); found != parts->eventNames.end())
            out += "|m" + std::to_string(id) + "=" + std::string(found->second);
    XLineView line;
    for (std::string_view lineBytes : parts->lines) {
        if (!line.read(lineBytes))
            return "";
        out += "|" + std::string(line.name) + ":" + std::to_string(line.events.size());
    }
    return out;
}

std::string readGenerated(const std::string& bytes)
{
    XPlane plane;
    if (!plane.ParseFromString(bytes))
        return "";
    std::string out = plane.name() + "/" + plane.name();
    for (int64_t id : { 7, 8, 9 })
        if (auto found = plane.event_metadata().find(id); found != plane.event_metadata().end())
            out += "|m" + std::to_string(id) + "=" + found->second.name();
    for (const XLine& line : plane.lines())
        out += "|" + line.name() + ":" + std::to_string(line.events_size());
    return out;
}

TEST(XSpaceWireTest, SplitAndReadAcceptWhatTheGeneratedParserDoes)
{
    google::protobuf::LogSilencer quiet; // the generated parser logs each string that is not UTF-8
    const std::string bytes = samplePlane();
    ASSERT_EQ(readByHand(bytes),
        "/device:GPU:4//device:GPU:4|m7=volta_sgemm_128x64_nn|m8=MemcpyH2D|Stream #14(Kernel):1|Steps:1");
    int refused = 0;
    auto agree = [&](const std::string& input, const std::string& what) {
        const std::string generated = readGenerated(input);
        EXPECT_EQ(readByHand(input), generated) << what;
        refused += generated.empty();
    };
    EXPECT_EQ(testing::forEachDamagedCopy(bytes, agree), bytes.size() * 11);
    EXPECT_GT(refused, 0);
}

} // namespace
} // namespace placescope
