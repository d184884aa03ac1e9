-- SPDX-License-Identifier: MIT
-- Indexes created once their table stops growing (EarlyIndexer) or else when the trace is complete (bulk
-- inserts run faster without them). They make the timeline's time-range queries per device/stream and per
-- thread fast. Statements end with ';' and comments hold none (EarlyIndexer splits this text by table).
-- The GPU lane indexes include `end` so a lane's intervals read in start order without touching the table
-- (GPU busy time in placescope stats merges lanes this way). Every index here is built at every import, on one
-- thread once the rows are in, so only the time-range ones are: placescope stats reads the kernel table in one
-- scan instead of by name, and no index serves the joins by correlation id or external id. Those joins read
-- whole tables: the Chrome export and the analyses hold the links in memory, and for a join in SQL (the GUI's
-- op summary, a user's query) SQLite builds an automatic index for the query, a few milliseconds per 10^5 rows.
-- Indexing them here cost each import about a tenth of its time (the V100 sample: 25 ms of 250).
CREATE INDEX IF NOT EXISTS idx_kernel_lane_time ON CUPTI_ACTIVITY_KIND_KERNEL(deviceId, streamId, start, end);
CREATE INDEX IF NOT EXISTS idx_memcpy_lane_time ON CUPTI_ACTIVITY_KIND_MEMCPY(deviceId, streamId, start, end);
CREATE INDEX IF NOT EXISTS idx_memset_lane_time ON CUPTI_ACTIVITY_KIND_MEMSET(deviceId, streamId, start, end);
CREATE INDEX IF NOT EXISTS idx_runtime_thread_time ON CUPTI_ACTIVITY_KIND_RUNTIME(globalTid, start);
CREATE INDEX IF NOT EXISTS idx_sync_time ON CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start);
CREATE INDEX IF NOT EXISTS idx_nvtx_thread_time ON NVTX_EVENTS(globalTid, start);
CREATE INDEX IF NOT EXISTS idx_ops_thread_time ON PS_FRAMEWORK_OPS(globalTid, start);
CREATE INDEX IF NOT EXISTS idx_memory_device_time ON PS_MEMORY_EVENTS(deviceId, start);
CREATE INDEX IF NOT EXISTS idx_gpu_memory_time ON CUDA_GPU_MEMORY_USAGE_EVENTS(deviceId, start);
