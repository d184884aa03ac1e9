-- SPDX-License-Identifier: MIT
-- Placescope trace file, schema version 1 (also in PRAGMA user_version).
--
-- Times are integer nanoseconds on one host clock for the whole file. Where a concept exists in
-- Nsight Systems' SQLite export, the table and column names, and the enum ids, are nsys's, so a query
-- written for an nsys export runs unchanged. Names are ids into StringIds, as in nsys.
-- Process and thread ids are nsys's serialized ids: globalPid = (vmId << 48) | (pid << 24), globalTid = globalPid | tid,
-- with vmId 1 for the recording machine as nsys writes it (Kineto ranks after the first get 2, 3...); an nsys import
-- keeps the export's values. pid = globalTid / 0x1000000 % 0x1000000, tid = globalTid % 0x1000000.
-- As in nsys, the event tables (CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS, CUDA_GPU_MEMORY_USAGE_EVENTS, PROFILER_OVERHEAD)
-- and the run description tables exist in a file only when they have rows (scripts test for a table to know
-- whether the run had such events); openTrace gives Placescope's readers empty stand-ins for the missing ones.
-- Tables of our own start with PS_ and are documented column by column below.
--
-- What a trace records about the run is exactly what these tables hold: no environment variables and no
-- command line arguments of the traced program (nsys exports carry both, secrets included).

-- ---------------------------------------------------------------- nsys-compatible tables
CREATE TABLE StringIds (
    id INTEGER PRIMARY KEY,
    value TEXT NOT NULL UNIQUE
);

-- Enum tables as nsys writes them (id, symbol name, human label); the rows are in profiler/model/cuda_enums.cpp.
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_DEV_MEM_EVENT_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUPTI_SYNC_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUPTI_STREAM_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_NSYS_EVENT_CLASS (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_KERNEL_LAUNCH_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_FUNC_CACHE_CONFIG (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_UNIF_MEM_MIGRATION (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_DIAGNOSTIC_SEVERITY_LEVEL (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_DIAGNOSTIC_SOURCE_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);

-- GPU kernels (CUPTI CONCURRENT_KERNEL). Overlapping kernels on one stream are kept as recorded.
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
    start INTEGER NOT NULL,          -- ns
    end INTEGER NOT NULL,            -- ns
    deviceId INTEGER NOT NULL,
    contextId INTEGER,
    greenContextId INTEGER,          -- green context (CUDA 12.4+); NULL for a regular context
    streamId INTEGER NOT NULL,
    correlationId INTEGER,           -- links to CUPTI_ACTIVITY_KIND_RUNTIME.correlationId (same globalPid)
    globalPid INTEGER,
    demangledName INTEGER NOT NULL,  -- StringIds
    shortName INTEGER NOT NULL,      -- StringIds
    mangledName INTEGER,             -- StringIds
    launchType INTEGER,
    cacheConfig INTEGER,
    registersPerThread INTEGER,
    gridX INTEGER, gridY INTEGER, gridZ INTEGER,
    blockX INTEGER, blockY INTEGER, blockZ INTEGER,
    staticSharedMemory INTEGER,
    dynamicSharedMemory INTEGER,
    localMemoryPerThread INTEGER,
    localMemoryTotal INTEGER,
    gridId INTEGER,
    sharedMemoryExecuted INTEGER,
    graphNodeId INTEGER,
    sharedMemoryLimitConfig INTEGER
);

-- Memory copies. copyKind -> ENUM_CUDA_MEMCPY_OPER, srcKind/dstKind -> ENUM_CUDA_MEM_KIND (nsys ids).
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL,
    contextId INTEGER,
    greenContextId INTEGER,          -- green context (CUDA 12.4+); NULL for a regular context
    streamId INTEGER NOT NULL,
    correlationId INTEGER,
    globalPid INTEGER,
    bytes INTEGER NOT NULL,
    copyKind INTEGER NOT NULL,
    deprecatedSrcId INTEGER,
    srcKind INTEGER,
    dstKind INTEGER,
    srcDeviceId INTEGER,
    srcContextId INTEGER,
    dstDeviceId INTEGER,
    dstContextId INTEGER,
    migrationCause INTEGER,
    graphNodeId INTEGER,
    virtualAddress INTEGER
);

CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL,
    contextId INTEGER,
    greenContextId INTEGER,          -- green context (CUDA 12.4+); NULL for a regular context
    streamId INTEGER NOT NULL,
    correlationId INTEGER,
    globalPid INTEGER,
    value INTEGER,
    bytes INTEGER NOT NULL,
    graphNodeId INTEGER,
    memKind INTEGER                  -- ENUM_CUDA_MEM_KIND
);

-- CUDA runtime and driver API calls on host threads. nameId -> StringIds (e.g. 'cudaLaunchKernel').
-- eventClass -> ENUM_NSYS_EVENT_CLASS: 0 CUDA runtime, 1 CUDA driver.
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    eventClass INTEGER,
    globalTid INTEGER NOT NULL,
    correlationId INTEGER,
    nameId INTEGER NOT NULL,
    returnValue INTEGER,
    callchainId INTEGER
);

-- Event records: the stream a cudaEventRecord call (correlationId) recorded event eventId on. nsys's table, without
-- a timestamp (the record call has it); Kineto's wait_on_stream / wait_on_cuda_event_record_corr_id are stored here.
CREATE TABLE CUPTI_ACTIVITY_KIND_CUDA_EVENT (
    deviceId INTEGER,
    contextId INTEGER,
    streamId INTEGER,
    correlationId INTEGER,
    globalPid INTEGER,
    eventId INTEGER
);

-- Synchronization waits. syncType -> ENUM_CUPTI_SYNC_TYPE. As in nsys, streamId is 4294967295 (CUPTI's all-ones
-- id) for context/device syncs and eventId is 4294967295 for syncs not on an event; files written before 2026-11
-- have NULL there, which readers take the same way.
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    deviceId INTEGER,
    contextId INTEGER,
    greenContextId INTEGER,          -- green context (CUDA 12.4+); NULL for a regular context
    streamId INTEGER,
    correlationId INTEGER,
    globalPid INTEGER,
    syncType INTEGER,
    eventId INTEGER
);

-- NVTX marks and ranges, and GPU-side annotations. end is NULL for marks. eventType -> ENUM_NSYS_EVENT_TYPE.
-- As in nsys, a range's text is inline in `text`; only strings the program registered (nvtxDomainRegisterString)
-- are StringIds references in textId, with text NULL. Read a name as COALESCE(text, StringIds.value of textId).
CREATE TABLE NVTX_EVENTS (
    start INTEGER NOT NULL,
    end INTEGER,
    eventType INTEGER NOT NULL,
    rangeId INTEGER,
    category INTEGER,
    color INTEGER,
    text TEXT,
    globalTid INTEGER,
    endGlobalTid INTEGER,
    textId INTEGER,                  -- StringIds
    domainId INTEGER,
    uint64Value INTEGER, int64Value INTEGER, doubleValue REAL,
    uint32Value INTEGER, int32Value INTEGER, floatValue REAL,
    jsonTextId INTEGER,
    jsonText TEXT
);

-- Device memory allocations and frees seen by CUDA (cudaMalloc/cudaFree of segments: with PyTorch's caching
-- allocator this is reserved memory). memoryOperationType -> ENUM_CUDA_DEV_MEM_EVENT_OPER (0 alloc, 1 free).
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (
    start INTEGER NOT NULL,
    globalPid INTEGER,
    deviceId INTEGER,
    contextId INTEGER,
    address INTEGER,
    pc INTEGER,
    bytes INTEGER NOT NULL,
    memKind INTEGER,                 -- ENUM_CUDA_MEM_KIND
    memoryOperationType INTEGER NOT NULL,
    name TEXT,
    correlationId INTEGER,
    localMemoryPoolAddress INTEGER,
    localMemoryPoolReleaseThreshold INTEGER,
    localMemoryPoolSize INTEGER,
    localMemoryPoolUtilizedSize INTEGER,
    importedMemoryPoolAddress INTEGER,
    importedMemoryPoolProcessId INTEGER
);

-- Time the profiler itself spent (CUPTI buffer flushes, activity overhead).
CREATE TABLE PROFILER_OVERHEAD (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    globalTid INTEGER,
    nameId INTEGER,                  -- StringIds
    returnValue INTEGER
);

CREATE TABLE ThreadNames (
    nameId INTEGER NOT NULL,         -- StringIds
    priority INTEGER,
    globalTid INTEGER NOT NULL
);

-- One row per GPU, with nsys's 41 columns in nsys's order. id is the CUDA device index used by deviceId elsewhere.
-- A capture fills them from CUPTI's device record and the driver's attributes (PCI location, constant and opt-in
-- shared memory, integrated or not); chipName, revision and smMajor/smMinor have no public source and stay NULL.
CREATE TABLE TARGET_INFO_GPU (
    vmId INTEGER NOT NULL,           -- serialized id of the machine (globalPid without pid bits), 1 << 48 locally
    id INTEGER NOT NULL,
    name TEXT,
    busLocation TEXT,
    isDiscrete INTEGER,
    l2CacheSize INTEGER,
    totalMemory INTEGER,             -- bytes
    memoryBandwidth INTEGER,         -- bytes/s
    clockRate INTEGER,               -- Hz
    smCount INTEGER,
    pwGpuId INTEGER,
    uuid TEXT,
    luid INTEGER,
    chipName TEXT,
    cuDevice INTEGER,
    ctxswDevPath TEXT,
    ctrlDevPath TEXT,
    revision INTEGER,
    nodeMask INTEGER,
    constantMemory INTEGER,
    maxIPC INTEGER,
    maxRegistersPerBlock INTEGER,
    maxShmemPerBlock INTEGER,
    maxShmemPerBlockOptin INTEGER,
    maxShmemPerSm INTEGER,
    maxRegistersPerSm INTEGER,
    threadsPerWarp INTEGER,
    asyncEngines INTEGER,
    maxWarpsPerSm INTEGER,
    maxBlocksPerSm INTEGER,
    maxThreadsPerBlock INTEGER,
    maxBlockDimX INTEGER,
    maxBlockDimY INTEGER,
    maxBlockDimZ INTEGER,
    maxGridDimX INTEGER,
    maxGridDimY INTEGER,
    maxGridDimZ INTEGER,
    computeMajor INTEGER,
    computeMinor INTEGER,
    smMajor INTEGER,
    smMinor INTEGER
);

-- OS runtime calls (pthread, poll, file I/O...) as nsys traces them; written by an nsys import only. callchainId is
-- the export's: its call stacks (OSRT_CALLCHAINS) are not kept. eventClass -> ENUM_NSYS_EVENT_CLASS (27).
CREATE TABLE OSRT_API (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    eventClass INTEGER NOT NULL,
    globalTid INTEGER,
    nameId INTEGER NOT NULL,         -- StringIds
    returnValue INTEGER NOT NULL,
    nestingLevel INTEGER,
    callchainId INTEGER NOT NULL
);

-- CUDA contexts and streams as nsys lists them (written where the source has them: nsys exports, the capture's
-- context and stream records). processId is the plain pid, vmId nsys's machine number (1 locally); flag -> ENUM_CUPTI_STREAM_TYPE.
CREATE TABLE TARGET_INFO_CUDA_CONTEXT_INFO (
    nullStreamId INTEGER NOT NULL,
    hwId INTEGER NOT NULL,
    vmId INTEGER NOT NULL,
    processId INTEGER NOT NULL,
    deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL,
    parentContextId INTEGER,
    isGreenContext INTEGER
);
CREATE TABLE TARGET_INFO_CUDA_STREAM (
    streamId INTEGER NOT NULL,
    hwId INTEGER NOT NULL,
    vmId INTEGER NOT NULL,
    processId INTEGER NOT NULL,
    contextId INTEGER NOT NULL,
    priority INTEGER NOT NULL,
    flag INTEGER NOT NULL
);

-- How the file was written, as nsys's export describes itself; scripts check EXPORT_SCHEMA_VERSION before they query.
-- An nsys import keeps the export's EXPORT_* rows. Other traces name Placescope as the product and the nsys export
-- schema whose table and column names they follow (3.13.2, Nsight Systems 2024.5). Never the capture's command line.
CREATE TABLE META_DATA_EXPORT (
    name TEXT NOT NULL,
    value TEXT
);

-- When the trace's clock starts: utcEpochNs + start is an event's UTC time in ns (how scripts align ranks).
-- One row, written only when the producer knows the origin (nsys exports, Kineto's baseTimeNanoseconds).
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs INTEGER,
    utcTime TEXT,                    -- ISO 8601, UTC
    localTime TEXT                   -- ISO 8601 in the recording machine's time zone, when known
);

-- The span the trace covers: one row per machine (globalVid), from the first event's start to the last one's end
-- (an nsys import keeps the export's row).
CREATE TABLE ANALYSIS_DETAILS (
    globalVid INTEGER NOT NULL,
    duration INTEGER NOT NULL,       -- ns
    startTime INTEGER NOT NULL,
    stopTime INTEGER NOT NULL
);

-- Processes of the run, as nsys names them (PS_PROCESSES has the same rows with rank and host).
CREATE TABLE PROCESSES (
    globalPid INTEGER,
    pid INTEGER,
    name TEXT                        -- executable name; never its arguments or environment
);

-- Messages about the recording and the import. Our import problems (PS_PROBLEMS) appear here too, one row per
-- kind, with source 3 (Analysis) and timestamp 0. timestampType -> ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE,
-- source -> ENUM_DIAGNOSTIC_SOURCE_TYPE, severity -> ENUM_DIAGNOSTIC_SEVERITY_LEVEL.
CREATE TABLE DIAGNOSTIC_EVENT (
    timestamp INTEGER NOT NULL,
    timestampType INTEGER NOT NULL,
    source INTEGER NOT NULL,
    severity INTEGER NOT NULL,
    text TEXT NOT NULL,
    globalPid INTEGER
);

-- Facts about the recording machine, nsys's names and name ids: Hostname, OsDescription, CpuDescription,
-- CpuCores, CpuArchitecture, CudaDriverVersion... Only such system facts: never the traced program's environment
-- variables or command line (an nsys import copies only the names profiler/store/system_facts.cpp lists).
CREATE TABLE TARGET_INFO_SYSTEM_ENV (
    globalVid INTEGER,
    devStateName TEXT NOT NULL,
    name TEXT NOT NULL,
    nameEnum INTEGER NOT NULL,
    value TEXT NOT NULL
);

-- ---------------------------------------------------------------- Placescope tables
-- Trace metadata: one row per key. Keys written by every producer:
--   source_format   'kineto_json' | 'nsys_sqlite' | 'cupti_capture' | ...
--   source_file     file name (not path) of the input, when imported
--   tool_version    Placescope version that wrote the file
--   created_at_utc  ISO 8601 time the file was written
-- Optional keys: schema_version_origin, kineto_schema_version, nsys_export_version, nsys_product_version,
--   cuda_runtime_version, cuda_driver_version, cupti_version, distributed_backend, world_size, trace_base_time_ns, capture_*.
CREATE TABLE PS_META (
    key TEXT PRIMARY KEY,
    value TEXT
);

-- Processes of the run. rank is the distributed rank (NULL when not distributed).
CREATE TABLE PS_PROCESSES (
    globalPid INTEGER PRIMARY KEY,
    pid INTEGER NOT NULL,            -- OS process id as recorded
    rank INTEGER,
    name TEXT,                       -- executable or label (e.g. 'python'); never its arguments or environment
    hostname TEXT
);

CREATE TABLE PS_THREADS (
    globalTid INTEGER PRIMARY KEY,
    globalPid INTEGER NOT NULL,
    tid INTEGER NOT NULL,
    name TEXT
);

-- Framework (CPU-side) operations and annotations: PyTorch cpu_op / user_annotation / python_function,
-- NVTX-derived op ranges from a capture.
CREATE TABLE PS_FRAMEWORK_OPS (
    id INTEGER PRIMARY KEY,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    globalTid INTEGER NOT NULL,
    nameId INTEGER NOT NULL,         -- StringIds
    category TEXT NOT NULL,          -- 'cpu_op' | 'user_annotation' | 'python_function' | 'nvtx' | ...
    externalId INTEGER,              -- joins PS_EXTERNAL_CORRELATION.externalId (same globalPid)
    sequenceNumber INTEGER,          -- autograd sequence number (forward/backward pairing)
    fwdThreadId INTEGER,
    depth INTEGER,                   -- nesting depth on its thread (0 = outermost), NULL if unknown
    inputDims TEXT,                  -- JSON array of shapes, e.g. [[32,3,224,224],[64,3,7,7]]
    inputTypes TEXT,                 -- JSON array of dtype names
    inputStrides TEXT,               -- JSON array of stride arrays
    extra TEXT                       -- JSON object of remaining arguments worth keeping (module, call stack...)
);

-- Links a framework op's externalId to the CUDA API calls (and so the kernels/copies) it caused, as
-- CUPTI's EXTERNAL_CORRELATION records do. op -> kernel:
--   PS_FRAMEWORK_OPS.externalId = PS_EXTERNAL_CORRELATION.externalId
--   AND PS_EXTERNAL_CORRELATION.correlationId = CUPTI_ACTIVITY_KIND_KERNEL.correlationId (same globalPid)
CREATE TABLE PS_EXTERNAL_CORRELATION (
    correlationId INTEGER NOT NULL,
    externalId INTEGER NOT NULL,
    globalPid INTEGER,
    externalKind INTEGER             -- CUPTI CUpti_ExternalCorrelationKind; 0 when unknown
);

-- Tensor-level memory events from the framework's allocator (PyTorch '[memory]' events).
CREATE TABLE PS_MEMORY_EVENTS (
    start INTEGER NOT NULL,
    globalTid INTEGER,
    deviceType INTEGER NOT NULL,     -- 0 CPU, 1 CUDA
    deviceId INTEGER NOT NULL,       -- -1 for CPU
    address INTEGER,
    bytes INTEGER NOT NULL,          -- > 0 allocation, < 0 free
    totalAllocated INTEGER,          -- bytes allocated by the framework after this event
    totalReserved INTEGER            -- bytes the allocator holds from the device after this event
);

-- Flow arrows between two points (launch -> kernel, forward -> backward). Unpaired halves are not stored;
-- they are counted in PS_PROBLEMS.
CREATE TABLE PS_FLOWS (
    id INTEGER NOT NULL,             -- flow id from the source (e.g. correlation id for ac2g)
    category TEXT NOT NULL,          -- 'ac2g' | 'fwdbwd' | ...
    fromTs INTEGER NOT NULL,
    fromGlobalTid INTEGER,           -- host thread, or NULL when the source is a device lane
    fromDeviceId INTEGER, fromStreamId INTEGER,
    toTs INTEGER NOT NULL,
    toGlobalTid INTEGER,
    toDeviceId INTEGER, toStreamId INTEGER
);

-- Framework annotations as the GPU ran them (PyTorch's gpu_user_annotation: "## backward ##", a module's forward),
-- on their device and stream, so kernels can be scoped to an annotation on its own stream. The same ranges are also
-- NVTX_EVENTS rows without a thread, for the readers of nsys's NVTX table.
CREATE TABLE PS_GPU_ANNOTATIONS (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL,
    streamId INTEGER NOT NULL,
    nameId INTEGER NOT NULL,         -- StringIds
    externalId INTEGER,              -- the host-side op's PS_FRAMEWORK_OPS.externalId
    globalPid INTEGER
);

-- Hardware counters per profiled range (Kineto's cuda_profiler_range events, CUPTI's range profiler: one range per
-- kernel), one row per metric. correlationId is the kernel launch the range counts: Kineto gives ranges and
-- cudaLaunchKernel calls one to one in order (as HTA pairs them); NULL when their numbers differ (problem
-- kineto.counter_ranges_unlinked). Its op: correlationId -> PS_EXTERNAL_CORRELATION -> PS_FRAMEWORK_OPS.
CREATE TABLE PS_COUNTERS (
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    deviceId INTEGER,
    nameId INTEGER NOT NULL,         -- StringIds: the range's (kernel's) name
    metric TEXT NOT NULL,            -- e.g. 'smsp__sass_thread_inst_executed_op_fadd_pred_on.sum'
    value REAL NOT NULL,
    correlationId INTEGER,
    globalPid INTEGER
);

-- Iterations (PyTorch ProfilerStep#N, NVTX step ranges).
CREATE TABLE PS_STEPS (
    stepNumber INTEGER NOT NULL,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    globalPid INTEGER
);

-- What the producer could not take as-is: one row per kind of problem, with a count, what it means, and
-- the first example seen (truncated).
CREATE TABLE PS_PROBLEMS (
    kind TEXT PRIMARY KEY,           -- e.g. 'kineto.bad_timestamp', 'capture.dropped_records'
    severity TEXT NOT NULL,          -- 'info' | 'error' | 'data_loss'
    count INTEGER NOT NULL,
    help TEXT NOT NULL,
    example TEXT
);
