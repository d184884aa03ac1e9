// SPDX-License-Identifier: MIT
#include "ui/core/lane_folding.h"

#include <gtest/gtest.h>

#include <random>

using namespace placescope::ui;

namespace {

LaneRow randomRow(size_t n, uint32_t seed, int64_t maxGap, int64_t maxDuration)
{
    std::mt19937_64 rng(seed);
    LaneRow row;
    int64_t t = 1'000;
    for (size_t i = 0; i < n; ++i) {
        t += static_cast<int64_t>(rng() % static_cast<uint64_t>(maxGap));
        // Mostly tiny events with a few long ones, like kernels on a stream.
        const int64_t duration = rng() % 50 == 0
            ? static_cast<int64_t>(rng() % static_cast<uint64_t>(maxDuration * 100))
            : 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(maxDuration));
        row.push(t, t + duration, static_cast<uint32_t>(i % 7), static_cast<uint32_t>(i), 0, EventKind::Kernel);
        t += duration;
    }
    row.finish();
    return row;
}

// Summed duration of the events that start in [from, to) and end after `from` (what a view shows).
int64_t visibleTotal(const LaneRow& row, int64_t from, int64_t to)
{
    int64_t total = 0;
    for (size_t i = 0; i < row.size(); ++i)
        if (row.endNs[i] > from && row.startNs[i] <= to)
            total += row.durationNs(i);
    return total;
}

} // namespace

TEST(LaneFolding, FoldingKeepsTheTotalTimeAtEveryZoom)
{
    const LaneRow row = randomRow(20'000, 7, 400, 300);
    const int64_t span = row.endNs.back() - row.startNs.front();
    for (double widthPx : { 100.0, 1000.0, 3840.0 }) {
        for (int zoom = 0; zoom < 12; ++zoom) {
            const double nsPerPixel = static_cast<double>(span) / widthPx / std::pow(3.0, zoom);
            for (int64_t offset : { int64_t(0), span / 3, span / 2 }) {
                TimeAxis axis(row.startNs.front() + offset, nsPerPixel);
                std::vector<DrawItem> items;
                foldVisible(row, axis, widthPx, 3.0, items);
                int64_t total = 0;
                uint64_t count = 0;
                for (size_t k = 0; k < items.size(); ++k) {
                    total += items[k].totalNs;
                    count += items[k].count;
                    if (k > 0) {
                        // Items cover consecutive event ranges, in order, without overlap.
                        EXPECT_EQ(items[k].firstIndex, items[k - 1].firstIndex + items[k - 1].count);
                    }
                }
                EXPECT_EQ(total, visibleTotal(row, axis.viewStartNs(), axis.viewEndNs(widthPx)))
                    << "width " << widthPx << " zoom " << zoom << " offset " << offset;
                if (!items.empty()) {
                    EXPECT_EQ(count, items.back().firstIndex + items.back().count - items.front().firstIndex);
                }
            }
        }
    }
}

TEST(LaneFolding, WholeViewFoldsToAboutOneItemPerFewPixels)
{
    const LaneRow row = randomRow(200'000, 11, 50, 40);
    TimeAxis axis;
    axis.fit(row.startNs.front(), row.endNs.back(), 1000);
    std::vector<DrawItem> items;
    foldVisible(row, axis, 1000, 3.0, items);
    EXPECT_LE(items.size(), 1000u);
    EXPECT_GT(items.size(), 50u);
    int64_t total = 0;
    for (const auto& item : items)
        total += item.totalNs;
    EXPECT_EQ(total, row.prefixDurationNs.back());
}

TEST(LaneFolding, WideEventsAreDrawnOnTheirOwn)
{
    LaneRow row;
    row.push(0, 1000, 0, 0, 0, EventKind::Kernel); // 100 px
    row.push(1000, 1001, 1, 1, 0, EventKind::Kernel); // narrow
    row.push(1002, 1003, 1, 2, 0, EventKind::Kernel); // narrow, folds with the one before
    row.push(1010, 2000, 2, 3, 0, EventKind::Kernel); // wide again
    row.finish();
    TimeAxis axis(0, 10.0);
    std::vector<DrawItem> items;
    foldVisible(row, axis, 300, 3.0, items);
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(items[0].count, 1u);
    EXPECT_EQ(items[1].count, 2u);
    EXPECT_EQ(items[1].totalNs, 2);
    EXPECT_EQ(items[2].count, 1u);
    EXPECT_EQ(items[2].startNs, 1010);
}

TEST(LaneFolding, FirstVisibleEventIsFoundByBinarySearch)
{
    LaneRow row;
    for (int i = 0; i < 10; ++i)
        row.push(i * 100, i * 100 + 50, 0, 0, 0, EventKind::Kernel);
    row.finish();
    EXPECT_EQ(firstVisibleEvent(row, 0), 0u);
    EXPECT_EQ(firstVisibleEvent(row, 49), 0u);
    EXPECT_EQ(firstVisibleEvent(row, 50), 1u);
    EXPECT_EQ(firstVisibleEvent(row, 975), 10u);
}

TEST(LaneRows, NestedRangesGetTheirDepth)
{
    std::vector<PendingEvent> events = {
        { 0, 100, 0, 0, 0, EventKind::FrameworkOp },
        { 10, 50, 1, 1, 0, EventKind::FrameworkOp },
        { 20, 30, 2, 2, 0, EventKind::FrameworkOp },
        { 60, 90, 3, 3, 0, EventKind::FrameworkOp },
        { 120, 130, 4, 4, 0, EventKind::FrameworkOp },
    };
    Lane lane;
    buildRows(events, lane);
    ASSERT_EQ(lane.rows.size(), 3u);
    EXPECT_EQ(lane.rows[0].size(), 2u); // 0-100 and 120-130
    EXPECT_EQ(lane.rows[1].size(), 2u); // 10-50 and 60-90
    EXPECT_EQ(lane.rows[2].size(), 1u);
    EXPECT_EQ(lane.rows[1].prefixDurationNs.back(), 70);
    EXPECT_LT(lane.rows[0].memoryBytes() / lane.rows[0].size(), 64u);
}
