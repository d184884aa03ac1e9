-- SPDX-License-Identifier: MIT
-- Indexes created once their table stops growing (EarlyIndexer) or else when the trace is complete (bulk
-- inserts run faster without them). They make the timeline's time-range queries per device/stream and per
-- thread, and the correlation joins, fast. Statements end with ';' and comments hold none (EarlyIndexer splits
-- this text by table).
-- The GPU lane indexes include `end` so a lane's intervals read in start order without touching the table
-- (GPU busy time in placescope stats merges lanes this way). Every index here is built at every import, on one
-- thread once the rows are in (a third of an import's time): one that only a single command would use is left
-- out (placescope stats reads the kernel table in one scan instead), and so is one no query needs: the links
-- of API calls to ops are looked up by correlation id only (an index on the external id served nothing but the
-- order of the op summary's GROUP BY, which costs the same without it).
CREATE INDEX IF NOT EXISTS idx_kernel_lane_time ON CUPTI_ACTIVITY_KIND_KERNEL(deviceId, streamId, start, end);
CREATE INDEX IF NOT EXISTS idx_kernel_corr ON CUPTI_ACTIVITY_KIND_KERNEL(correlationId);
CREATE INDEX IF NOT EXISTS idx_memcpy_lane_time ON CUPTI_ACTIVITY_KIND_MEMCPY(deviceId, streamId, start, end);
CREATE INDEX IF NOT EXISTS idx_memcpy_corr ON CUPTI_ACTIVITY_KIND_MEMCPY(correlationId);
CREATE INDEX IF NOT EXISTS idx_memset_lane_time ON CUPTI_ACTIVITY_KIND_MEMSET(deviceId, streamId, start, end);
CREATE INDEX IF NOT EXISTS idx_runtime_thread_time ON CUPTI_ACTIVITY_KIND_RUNTIME(globalTid, start);
CREATE INDEX IF NOT EXISTS idx_runtime_corr ON CUPTI_ACTIVITY_KIND_RUNTIME(correlationId);
CREATE INDEX IF NOT EXISTS idx_sync_time ON CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start);
CREATE INDEX IF NOT EXISTS idx_nvtx_thread_time ON NVTX_EVENTS(globalTid, start);
CREATE INDEX IF NOT EXISTS idx_ops_thread_time ON PS_FRAMEWORK_OPS(globalTid, start);
CREATE INDEX IF NOT EXISTS idx_ops_external ON PS_FRAMEWORK_OPS(externalId);
CREATE INDEX IF NOT EXISTS idx_extcorr_corr ON PS_EXTERNAL_CORRELATION(correlationId);
CREATE INDEX IF NOT EXISTS idx_memory_device_time ON PS_MEMORY_EVENTS(deviceId, start);
CREATE INDEX IF NOT EXISTS idx_gpu_memory_time ON CUDA_GPU_MEMORY_USAGE_EVENTS(deviceId, start);
