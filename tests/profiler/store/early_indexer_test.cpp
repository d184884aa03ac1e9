// SPDX-License-Identifier: MIT
// EarlyIndexer through TraceWriter: a table that stopped growing is indexed before commit, one still growing
// is not, and a table that grows again after its early indexes ends up fully and correctly indexed.
#include "profiler/store/early_indexer.h"
#include "profiler/store/trace_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <unistd.h>

namespace placescope {
namespace {

std::set<std::string> indexNames(SqliteDb& db)
{
    std::set<std::string> names;
    auto list = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'idx_%'");
    while (list.isOk() && list->step())
        names.insert(list->columnText(0));
    return names;
}

FrameworkOp op(int64_t i)
{
    FrameworkOp op;
    op.start = i * 10;
    op.end = i * 10 + 5;
    op.globalTid = 1 + i % 2;
    op.name = "aten::mm";
    op.category = "cpu_op";
    op.externalId = i;
    return op;
}

TEST(EarlyIndexerTest, AQuietTableIsIndexedBeforeCommitAndRowsAddedLaterAreIndexedToo)
{
    const std::string path
        = (std::filesystem::temp_directory_path() / ("early_indexer_" + std::to_string(::getpid()) + ".sqlite"))
              .string();
    std::filesystem::remove(path);
    auto writer = TraceWriter::create(path);
    ASSERT_TRUE(writer.isOk()) << writer.status().message();
    const int64_t ops = 2 * EarlyIndexer::kMinRows;
    for (int64_t i = 0; i < ops; ++i)
        (*writer)->add(op(i));
    // Then only CUDA API calls, long enough for the op table to count as quiet.
    const int64_t calls = (EarlyIndexer::kQuietChecks + 2) * static_cast<int64_t>(EarlyIndexer::kCheckEveryRows);
    for (int64_t i = 0; i < calls; ++i) {
        RuntimeEvent call;
        call.start = i;
        call.end = i + 1;
        call.globalTid = 1;
        call.correlationId = i;
        call.name = "cudaLaunchKernel";
        (*writer)->add(std::move(call));
    }
    std::set<std::string> early;
    ASSERT_TRUE((*writer)
                    ->withConnection([&](SqliteDb& db) {
                        early = indexNames(db);
                        return Status::ok();
                    })
                    .isOk());
    EXPECT_TRUE(early.count("idx_ops_thread_time"));
    EXPECT_FALSE(early.count("idx_runtime_thread_time")); // still growing when last looked at

    for (int64_t i = ops; i < ops + 100; ++i) // the op table grows again: indexed row by row
        (*writer)->add(op(i));
    ASSERT_TRUE((*writer)->commit().isOk());

    auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(db.isOk());
    EXPECT_TRUE(indexNames(*db).count("idx_runtime_thread_time")); // built at commit
    auto integrity = db->prepare("PRAGMA integrity_check");
    ASSERT_TRUE(integrity.isOk() && integrity->step());
    EXPECT_EQ(integrity->columnText(0), "ok");
    // Both the early rows and the late ones are found through the index.
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM PS_FRAMEWORK_OPS INDEXED BY idx_ops_thread_time WHERE globalTid = 2"
                            " AND start >= 0"),
        (ops + 100) / 2);
    EXPECT_EQ(*db->queryInt("SELECT count(*) FROM PS_FRAMEWORK_OPS INDEXED BY idx_ops_thread_time WHERE globalTid = 1"
                            " AND start >= "
                  + std::to_string(ops * 10)),
        50);
    db->close();
    std::filesystem::remove(path);
}

} // namespace
} // namespace placescope
