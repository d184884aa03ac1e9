// SPDX-License-Identifier: MIT
// Record translation without a GPU: real CUDA 13 activity records in a buffer, walked with libcupti's own
// cuptiActivityGetNextRecord, land in the trace tables with nsys enum ids, host-clock times, API names from
// cuptiGetCallbackName, paired NVTX ranges and device info; what cannot be taken is counted in PS_PROBLEMS.
#include "cupti_records.h"
#include "profiler/capture/activity_translator.h"
#include "profiler/model/cuda_enums.h"
#include "profiler/store/trace_writer.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstring>

namespace placescope::capture {
namespace {

using namespace testing;

constexpr uint32_t kPid = 4242;
constexpr uint32_t kTid = 4243;
constexpr int64_t kOffset = 1000; // host clock = CUPTI clock + 1000 ns

class RecordTranslationTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = m_temp.path();
        m_path = (m_dir / "trace.sqlite").string();
        auto writer = TraceWriter::create(m_path);
        ASSERT_TRUE(writer.isOk()) << writer.status().message();
        m_writer = std::move(writer).value();
    }

    // Walks `records` into the trace and commits it; returns the records walked.
    size_t translate(RecordBuffer& records, TranslatorOptions options = {})
    {
        options.pid = kPid;
        if (options.clockOffsetNs == 0)
            options.clockOffsetNs = kOffset;
        ActivityTranslator translator(m_api, *m_writer, options);
        size_t walked = translator.translateBuffer(records.data(), records.size());
        translator.finish();
        Status status = m_writer->commit();
        EXPECT_TRUE(status.isOk()) << status.message();
        return walked;
    }
    int64_t count(const std::string& sql) { return queryInt(m_path, sql); }
    std::string text(const std::string& sql) { return queryText(m_path, sql); }

    FakeCuptiApi m_api; // libcupti's own iterator and names; the driver's device attributes from the test
    TempDir m_temp { "capture" };
    std::filesystem::path m_dir;
    std::string m_path;
    std::unique_ptr<TraceWriter> m_writer;
};

TEST_F(RecordTranslationTest, CuptiWalksEveryRecordOfTheBuffer)
{
    RecordBuffer records;
    for (uint32_t i = 0; i < 100; ++i)
        records.add(kernelRecord("_Z6kernelPfi", 1000 + i * 10, 1005 + i * 10, i));
    records.add(
        apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 10, 20, 1, kPid, kTid));
    EXPECT_EQ(records.size(), 100 * 216 + 40u); // CUDA 13.0 sizes: Kernel10 216 B, API 40 B
    EXPECT_EQ(translate(records), 101u);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 100);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 1);
}

TEST_F(RecordTranslationTest, KernelRecordBecomesAKernelRowOnTheHostClock)
{
    RecordBuffer records;
    records.add(kernelRecord("_ZN2at6native18elementwise_kernelILi128ELi4EEEvii", 5000, 9000, 77));
    translate(records);
    EXPECT_EQ(count("SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL"), 5000 + kOffset);
    EXPECT_EQ(count("SELECT end FROM CUPTI_ACTIVITY_KIND_KERNEL"), 9000 + kOffset);
    EXPECT_EQ(count("SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL"), 77);
    EXPECT_EQ(count("SELECT streamId FROM CUPTI_ACTIVITY_KIND_KERNEL"), 7);
    EXPECT_EQ(count("SELECT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL"), makeGlobalPid(kPid));
    EXPECT_EQ(count("SELECT gridX * blockX FROM CUPTI_ACTIVITY_KIND_KERNEL"), 128 * 256);
    EXPECT_EQ(count("SELECT localMemoryTotal FROM CUPTI_ACTIVITY_KIND_KERNEL"), 4096);
    EXPECT_EQ(count("SELECT launchType FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1); // nsys: 1 Regular
    EXPECT_EQ(text("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName"),
        "void at::native::elementwise_kernel<128, 4>(int, int)");
    EXPECT_EQ(text("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName"),
        "elementwise_kernel");
}

TEST_F(RecordTranslationTest, CopiesSetsAndAllocationsUseNsysEnumIds)
{
    RecordBuffer records;
    CUpti_ActivityMemcpy6 copy {};
    copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    copy.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
    copy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    copy.bytes = 1 << 20;
    copy.start = 100;
    copy.end = 300;
    copy.streamId = 3;
    copy.correlationId = 5;
    records.add(copy);
    CUpti_ActivityMemcpyPtoP4 peer {};
    peer.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
    peer.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    peer.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    peer.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    peer.bytes = 4096;
    peer.start = 400;
    peer.end = 500;
    peer.deviceId = 0;
    peer.srcDeviceId = 0;
    peer.dstDeviceId = 1;
    records.add(peer);
    CUpti_ActivityMemset4 set {};
    set.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    set.value = 0;
    set.bytes = 2048;
    set.start = 600;
    set.end = 650;
    set.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    records.add(set);
    CUpti_ActivityMemory4 alloc {};
    alloc.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
    alloc.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
    alloc.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    alloc.address = 0x7f0000000000;
    alloc.bytes = 2 << 20;
    alloc.timestamp = 50;
    alloc.deviceId = 0;
    alloc.contextId = 1;
    alloc.streamId = CUPTI_INVALID_STREAM_ID;
    records.add(alloc);
    CUpti_ActivityMemory4 release = alloc;
    release.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
    release.timestamp = 900;
    records.add(release);
    CUpti_ActivityMemory4 pooled = alloc;
    pooled.isAsync = 1;
    pooled.memoryPoolConfig.memoryPoolType = CUPTI_ACTIVITY_MEMORY_POOL_TYPE_LOCAL;
    pooled.memoryPoolConfig.pool.size = 64 << 20;
    pooled.memoryPoolConfig.utilizedSize = 2 << 20;
    pooled.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN;
    records.add(pooled);
    EXPECT_EQ(translate(records), 6u);

    // nsys ENUM_CUDA_MEMCPY_OPER 1 HtoD / 10 PtoP; ENUM_CUDA_MEM_KIND 0 Pageable, 2 Device, 7 Unknown.
    EXPECT_EQ(
        count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1 AND srcKind = 0 AND dstKind = 2 "
              "AND bytes = 1048576 AND start = 1100 AND streamId = 3"),
        1);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 10 AND srcDeviceId = 0 AND "
                    "dstDeviceId = 1"),
        1);
    EXPECT_EQ(text("SELECT e.label FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN ENUM_CUDA_MEM_KIND e ON e.id = m.srcKind "
                   "WHERE m.copyKind = 1"),
        "Pageable");
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE memKind = 2 AND bytes = 2048"), 1);
    // ENUM_CUDA_DEV_MEM_EVENT_OPER: 0 allocation, 1 deallocation (CUPTI: 1, 2).
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memoryOperationType = 0 AND memKind = 2 "
                    "AND start = 1050 AND bytes = 2097152 AND address = 139637976727552"),
        1);
    EXPECT_EQ(
        count("SELECT COUNT(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memoryOperationType = 1 AND start = 1900"), 1);
    EXPECT_EQ(count("SELECT localMemoryPoolSize FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memKind = 7"), 64 << 20);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE localMemoryPoolSize IS NULL"), 2);
}

TEST_F(RecordTranslationTest, ApiCallsGetCuptisNamesAndTheirThread)
{
    RecordBuffer records;
    records.add(apiRecord(
        CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 100, 150, 9, kPid, kTid));
    records.add(
        apiRecord(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 200, 260, 10, kPid, kTid));
    records.add(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, 99999, 300, 310, 11, kPid, kTid + 1));
    records.add(kernelRecord("_Z1kv", 400, 500, 10));
    translate(records);
    EXPECT_EQ(text("SELECT s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                   "WHERE correlationId = 9"),
        "cudaLaunchKernel_v7000");
    EXPECT_EQ(text("SELECT s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                   "WHERE correlationId = 10 AND eventClass = 1"),
        "cuLaunchKernel");
    EXPECT_EQ(text("SELECT s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                   "WHERE correlationId = 11"),
        "runtime API 99999");
    EXPECT_EQ(
        count("SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId = 9"), makeGlobalTid(kPid, kTid));
    EXPECT_EQ(count("SELECT COUNT(*) FROM PS_THREADS"), 2);
    // The kernel joins the driver call that launched it.
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON "
                    "r.correlationId = k.correlationId WHERE r.eventClass = 1"),
        1);
}

TEST_F(RecordTranslationTest, NvtxMarkersArePairedIntoRanges)
{
    RecordBuffer records;
    auto marker = [&](CUpti_ActivityFlag flags, uint32_t id, uint64_t time, const char* name, uint32_t tid) {
        CUpti_ActivityMarker2 r {};
        r.kind = CUPTI_ACTIVITY_KIND_MARKER;
        r.flags = flags;
        r.timestamp = time;
        r.id = id;
        r.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
        r.objectId.pt.processId = kPid;
        r.objectId.pt.threadId = tid;
        r.name = name;
        records.add(r);
    };
    marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 1, 100, "forward", kTid);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 2, 110, "conv1", kTid);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 2, 150, nullptr, kTid);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, 3, 160, "checkpoint", kTid);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 1, 200, nullptr, kTid);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 4, 210, "io", kTid);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 4, 290, nullptr, kTid + 1); // ended on another thread
    marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 9, 300, nullptr, kTid); // its start was never seen
    marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 5, 310, "never ends", kTid);
    translate(records);
    EXPECT_EQ(count("SELECT COUNT(*) FROM NVTX_EVENTS"), 4);
    // The text is inline in NVTX_EVENTS.text, where nsys puts it and scripts read it.
    EXPECT_EQ(
        count("SELECT end - start FROM NVTX_EVENTS WHERE text = 'forward' AND eventType = 59 AND textId IS NULL"), 100);
    EXPECT_EQ(count("SELECT start FROM NVTX_EVENTS WHERE text = 'conv1'"), 110 + kOffset);
    EXPECT_EQ(
        count("SELECT COUNT(*) FROM NVTX_EVENTS WHERE text = 'checkpoint' AND eventType = 34 AND end IS NULL"), 1);
    EXPECT_EQ(count("SELECT eventType FROM NVTX_EVENTS WHERE text = 'io'"), 60);
    EXPECT_EQ(count("SELECT count FROM PS_PROBLEMS WHERE kind = 'capture.nvtx_unpaired_end'"), 1);
    EXPECT_EQ(text("SELECT example FROM PS_PROBLEMS WHERE kind = 'capture.nvtx_open_range'"), "never ends");
}

TEST_F(RecordTranslationTest, SyncOverheadCorrelationDeviceAndThreadNames)
{
    RecordBuffer records;
    CUpti_ActivityContext3 context {};
    context.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
    context.contextId = 1;
    context.deviceId = 3;
    records.add(context);
    CUpti_ActivitySynchronization2 sync {};
    sync.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
    sync.start = 10;
    sync.end = 90;
    sync.contextId = 1;
    sync.streamId = 7;
    sync.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
    sync.correlationId = 12;
    records.add(sync);
    CUpti_ActivitySynchronization2 deviceSync = sync;
    deviceSync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
    deviceSync.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
    records.add(deviceSync);
    CUpti_ActivityExternalCorrelation link {};
    link.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
    link.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
    link.externalId = 123456789012ull;
    link.correlationId = 12;
    records.add(link);
    CUpti_ActivityOverhead3 overhead {};
    overhead.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
    overhead.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
    overhead.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    overhead.objectId.pt.processId = kPid;
    overhead.objectId.pt.threadId = kTid;
    overhead.start = 500;
    overhead.end = 700;
    records.add(overhead);
    CUpti_ActivityDevice5 device {};
    device.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    device.id = 3;
    device.name = "NVIDIA H100 80GB HBM3";
    device.numMultiprocessors = 132;
    device.globalMemorySize = 85017493504ull;
    device.globalMemoryBandwidth = 3352320000ull; // KB/s
    device.coreClockRate = 1980000; // kHz
    device.computeCapabilityMajor = 9;
    device.l2CacheSize = 52428800;
    device.uuid.bytes[0] = static_cast<char>(0xab);
    device.uuid.bytes[15] = 0x01;
    records.add(device);
    records.add(device); // CUPTI may report a device again (enable-and-dump): kept once
    CUpti_ActivityName name {};
    name.kind = CUPTI_ACTIVITY_KIND_NAME;
    name.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    name.objectId.pt.processId = kPid;
    name.objectId.pt.threadId = kTid;
    name.name = "data loader";
    records.add(name);
    translate(records);
    EXPECT_EQ(count("SELECT deviceId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE syncType = 3 AND streamId = 7 "
                    "AND eventId = 4294967295 AND start = 1010"),
        3);
    // No stream and no event as nsys writes them: CUPTI's all-ones id, never NULL.
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE syncType = 4 AND streamId = "
                    "4294967295"),
        1);
    EXPECT_EQ(
        count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE streamId IS NULL OR eventId IS NULL"), 0);
    EXPECT_EQ(text("SELECT e.label FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s JOIN ENUM_CUPTI_SYNC_TYPE e "
                   "ON e.id = s.syncType WHERE s.syncType = 3"),
        "Stream sync");
    EXPECT_EQ(count("SELECT externalId FROM PS_EXTERNAL_CORRELATION WHERE correlationId = 12 AND externalKind = 3"),
        123456789012ll);
    EXPECT_EQ(
        text("SELECT s.value FROM PROFILER_OVERHEAD o JOIN StringIds s ON s.id = o.nameId"), "CUPTI buffer flush");
    EXPECT_EQ(count("SELECT globalTid FROM PROFILER_OVERHEAD"), makeGlobalTid(kPid, kTid));
    EXPECT_EQ(count("SELECT COUNT(*) FROM TARGET_INFO_GPU"), 1);
    EXPECT_EQ(count("SELECT memoryBandwidth FROM TARGET_INFO_GPU"), 3352320000000ll);
    EXPECT_EQ(count("SELECT clockRate FROM TARGET_INFO_GPU"), 1980000000ll);
    EXPECT_EQ(text("SELECT uuid FROM TARGET_INFO_GPU"), "ab000000-0000-0000-0000-000000000001");
    // Without a driver to ask, the driver's columns stay unknown.
    EXPECT_EQ(text("SELECT IFNULL(busLocation, 'none') || (constantMemory IS NULL) FROM TARGET_INFO_GPU"), "none1");
    EXPECT_EQ(text("SELECT name FROM TARGET_INFO_GPU WHERE id = 3 AND smCount = 132 AND computeMajor = 9"),
        "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(text("SELECT name FROM PS_THREADS"), "data loader");
}

// The capture's TARGET_INFO_GPU row against nsys's for the same GPU: the device record CUPTI gives for GPU 0 of the
// real CloverLeaf export (an A100-SXM4-80GB; CUPTI's units: KB/s, kHz) and the driver attributes of that GPU give
// the export's values in every column CUPTI or the driver reports.
TEST_F(RecordTranslationTest, GpuRowMatchesNsysForTheSameGpu)
{
    const std::string exportPath
        = std::string(PLACESCOPE_DATA_DIR) + "/traces/pipit_cloverleaf_a100_nsys_sanitized.sqlite";
    auto nsys = SqliteDb::open(exportPath, SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(nsys.isOk());
    auto row
        = nsys->prepare("SELECT name, smCount, totalMemory, memoryBandwidth, clockRate, l2CacheSize, threadsPerWarp,"
                        " asyncEngines, maxIPC, maxWarpsPerSm, maxBlocksPerSm, maxShmemPerSm, maxRegistersPerSm,"
                        " maxRegistersPerBlock, maxShmemPerBlock, maxThreadsPerBlock, maxBlockDimX, maxBlockDimY,"
                        " maxBlockDimZ, maxGridDimX, maxGridDimY, maxGridDimZ, computeMajor, computeMinor"
                        " FROM TARGET_INFO_GPU WHERE id = 0");
    ASSERT_TRUE(row.isOk() && row->step());
    const std::string name = row->columnText(0);
    auto u = [&](int column) { return static_cast<uint32_t>(row->columnInt(column)); };
    CUpti_ActivityDevice5 device {};
    device.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    device.id = 0;
    device.name = name.c_str();
    device.numMultiprocessors = u(1);
    device.globalMemorySize = static_cast<uint64_t>(row->columnInt(2));
    device.globalMemoryBandwidth = static_cast<uint64_t>(row->columnInt(3)) / 1000;
    device.coreClockRate = static_cast<uint32_t>(row->columnInt(4) / 1000);
    device.l2CacheSize = u(5);
    device.numThreadsPerWarp = u(6);
    device.numMemcpyEngines = u(7);
    device.maxIPC = u(8);
    device.maxWarpsPerMultiprocessor = u(9);
    device.maxBlocksPerMultiprocessor = u(10);
    device.maxSharedMemoryPerMultiprocessor = u(11);
    device.maxRegistersPerMultiprocessor = u(12);
    device.maxRegistersPerBlock = u(13);
    device.maxSharedMemoryPerBlock = u(14);
    device.maxThreadsPerBlock = u(15);
    device.maxBlockDimX = u(16);
    device.maxBlockDimY = u(17);
    device.maxBlockDimZ = u(18);
    device.maxGridDimX = u(19);
    device.maxGridDimY = u(20);
    device.maxGridDimZ = u(21);
    device.computeCapabilityMajor = u(22);
    device.computeCapabilityMinor = u(23);
    const unsigned char uuid[16]
        = { 0xcf, 0x6b, 0x97, 0xc0, 0xbf, 0x53, 0xa3, 0x9e, 0xfe, 0xbd, 0x95, 0x32, 0x19, 0x0b, 0x57, 0x66 };
    std::memcpy(device.uuid.bytes, uuid, sizeof uuid);
    // What cuDeviceGetAttribute answers for that A100 (PCI 0000:c1:00.0).
    m_api.deviceAttributes = { { { 0, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID }, 0 },
        { { 0, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID }, 0xc1 }, { { 0, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID }, 0 },
        { { 0, CU_DEVICE_ATTRIBUTE_INTEGRATED }, 0 }, { { 0, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY }, 65536 },
        { { 0, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN }, 166912 } };
    RecordBuffer records;
    records.add(device);
    translate(records);

    auto ours = SqliteDb::open(m_path, SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(ours.isOk());
    ASSERT_TRUE(ours->exec("ATTACH DATABASE '" + exportPath + "' AS nsys").isOk());
    // Every column but those no public CUDA or CUPTI call reports (chipName, revision, smMajor/smMinor, the
    // export's own ids and device paths).
    const char* columns
        = "vmId, id, name, busLocation, isDiscrete, l2CacheSize, totalMemory, memoryBandwidth, clockRate,"
          " smCount, uuid, constantMemory, maxIPC, maxRegistersPerBlock, maxShmemPerBlock,"
          " maxShmemPerBlockOptin, maxShmemPerSm, maxRegistersPerSm, threadsPerWarp, asyncEngines,"
          " maxWarpsPerSm, maxBlocksPerSm, maxThreadsPerBlock, maxBlockDimX, maxBlockDimY, maxBlockDimZ,"
          " maxGridDimX, maxGridDimY, maxGridDimZ, computeMajor, computeMinor";
    auto differing = ours->queryInt(std::string("SELECT COUNT(*) FROM (SELECT ") + columns
        + " FROM main.TARGET_INFO_GPU" + " EXCEPT SELECT " + columns + " FROM nsys.TARGET_INFO_GPU WHERE id = 0)");
    ASSERT_TRUE(differing.isOk()) << differing.status().message();
    EXPECT_EQ(differing.value(), 0);
    EXPECT_EQ(count("SELECT COUNT(*) FROM TARGET_INFO_GPU WHERE busLocation = '0000:c1:00.0' AND maxBlockDimZ = 64"
                    " AND maxGridDimX = 2147483647 AND maxBlocksPerSm = 32 AND constantMemory = 65536"
                    " AND smMajor IS NULL"),
        1);
}

// CUDA contexts as nsys lists them (TARGET_INFO_CUDA_CONTEXT_INFO): the plain pid, machine 1, the context's null
// stream; a green context names its parent. A context CUPTI reports twice is listed once.
TEST_F(RecordTranslationTest, ContextsAreListedAsNsysListsThem)
{
    RecordBuffer records;
    CUpti_ActivityContext3 context {};
    context.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
    context.contextId = 1;
    context.deviceId = 0;
    context.nullStreamId = 7;
    records.add(context);
    records.add(context);
    CUpti_ActivityContext3 green = context;
    green.contextId = 5;
    green.deviceId = 2;
    green.nullStreamId = 13;
    green.isGreenContext = 1;
    green.parentContextId = 1;
    records.add(green);
    translate(records);
    auto db = SqliteDb::open(m_path, SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(db.isOk());
    auto rows = db->prepare(
        "SELECT group_concat(r, ' ') FROM (SELECT nullStreamId || ',' || hwId || ',' || vmId || ','"
        " || processId || ',' || deviceId || ',' || contextId || ',' || IFNULL(parentContextId, '-')"
        " || ',' || IFNULL(isGreenContext, '-') AS r FROM TARGET_INFO_CUDA_CONTEXT_INFO ORDER BY contextId)");
    ASSERT_TRUE(rows.isOk() && rows->step());
    EXPECT_EQ(rows->columnText(0), "7,0,1,4242,0,1,-,- 13,0,1,4242,2,5,1,1");
}

// CUDA streams as nsys lists them (TARGET_INFO_CUDA_STREAM): CUPTI's flag is ENUM_CUPTI_STREAM_TYPE's id and a
// priority of -5 reads 4294967291, as in the real CloverLeaf export's stream 15. A stream reported twice is kept
// once.
TEST_F(RecordTranslationTest, StreamsAreListedAsNsysListsThem)
{
    RecordBuffer records;
    CUpti_ActivityStream stream {};
    stream.kind = CUPTI_ACTIVITY_KIND_STREAM;
    stream.contextId = 1;
    stream.streamId = 7;
    stream.flag = CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL;
    records.add(stream);
    records.add(stream);
    CUpti_ActivityStream priority = stream;
    priority.streamId = 15;
    priority.priority = static_cast<uint32_t>(-5);
    priority.flag = CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT;
    records.add(priority);
    translate(records);
    auto db = SqliteDb::open(m_path, SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(db.isOk());
    auto rows
        = db->prepare("SELECT group_concat(r, ' ') FROM (SELECT s.streamId || ',' || s.hwId || ',' || s.vmId || ','"
                      " || s.processId || ',' || s.contextId || ',' || s.priority || ',' || e.label AS r"
                      " FROM TARGET_INFO_CUDA_STREAM s JOIN ENUM_CUPTI_STREAM_TYPE e ON e.id = s.flag"
                      " ORDER BY s.streamId)");
    ASSERT_TRUE(rows.isOk() && rows->step());
    EXPECT_EQ(rows->columnText(0), "7,0,1,4242,1,0,Null stream 15,0,1,4242,1,4294967291,Default stream");
}

TEST_F(RecordTranslationTest, CaptureWindowZeroTimestampsAndUnknownKindsAreCountedNotWritten)
{
    RecordBuffer records;
    records.add(kernelRecord("_Z6beforev", 100, 200, 1)); // host 1100: before the window
    records.add(kernelRecord("_Z6insidev", 5000, 6000, 2)); // host 6000
    records.add(kernelRecord("_Z5afterv", 20000, 21000, 3)); // host 21000: after it
    records.add(kernelRecord("_Z4zerov", 0, 0, 4)); // "timestamp could not be collected"
    CUpti_ActivityMemoryPool3 pool {}; // a kind this version does not translate
    pool.kind = CUPTI_ACTIVITY_KIND_MEMORY_POOL;
    records.add(pool);
    TranslatorOptions options;
    options.windowStartNs = 2000;
    options.windowEndNs = 10000;
    EXPECT_EQ(translate(records, options), 5u);
    EXPECT_EQ(count("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1);
    EXPECT_EQ(
        text("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName"), "inside");
    EXPECT_EQ(
        count("SELECT count FROM PS_PROBLEMS WHERE kind = 'capture.zero_timestamp' AND severity = 'data_loss'"), 1);
    EXPECT_EQ(
        text("SELECT example FROM PS_PROBLEMS WHERE kind = 'capture.unknown_record_kind'"), "CUpti_ActivityKind 50");
}

} // namespace
} // namespace placescope::capture
