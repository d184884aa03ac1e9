// SPDX-License-Identifier: MIT
// `report memory` on a trace whose [memory] events carry sizes but no allocator totals (ResNet-50 on a V100, PyTorch's
// 2021 schema; issue 26 saw "peak reserved -1 B"): allocated is rebuilt from the sizes and checked against a running
// sum computed by SQL on the imported file; reserved, which the trace does not record, is said to be missing and
// never printed as a number.
#include "analysis/reports/reports.h"
#include "profiler/importers/importer.h"
#include "profiler/store/trace_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

namespace placescope {
namespace {

TEST(MemoryWithoutTotals, AllocatedIsRebuiltFromTheSizesAndNoSentinelIsShown)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ps_memory_legacy_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "legacy.sqlite").string();
    auto imported = importTraces(
        { std::string(PLACESCOPE_DATA_DIR) + "/traces/kineto_resnet50_v100_legacy2021.pt.trace.json.gz" }, path,
        ImportOptions {});
    ASSERT_TRUE(imported.isOk()) << imported.status().message();
    auto db = openTrace(path);
    ASSERT_TRUE(db.isOk());
    // The trace records sizes only: no totals at all.
    ASSERT_EQ(db->queryInt("SELECT COUNT(*) FROM PS_MEMORY_EVENTS WHERE totalAllocated IS NOT NULL").value(), 0);
    ASSERT_GT(db->queryInt("SELECT COUNT(*) FROM PS_MEMORY_EVENTS WHERE deviceType = 1").value(), 1000);
    // The rebuilt peak: the running sum's highest value, lifted by its lowest when that is below zero.
    const std::string running = "(SELECT SUM(bytes) OVER (ORDER BY start, rowid) AS s FROM PS_MEMORY_EVENTS "
                                "WHERE deviceType = 1 AND deviceId = 0)";
    const int64_t highest = db->queryInt("SELECT MAX(s) FROM " + running).value();
    const int64_t lowest = db->queryInt("SELECT MIN(MIN(s), 0) FROM " + running).value();

    auto table = runReport(*db, *findReport("memory"), ReportOptions {});
    ASSERT_TRUE(table.isOk()) << table.status().message();
    const size_t allocated = table->column("allocated_max"), reserved = table->column("reserved_max");
    int64_t peak = -1;
    for (const auto& row : table->rows) {
        ASSERT_TRUE(std::holds_alternative<int64_t>(row[allocated]));
        peak = std::max(peak, std::get<int64_t>(row[allocated]));
        EXPECT_TRUE(std::holds_alternative<std::monostate>(row[reserved])); // unknown, not -1
    }
    EXPECT_EQ(peak, highest - lowest);
    bool saidMissing = false, saidRebuilt = false;
    for (const std::string& note : table->notes) {
        EXPECT_EQ(note.find("-1"), std::string::npos) << note;
        saidMissing |= note.find("reserved not recorded") != std::string::npos;
        saidRebuilt |= note.find("running sum") != std::string::npos;
    }
    EXPECT_TRUE(saidMissing);
    EXPECT_TRUE(saidRebuilt);
    const std::string text = renderTable(*table, TableFormat::Text);
    EXPECT_EQ(text.find("-1 B"), std::string::npos);
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace placescope
