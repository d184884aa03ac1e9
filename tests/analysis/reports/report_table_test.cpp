// SPDX-License-Identifier: MIT
// The row model's renderings: JSON is a list of row objects in column order with integer ns and null for empty
// cells; CSV quotes what needs it; text aligns, formats durations through units.h and prints the notes.
#include "analysis/reports/report_table.h"
#include "analysis/reports/reports.h"
#include "profiler/model/kernel_names.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace placescope {
namespace {

ReportTable sample()
{
    ReportTable t;
    t.title = "Sample";
    t.columns = { { "stream", "Stream", ColumnKind::Count }, { "mean_ns", "Mean", ColumnKind::Ns },
        { "ratio", "Ratio", ColumnKind::Real }, { "name", "Name", ColumnKind::Text } };
    t.rows.push_back({ int64_t { 7 }, int64_t { 1500 }, 0.25, std::string("a, \"quoted\" name") });
    t.rows.push_back({ int64_t { 14 }, ReportCell(), ReportCell(), std::string("plain") });
    t.notes.push_back("a note");
    return t;
}

TEST(ReportTable, JsonIsAListOfRowObjectsInColumnOrder)
{
    const nlohmann::ordered_json rows = nlohmann::ordered_json::parse(renderTable(sample(), TableFormat::Json));
    ASSERT_TRUE(rows.is_array());
    ASSERT_EQ(rows.size(), 2U);
    EXPECT_EQ(rows[0]["stream"], 7);
    EXPECT_TRUE(rows[0]["mean_ns"].is_number_integer());
    EXPECT_EQ(rows[0]["mean_ns"], 1500);
    EXPECT_DOUBLE_EQ(rows[0]["ratio"].get<double>(), 0.25);
    EXPECT_EQ(rows[0]["name"], "a, \"quoted\" name");
    EXPECT_TRUE(rows[1]["mean_ns"].is_null());
    std::vector<std::string> keys;
    for (auto it = rows[0].begin(); it != rows[0].end(); ++it)
        keys.push_back(it.key());
    EXPECT_EQ(keys, (std::vector<std::string> { "stream", "mean_ns", "ratio", "name" }));
}

TEST(ReportTable, CsvHasAHeaderOfKeysAndQuotesFields)
{
    EXPECT_EQ(renderTable(sample(), TableFormat::Csv),
        "stream,mean_ns,ratio,name\n7,1500,0.25,\"a, \"\"quoted\"\" name\"\n14,,,plain\n");
}

TEST(ReportTable, TextFormatsDurationsAndPrintsNotes)
{
    const std::string text = renderTable(sample(), TableFormat::Text);
    EXPECT_NE(text.find("Sample\n"), std::string::npos);
    EXPECT_NE(text.find("1.50 us"), std::string::npos) << text;
    EXPECT_NE(text.find("0.25"), std::string::npos);
    EXPECT_NE(text.find("Note: a note"), std::string::npos);
}

TEST(ReportTable, FormatNamesParse)
{
    TableFormat format = TableFormat::Text;
    EXPECT_TRUE(parseTableFormat("csv", format));
    EXPECT_EQ(format, TableFormat::Csv);
    EXPECT_TRUE(parseTableFormat("json", format));
    EXPECT_EQ(format, TableFormat::Json);
    EXPECT_FALSE(parseTableFormat("xml", format));
}

TEST(ReportRegistry, EveryReportOfTheIssueIsListedOnce)
{
    for (const char* name : { "kernel_launch", "kernel_launches", "idle", "queue", "queue_timeline", "steps",
             "bandwidth", "memory", "annotations", "overlap", "sequences", "collectives", "counters" }) {
        const ReportInfo* report = findReport(name);
        ASSERT_NE(report, nullptr) << name;
        EXPECT_EQ(report->name, name);
        EXPECT_FALSE(report->description.empty());
    }
    EXPECT_EQ(allReports().size(), 13U);
    EXPECT_EQ(findReport("nope"), nullptr);
}

TEST(KernelNames, AnonymousNamespacesAndTemplatesAreShortened)
{
    EXPECT_EQ(
        shortKernelName("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
                        "namespace)::TensorListMetadata<2>, float>(T1, T2)"),
        "multi_tensor_apply_kernel");
    EXPECT_EQ(shortKernelName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                              "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
                              "at::detail::Array<char*, 1>)"),
        "vectorized_elementwise_kernel");
    EXPECT_EQ(shortKernelName("volta_sgemm_128x64_nn"), "volta_sgemm_128x64_nn");
}

} // namespace
} // namespace placescope
