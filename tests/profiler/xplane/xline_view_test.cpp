// SPDX-License-Identifier: MIT
// XLineView, the hand-written reader of one serialized XLine, against the generated parser of the same xplane.proto:
// a line holding every kind of stat reads back field by field, and on every truncation and on every byte of the line
// changed to a handful of values, the two accept and refuse the same inputs, and agree on what they read.
#include "profiler/importers/xplane/xline_view.h"
#include "tests/profiler/xplane/damaged_copies.h"

#include <google/protobuf/stubs/logging.h>
#include <gtest/gtest.h>

#include <string>

namespace placescope {
namespace {

using tensorflow::profiler::XEvent;
using tensorflow::profiler::XLine;
using tensorflow::profiler::XStat;

std::string sampleLine()
{
    XLine line;
    line.set_id(-559038737); // a derived line's sentinel id as TensorFlow writes it, sign-extended
    line.set_name("Stream #14(Kernel)");
    line.set_display_name("Stream #14");
    line.set_timestamp_ns(1700000000123456789);
    line.set_duration_ps(5000000);
    line.set_display_id(3);
    XEvent* kernel = line.add_events();
    kernel->set_metadata_id(7);
    kernel->set_offset_ps(1500);
    kernel->set_duration_ps(2000000);
    XStat* stat = kernel->add_stats();
    stat->set_metadata_id(1);
    stat->set_int64_value(-42);
    stat = kernel->add_stats();
    stat->set_metadata_id(2);
    stat->set_uint64_value(18446744073709551615ULL);
    stat = kernel->add_stats();
    stat->set_metadata_id(3);
    stat->set_str_value("regs:38 shm:0 grid:160,1,1 block:1024,1,1");
    stat = kernel->add_stats();
    stat->set_metadata_id(4);
    stat->set_double_value(2.5);
    stat = kernel->add_stats();
    stat->set_metadata_id(5);
    stat->set_ref_value(9);
    stat = kernel->add_stats();
    stat->set_metadata_id(6);
    stat->set_bytes_value(std::string("\xff\x00\x01", 3)); // bytes need not be UTF-8
    XEvent* aggregated = line.add_events();
    aggregated->set_metadata_id(8);
    aggregated->set_num_occurrences(12);
    aggregated->set_duration_ps(77);
    line.add_events()->set_metadata_id(9); // an event with nothing else
    return line.SerializeAsString();
}

// What the generated parser read, in the view's terms, for comparing the two.
std::string describe(const XLine& line)
{
    std::string out = std::to_string(line.id()) + "|" + line.name() + "|" + line.display_name() + "|"
        + std::to_string(line.timestamp_ns());
    for (const XEvent& event : line.events()) {
        out += "|e" + std::to_string(event.metadata_id()) + "," + std::to_string(event.offset_ps()) + ","
            + std::to_string(event.duration_ps());
        for (const XStat& stat : event.stats()) {
            const XStatView view = statView(stat);
            out += ";s" + std::to_string(view.metadataId) + "," + std::to_string(static_cast<int>(view.kind)) + ","
                + std::to_string(view.signedValue) + "," + std::to_string(view.unsignedValue) + ","
                + std::to_string(view.doubleValue) + "," + std::string(view.text);
        }
    }
    return out;
}

std::string describe(const XLineView& line)
{
    std::string out = std::to_string(line.id) + "|" + std::string(line.name) + "|" + std::string(line.displayName) + "|"
        + std::to_string(line.timestampNs);
    for (const XEventView& event : line.events) {
        out += "|e" + std::to_string(event.metadataId) + "," + std::to_string(event.offsetPs) + ","
            + std::to_string(event.durationPs);
        for (const XStatView& view : line.statsOf(event))
            out += ";s" + std::to_string(view.metadataId) + "," + std::to_string(static_cast<int>(view.kind)) + ","
                + std::to_string(view.signedValue) + "," + std::to_string(view.unsignedValue) + ","
                + std::to_string(view.doubleValue) + "," + std::string(view.text);
    }
    return out;
}

TEST(XLineViewTest, ReadsEveryFieldTheImportUses)
{
    const std::string bytes = sampleLine();
    XLineView view;
    ASSERT_TRUE(view.read(bytes));
    EXPECT_EQ(view.id, -559038737);
    EXPECT_EQ(view.name, "Stream #14(Kernel)");
    EXPECT_EQ(view.displayName, "Stream #14");
    EXPECT_EQ(view.timestampNs, 1700000000123456789);
    ASSERT_EQ(view.events.size(), 3u);
    EXPECT_EQ(view.events[0].metadataId, 7);
    EXPECT_EQ(view.events[0].offsetPs, 1500);
    EXPECT_EQ(view.events[0].durationPs, 2000000);
    const auto stats = view.statsOf(view.events[0]);
    ASSERT_EQ(stats.size(), 6u);
    EXPECT_EQ(stats[0].kind, XStatView::Kind::Int64);
    EXPECT_EQ(stats[0].signedValue, -42);
    EXPECT_EQ(stats[1].kind, XStatView::Kind::Uint64);
    EXPECT_EQ(stats[1].unsignedValue, 18446744073709551615ULL);
    EXPECT_EQ(stats[2].kind, XStatView::Kind::Str);
    EXPECT_EQ(stats[2].text, "regs:38 shm:0 grid:160,1,1 block:1024,1,1");
    EXPECT_EQ(stats[3].kind, XStatView::Kind::Double);
    EXPECT_EQ(stats[3].doubleValue, 2.5);
    EXPECT_EQ(stats[4].kind, XStatView::Kind::Ref);
    EXPECT_EQ(stats[4].unsignedValue, 9u);
    EXPECT_EQ(stats[5].kind, XStatView::Kind::Bytes);
    EXPECT_EQ(stats[5].text, std::string("\xff\x00\x01", 3));
    EXPECT_EQ(view.events[1].offsetPs, 0); // num_occurrences shares offset_ps's oneof
    EXPECT_EQ(view.events[1].durationPs, 77);
    EXPECT_TRUE(view.statsOf(view.events[2]).empty());

    // Read again into the same view: nothing of the first line is left over.
    XLine other;
    other.set_name("python3");
    other.add_events()->set_metadata_id(1);
    const std::string otherBytes = other.SerializeAsString(); // the view's strings point into it
    ASSERT_TRUE(view.read(otherBytes));
    EXPECT_EQ(view.id, 0);
    EXPECT_EQ(view.name, "python3");
    EXPECT_EQ(view.displayName, "");
    ASSERT_EQ(view.events.size(), 1u);
    EXPECT_TRUE(view.statsOf(view.events[0]).empty());
}

TEST(XLineViewTest, AcceptsAndRefusesWhatTheGeneratedParserDoes)
{
    const std::string bytes = sampleLine();
    google::protobuf::LogSilencer quiet; // the generated parser logs each string that is not UTF-8
    int compared = 0, refused = 0;
    auto agree = [&](const std::string& input, const std::string& what) {
        XLine parsed;
        XLineView view;
        const bool generated = parsed.ParseFromString(input);
        const bool handWritten = view.read(input);
        ASSERT_EQ(handWritten, generated) << what;
        if (generated)
            EXPECT_EQ(describe(view), describe(parsed)) << what;
        else
            ++refused;
        ++compared;
    };
    const size_t copies = testing::forEachDamagedCopy(bytes, agree);
    EXPECT_EQ(copies, bytes.size() * 11);
    EXPECT_EQ(compared, static_cast<int>(copies)); // every copy was compared, none skipped
    EXPECT_GT(refused, 0); // the damage was seen, not only read past
}

} // namespace
} // namespace placescope
