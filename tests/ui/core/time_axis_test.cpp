// SPDX-License-Identifier: MIT
#include "ui/core/time_axis.h"

#include <gtest/gtest.h>

using placescope::ui::TimeAxis;

struct MappingCase
{
    int64_t viewStartNs;
    double nsPerPixel;
    int64_t timeNs;
    double expectedX;
};

class TimeAxisMapping : public ::testing::TestWithParam<MappingCase>
{
};

TEST_P(TimeAxisMapping, TimeToPixelAndBack)
{
    const MappingCase c = GetParam();
    TimeAxis axis(c.viewStartNs, c.nsPerPixel);
    EXPECT_DOUBLE_EQ(axis.xForTime(c.timeNs), c.expectedX);
    // Back to time: exact to within one pixel's worth of ns.
    EXPECT_NEAR(static_cast<double>(axis.timeForX(c.expectedX)), static_cast<double>(c.timeNs), c.nsPerPixel);
}

INSTANTIATE_TEST_SUITE_P(Cases, TimeAxisMapping,
    ::testing::Values(MappingCase { 0, 1.0, 0, 0.0 }, MappingCase { 0, 1.0, 500, 500.0 },
        MappingCase { 1000, 10.0, 6000, 500.0 }, MappingCase { 1000, 10.0, 0, -100.0 },
        MappingCase { 1'700'000'000'000'000'000, 1e6, 1'700'000'000'500'000'000, 500.0 },
        MappingCase { 0, 0.5, 100, 200.0 }));

TEST(TimeAxis, FitShowsTheRangeAcrossTheWidth)
{
    TimeAxis axis;
    axis.fit(2'000, 12'000, 1000);
    EXPECT_EQ(axis.viewStartNs(), 2'000);
    EXPECT_DOUBLE_EQ(axis.nsPerPixel(), 10.0);
    EXPECT_EQ(axis.viewEndNs(1000), 12'000);
}

TEST(TimeAxis, ZoomKeepsTheTimeUnderTheCursor)
{
    for (double anchor : { 0.0, 123.0, 640.0, 999.0 }) {
        for (double factor : { 2.0, 0.5, 1.25, 7.0 }) {
            TimeAxis axis(1'000'000, 100.0);
            const int64_t before = axis.timeForX(anchor);
            axis.zoomAround(anchor, factor);
            EXPECT_NEAR(static_cast<double>(axis.timeForX(anchor)), static_cast<double>(before), 1.0)
                << "anchor " << anchor << " factor " << factor;
            EXPECT_DOUBLE_EQ(axis.nsPerPixel(), 100.0 / factor);
        }
    }
}

TEST(TimeAxis, ZoomIsClamped)
{
    TimeAxis axis(0, 1.0);
    axis.zoomAround(0, 1e9);
    EXPECT_DOUBLE_EQ(axis.nsPerPixel(), TimeAxis::kMinNsPerPixel);
    axis.zoomAround(0, 1e-30);
    EXPECT_DOUBLE_EQ(axis.nsPerPixel(), TimeAxis::kMaxNsPerPixel);
}

TEST(TimeAxis, PanMovesByPixels)
{
    TimeAxis axis(5'000, 20.0);
    axis.panPixels(50);
    EXPECT_EQ(axis.viewStartNs(), 6'000);
    axis.panPixels(-100);
    EXPECT_EQ(axis.viewStartNs(), 4'000);
}

TEST(TimeAxis, ClampKeepsTheViewInsideTheBounds)
{
    // 100 px at 10 ns/px show 1000 ns of a trace [0, 5000].
    TimeAxis before(-300, 10.0);
    before.clampTo(0, 5'000, 100);
    EXPECT_EQ(before.viewStartNs(), 0);
    TimeAxis after(4'500, 10.0);
    after.clampTo(0, 5'000, 100);
    EXPECT_EQ(after.viewStartNs(), 4'000);
    TimeAxis inside(1'234, 10.0);
    inside.clampTo(0, 5'000, 100);
    EXPECT_EQ(inside.viewStartNs(), 1'234);
    TimeAxis wider(-700, 100.0); // 10000 ns shown: starts at the trace's start
    wider.clampTo(0, 5'000, 100);
    EXPECT_EQ(wider.viewStartNs(), 0);
    EXPECT_DOUBLE_EQ(wider.nsPerPixel(), 100.0);
}
