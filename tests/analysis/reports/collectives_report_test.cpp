// SPDX-License-Identifier: MIT
// The collectives report: NCCL's bus bandwidth rule on its own, the report on a built trace whose collectives have
// known sizes and times (each expected figure worked out next to it), and on the real A100 NCCL trace checked against
// collectives_ref.py, which reads the sizes from the raw JSON's kernel events instead of the imported ops.
#include "analysis/reports/nccl_collective.h"
#include "analysis/reports/reports.h"
#include "profiler/importers/importer.h"
#include "tests/analysis/findings/trace_builder.h"

#include <map>

namespace placescope::testing {
namespace {

TEST(NcclCollective, BusBandwidthFactorsAreNcclTestsOnes)
{
    EXPECT_DOUBLE_EQ(*busBandwidthFactor("AllReduce", 8), 2.0 * 7 / 8);
    EXPECT_DOUBLE_EQ(*busBandwidthFactor("AllGather", 8), 7.0 / 8);
    EXPECT_DOUBLE_EQ(*busBandwidthFactor("ReduceScatter", 4), 3.0 / 4);
    EXPECT_DOUBLE_EQ(*busBandwidthFactor("AllToAll", 2), 1.0 / 2);
    EXPECT_DOUBLE_EQ(*busBandwidthFactor("Broadcast", -1), 1.0); // needs no rank count
    EXPECT_DOUBLE_EQ(*busBandwidthFactor("Reduce", 16), 1.0);
    EXPECT_FALSE(busBandwidthFactor("AllReduce", -1).has_value()); // group size not recorded
    EXPECT_FALSE(busBandwidthFactor("SendRecv", 2).has_value()); // not in PERFORMANCE.md's summary
}

TEST(NcclCollective, MessageIsTheLargerSideInBytes)
{
    auto m = parseCollectiveMessage(R"({"Collective name":"_allgather_base","In msg nelems":250,"Out msg nelems":1000,)"
                                    R"("Group size":4,"dtype":"BFloat16"})");
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(ncclCollectiveKind(m->name), "AllGather");
    EXPECT_EQ(m->groupSize, 4);
    EXPECT_EQ(collectiveBytes(*m), 2000);
    EXPECT_EQ(ncclCollectiveKind("_reduce_scatter_base"), "ReduceScatter");
    EXPECT_EQ(ncclCollectiveKind("allreduce_coalesced"), "AllReduce");
    EXPECT_EQ(ncclCollectiveKind("all_to_all"), "AllToAll");
    EXPECT_EQ(ncclCollectiveKind("reduce"), "Reduce");
    EXPECT_EQ(ncclCollectiveKind("recv"), "recv");
    m->dtype = "Float17"; // an unknown dtype has no size
    EXPECT_EQ(collectiveBytes(*m), -1);
    EXPECT_FALSE(parseCollectiveMessage(R"({"module":"x"})").has_value());
    EXPECT_FALSE(parseCollectiveMessage(R"({"Collective name": )").has_value()); // cut short: no crash, no message
}

TEST(NcclCollective, MessageNamesItsGroupAndSequenceWhenTheTraceHasThem)
{
    // As a PyTorch 2.x trace's record_param_comms carries them (the DLRM ranks in ../shared/traces).
    auto m = parseCollectiveMessage(R"({"Collective name":"allreduce","In msg nelems":1048576,"Out msg nelems":)"
                                    R"(1048576,"Group size":8,"dtype":"Float","Process Group Name":"3",)"
                                    R"("Process Group Description":"default_pg","Seq":1042})");
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->processGroup, "3");
    EXPECT_EQ(m->seq, 1042);
    EXPECT_EQ(collectiveBytes(*m), 4 * 1048576);
    // Older traces have neither; a wrong type counts as absent.
    auto old = parseCollectiveMessage(R"({"Collective name":"broadcast","Seq":"7","Process Group Name":0})");
    ASSERT_TRUE(old.has_value());
    EXPECT_EQ(old->processGroup, "");
    EXPECT_EQ(old->seq, -1);
    EXPECT_EQ(old->groupSize, -1);
    EXPECT_FALSE(parseCollectiveMessage(R"({"Collective name":""})").has_value()) << "an empty name names nothing";
    EXPECT_FALSE(parseCollectiveMessage(R"(["Collective name"])").has_value()) << "not an object";
}

std::string message(const std::string& name, int64_t in, int64_t out, const std::string& dtype, int64_t ranks)
{
    return R"({"Collective name":")" + name + R"(","In msg nelems":)" + std::to_string(in) + R"(,"Out msg nelems":)"
        + std::to_string(out) + R"(,"Group size":)" + std::to_string(ranks) + R"(,"dtype":")" + dtype + R"("})";
}

const std::string kAllReduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
const std::string kAllGather = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
const std::string kReduceScatter = "ncclDevKernel_ReduceScatter_Sum_f16_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
const std::string kBroadcast = "ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
const std::string kSendRecv = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";

// Four ranks; every collective's record_param_comms op (external id n, the n-th hostOp) is linked to its kernels
// (correlation id m, the m-th kernel) as the Kineto importer links them.
class CollectivesOnBuiltTrace : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_builder = new TraceBuilder("collectives");
        TraceBuilder& b = *s_builder;
        b.gpu(0, "Test GPU", 16LL << 30, 8);
        // Two all-reduces of 1,000,000 floats (4 MB each), 40 us each: 8 MB in 80 us = 100 GB/s; bus x 2*3/4 = 150.
        collective(0, message("allreduce", 1000000, 1000000, "Float", 4), { { 10 * kUs, 50 * kUs, kAllReduce } });
        collective(
            60 * kUs, message("allreduce", 1000000, 1000000, "Float", 4), { { 70 * kUs, 110 * kUs, kAllReduce } });
        // An all-gather into 1,000,000 bf16 (2 MB) in 20 us: 100 GB/s; bus x 3/4 = 75.
        collective(115 * kUs, message("_allgather_base", 250000, 1000000, "BFloat16", 4),
            { { 120 * kUs, 140 * kUs, kAllGather } });
        // A reduce-scatter of 1,000,000 halves (2 MB) in 10 us: 200 GB/s; bus x 3/4 = 150.
        collective(145 * kUs, message("_reduce_scatter_base", 1000000, 250000, "Half", 4),
            { { 150 * kUs, 160 * kUs, kReduceScatter } });
        // A broadcast of 1000 longs (8000 B) in 1 us: 8 GB/s, bus x 1.
        collective(165 * kUs, message("broadcast", 1000, 1000, "Long", 4), { { 170 * kUs, 171 * kUs, kBroadcast } });
        // An all-to-all of 1000 floats run as two SendRecv kernels on two streams, together 180-184 us: one
        // collective of 4000 B in 4 us = 1 GB/s; bus x 3/4 = 0.75.
        collective(175 * kUs, message("all_to_all", 1000, 1000, "Float", 4),
            { { 180 * kUs, 182 * kUs, kSendRecv }, { 181 * kUs, 184 * kUs, kSendRecv, 15 } });
        // An all-reduce kernel no op describes: counted, without a size.
        b.kernel(200 * kUs, 230 * kUs, kAllReduce, 190 * kUs, 5 * kUs, kPid, 0, 14);
        ++s_kernels;
        Status committed = b.writer().commit();
        ASSERT_TRUE(committed.isOk()) << committed.message();
    }
    static void TearDownTestSuite()
    {
        delete s_builder;
        s_builder = nullptr;
    }

    struct Kernel
    {
        int64_t start, end;
        std::string name;
        int64_t stream = 14;
    };
    static void collective(int64_t at, const std::string& extra, const std::vector<Kernel>& kernels)
    {
        s_builder->hostOp(at, at + 5 * kUs, "record_param_comms", "cpu_op", {}, extra);
        ++s_ops;
        for (const Kernel& k : kernels) {
            s_builder->kernel(k.start, k.end, k.name, at + kUs, 2 * kUs, kPid, 0, k.stream);
            s_builder->writer().add(ExternalCorrelation { ++s_kernels, s_ops, makeGlobalPid(kPid), 1 });
        }
    }

    static ReportTable run(ReportOptions options = {})
    {
        auto db = openTrace(s_builder->path());
        EXPECT_TRUE(db.isOk()) << db.status().message();
        auto table = runReport(*db, *findReport("collectives"), options);
        EXPECT_TRUE(table.isOk()) << table.status().message();
        return table.isOk() ? std::move(table.value()) : ReportTable {};
    }

    static TraceBuilder* s_builder;
    static int64_t s_kernels, s_ops;
};

TraceBuilder* CollectivesOnBuiltTrace::s_builder = nullptr;
int64_t CollectivesOnBuiltTrace::s_kernels = 0;
int64_t CollectivesOnBuiltTrace::s_ops = 0;

const ReportCell& cell(const ReportTable& t, size_t row, const std::string& key)
{
    EXPECT_LT(t.column(key), t.columns.size()) << key;
    return t.rows.at(row).at(t.column(key));
}
int64_t integer(const ReportTable& t, size_t row, const std::string& key)
{
    const ReportCell& c = cell(t, row, key);
    EXPECT_TRUE(std::holds_alternative<int64_t>(c)) << key << " in row " << row;
    return std::holds_alternative<int64_t>(c) ? std::get<int64_t>(c) : INT64_MIN;
}
double real(const ReportTable& t, size_t row, const std::string& key)
{
    const ReportCell& c = cell(t, row, key);
    EXPECT_TRUE(std::holds_alternative<double>(c)) << key << " in row " << row;
    return std::holds_alternative<double>(c) ? std::get<double>(c) : -1.0;
}
// The row of a collective kind with a message of `bytes` (-1: the one without a size); rows.size() if none.
size_t rowOf(const ReportTable& t, const std::string& kind, int64_t bytes)
{
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const ReportCell& size = cell(t, r, "message_bytes");
        const bool sameSize = bytes < 0 ? std::holds_alternative<std::monostate>(size)
                                        : std::holds_alternative<int64_t>(size) && std::get<int64_t>(size) == bytes;
        if (std::get<std::string>(cell(t, r, "collective")) == kind && sameSize)
            return r;
    }
    return t.rows.size();
}

TEST_F(CollectivesOnBuiltTrace, BytesAndBandwidthsFollowNcclTests)
{
    const ReportTable t = run();
    ASSERT_EQ(t.rows.size(), 6U);
    const size_t allReduce = rowOf(t, "AllReduce", 4000000);
    ASSERT_LT(allReduce, t.rows.size());
    EXPECT_EQ(std::get<std::string>(cell(t, allReduce, "algorithm")), "RING");
    EXPECT_EQ(std::get<std::string>(cell(t, allReduce, "protocol")), "LL");
    EXPECT_EQ(std::get<std::string>(cell(t, allReduce, "dtype")), "Float");
    EXPECT_EQ(integer(t, allReduce, "ranks"), 4);
    EXPECT_EQ(integer(t, allReduce, "count"), 2);
    EXPECT_EQ(integer(t, allReduce, "total_ns"), 80 * kUs);
    EXPECT_EQ(integer(t, allReduce, "mean_ns"), 40 * kUs);
    EXPECT_EQ(integer(t, allReduce, "bytes"), 8000000);
    EXPECT_NEAR(real(t, allReduce, "alg_gbps"), 100.0, 1e-9);
    EXPECT_NEAR(real(t, allReduce, "bus_gbps"), 150.0, 1e-9);

    struct Expected
    {
        std::string kind;
        int64_t bytes;
        double alg, bus;
    };
    for (const Expected& e :
        { Expected { "AllGather", 2000000, 100.0, 75.0 }, Expected { "ReduceScatter", 2000000, 200.0, 150.0 },
            Expected { "Broadcast", 8000, 8.0, 8.0 }, Expected { "AllToAll", 4000, 1.0, 0.75 } }) {
        const size_t r = rowOf(t, e.kind, e.bytes);
        ASSERT_LT(r, t.rows.size()) << e.kind;
        EXPECT_EQ(integer(t, r, "count"), 1) << e.kind;
        EXPECT_EQ(integer(t, r, "bytes"), e.bytes) << e.kind;
        EXPECT_NEAR(real(t, r, "alg_gbps"), e.alg, 1e-9) << e.kind;
        EXPECT_NEAR(real(t, r, "bus_gbps"), e.bus, 1e-9) << e.kind;
    }
    // The all-to-all is one collective of two kernels, timed from the first start to the last end.
    const size_t allToAll = rowOf(t, "AllToAll", 4000);
    EXPECT_EQ(integer(t, allToAll, "kernels"), 2);
    EXPECT_EQ(integer(t, allToAll, "total_ns"), 4 * kUs);
}

TEST_F(CollectivesOnBuiltTrace, AKernelNoOpDescribesIsCountedWithoutSizes)
{
    const ReportTable t = run();
    const size_t r = rowOf(t, "AllReduce", -1);
    ASSERT_LT(r, t.rows.size());
    EXPECT_EQ(integer(t, r, "count"), 1);
    EXPECT_EQ(integer(t, r, "total_ns"), 30 * kUs);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(cell(t, r, "bytes")));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(cell(t, r, "bus_gbps")));
    bool noted = false;
    for (const auto& note : t.notes)
        noted = noted || note.find("1 collective(s) without a message size") != std::string::npos;
    EXPECT_TRUE(noted);
}

// The real A100 rank of a 2-rank job (PyTorch 2.x, NCCL 2.x): 15 all-reduces and 6 broadcasts whose kernels carry the
// message in their args. Figures of the raw JSON, read without the importer:
//   python3 tests/analysis/reports/collectives_ref.py tests/data/traces/hta_nccl_a100_rank0of2_layout.json.gz
// -> {kind|dtype|ranks|bytes: [count, total_ns, bytes, bus_gbps]}
TEST(CollectivesOnRealTrace, AgreeWithTheRawJsonKernelArgs)
{
    const std::filesystem::path dir
        = std::filesystem::temp_directory_path() / ("ps_reports_nccl_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "nccl.sqlite").string();
    auto imported = importTraces(
        { std::string(PLACESCOPE_DATA_DIR) + "/traces/hta_nccl_a100_rank0of2_layout.json.gz" }, path, ImportOptions {});
    ASSERT_TRUE(imported.isOk()) << imported.status().message();
    auto db = openTrace(path);
    ASSERT_TRUE(db.isOk());
    auto table = runReport(*db, *findReport("collectives"), ReportOptions {});
    ASSERT_TRUE(table.isOk()) << table.status().message();
    std::filesystem::remove_all(dir);

    struct Reference
    {
        int64_t count, ns, bytes;
        double bus;
    };
    const std::map<std::string, Reference> reference = {
        { "AllReduce|Float|2|26255360", { 3, 10797936, 78766080, 7.29455 } },
        { "AllReduce|Float|2|26550272", { 3, 7214656, 79650816, 11.040141 } },
        { "AllReduce|Float|2|31502336", { 3, 11081355, 94507008, 8.52847 } },
        { "AllReduce|Float|2|8196000", { 3, 11820962, 24588000, 2.080034 } },
        { "AllReduce|Float|2|9724160", { 3, 5847250, 29172480, 4.989094 } },
        { "Broadcast|Float|2|212480", { 3, 91007, 637440, 7.004296 } },
        { "Broadcast|Long|2|424", { 3, 23327, 1272, 0.054529 } },
    };
    const ReportTable& t = *table;
    ASSERT_EQ(t.rows.size(), reference.size());
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const std::string key = std::get<std::string>(cell(t, r, "collective")) + "|"
            + std::get<std::string>(cell(t, r, "dtype")) + "|" + std::to_string(integer(t, r, "ranks")) + "|"
            + std::to_string(integer(t, r, "message_bytes"));
        auto expected = reference.find(key);
        ASSERT_NE(expected, reference.end()) << key;
        EXPECT_EQ(std::get<std::string>(cell(t, r, "algorithm")), "RING") << key;
        EXPECT_EQ(integer(t, r, "count"), expected->second.count) << key;
        // The importer rounds start and end to ns, the reference the duration: 1 ns apart per kernel at most.
        EXPECT_NEAR(static_cast<double>(integer(t, r, "total_ns")), static_cast<double>(expected->second.ns),
            static_cast<double>(expected->second.count))
            << key;
        EXPECT_EQ(integer(t, r, "bytes"), expected->second.bytes) << key;
        EXPECT_NEAR(real(t, r, "bus_gbps"), expected->second.bus, expected->second.bus * 1e-5) << key;
    }
}

} // namespace
} // namespace placescope::testing
