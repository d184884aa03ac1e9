// SPDX-License-Identifier: MIT
// The HTML report's time-series plots (`placescope analyze -o run.html`) draw the rows `placescope report NAME
// --format json` prints: on the real V100 trace (2 streams, allocator events, DtoD copies and memsets), every plotted
// point of the queue, memory and bandwidth plots is a (bucket_start_ns, value) of that report's JSON rows and every
// row is plotted, read back from the polylines' data attributes; and the page stays self-contained.
#include "tests/support/cli_run.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using placescope::testing::CliRun;
using placescope::testing::readFile;

struct Polyline
{
    std::string report, series, column;
    std::vector<std::pair<int64_t, double>> rows; // data-x-ns, data-y
    size_t drawnPoints = 0;
};

std::vector<Polyline> polylines(const std::string& html)
{
    static const std::regex kLine(R"(<polyline[^>]*points='([^']*)' data-report='([a-z_]+)' data-series='([^']*)' )"
                                  R"(data-column='([a-z_]+)' data-x-ns='([^']*)' data-y='([^']*)'/>)");
    std::vector<Polyline> out;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), kLine); it != std::sregex_iterator(); ++it) {
        Polyline p { (*it)[2], (*it)[3], (*it)[4], {}, 0 };
        std::istringstream points((*it)[1].str()), xs((*it)[5].str()), ys((*it)[6].str());
        for (std::string point; points >> point;)
            ++p.drawnPoints;
        int64_t x = 0;
        std::string y;
        while (xs >> x && ys >> y)
            p.rows.push_back({ x, y == "null" ? -1.0 : std::strtod(y.c_str(), nullptr) });
        out.push_back(std::move(p));
    }
    return out;
}

class HtmlPlotsCli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_temp = std::make_unique<placescope::testing::TempDir>("html_plots_cli");
        s_dir = s_temp->path();
        const std::string trace = std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_v100_rank1of2_memory.json.gz";
        ASSERT_EQ(run({ "import", trace, "-o", path("v100.sqlite"), "-q" }).exitCode, 0);
        const CliRun analyze = run({ "analyze", path("v100.sqlite"), "-o", path("v100.html"), "-q" });
        ASSERT_EQ(analyze.exitCode, 0) << analyze.err;
        s_html = new std::string(readFile(path("v100.html")));
    }
    static void TearDownTestSuite()
    {
        fs::remove_all(s_dir);
        delete s_html;
    }
    static std::string path(const std::string& name) { return (s_dir / name).string(); }
    static CliRun run(const std::vector<std::string>& args) { return placescope::testing::runPlacescope(args, s_dir); }

    // The (bucket_start_ns, column) pairs of the report's JSON rows, and those the HTML plotted for it, both sorted.
    static void expectPlotEqualsRows(const std::string& report, const std::string& column, bool oneDrawnPointPerRow)
    {
        const CliRun json = run({ "report", report, path("v100.sqlite"), "--format", "json", "-q" });
        ASSERT_EQ(json.exitCode, 0) << json.err;
        std::vector<std::pair<int64_t, double>> expected;
        for (const auto& row : nlohmann::json::parse(json.out))
            expected.push_back(
                { row["bucket_start_ns"].get<int64_t>(), row[column].is_null() ? -1.0 : row[column].get<double>() });
        std::vector<std::pair<int64_t, double>> plotted;
        size_t lines = 0;
        for (const Polyline& p : polylines(*s_html)) {
            if (p.report != report || p.column != column)
                continue;
            ++lines;
            plotted.insert(plotted.end(), p.rows.begin(), p.rows.end());
            if (oneDrawnPointPerRow)
                EXPECT_EQ(p.drawnPoints, p.rows.size()) << report << " " << p.series;
            else
                EXPECT_GE(p.drawnPoints, p.rows.size()) << report << " " << p.series;
        }
        EXPECT_GE(lines, 1U) << report;
        ASSERT_GT(expected.size(), 10U) << report;
        std::sort(expected.begin(), expected.end());
        std::sort(plotted.begin(), plotted.end());
        EXPECT_EQ(plotted, expected) << report << " " << column;
    }

    static std::unique_ptr<placescope::testing::TempDir> s_temp;

    static fs::path s_dir;
    static std::string* s_html;
};
std::unique_ptr<placescope::testing::TempDir> HtmlPlotsCli::s_temp;
fs::path HtmlPlotsCli::s_dir;
std::string* HtmlPlotsCli::s_html = nullptr;

TEST_F(HtmlPlotsCli, QueuePlotIsTheQueueTimelineRows)
{
    expectPlotEqualsRows("queue_timeline", "mean", true);
    EXPECT_NE(s_html->find("data-series='rank 1 device 1 stream 7'"), std::string::npos);
}

TEST_F(HtmlPlotsCli, MemoryPlotIsTheMemoryRows)
{
    expectPlotEqualsRows("memory", "allocated_max", true);
    expectPlotEqualsRows("memory", "reserved_max", true);
    EXPECT_NE(s_html->find("capacity 31.75 GiB"), std::string::npos); // the V100's 32 GB from deviceProperties
}

TEST_F(HtmlPlotsCli, BandwidthPlotIsTheBandwidthRows)
{
    // Buckets without a copy are drawn at 0 between the rows, so a line has at least as many points as rows.
    expectPlotEqualsRows("bandwidth", "gbps", false);
}

TEST_F(HtmlPlotsCli, PageStaysSelfContained)
{
    EXPECT_EQ(s_html->find("<script"), std::string::npos);
    auto count = [](const std::string& text, const std::string& what) {
        size_t n = 0;
        for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
            ++n;
        return n;
    };
    EXPECT_EQ(count(*s_html, "http://"), count(*s_html, "http://www.w3.org/2000/svg")); // only the SVG namespace
    EXPECT_EQ(s_html->find("https://"), std::string::npos);
    EXPECT_NE(s_html->find("Launch queue length per stream over time"), std::string::npos);
    EXPECT_NE(s_html->find("Copy bandwidth over time"), std::string::npos);
}

} // namespace
