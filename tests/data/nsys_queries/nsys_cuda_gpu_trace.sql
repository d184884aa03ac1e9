-- Kernels and copies in one trace, with throughput, device label, green context (0 shown as NULL) and names.
WITH recs AS (
    SELECT k.start, k.end - k.start AS duration, k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ,
           k.registersPerThread AS regs, k.staticSharedMemory AS ssmem, k.dynamicSharedMemory AS dsmem,
           NULL AS bytes, NULL AS srckind, NULL AS dstkind, printf('%s (%d)', gpu.name, k.deviceId) AS device,
           k.contextId AS context, k.greenContextId AS greenContext, k.streamId AS stream, s.value AS name,
           k.correlationId AS correlation
    FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
    JOIN StringIds AS s ON s.id = k.demangledName
    LEFT JOIN TARGET_INFO_GPU AS gpu ON gpu.id == k.deviceId
    UNION ALL
    SELECT m.start, m.end - m.start, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, m.bytes, src.label,
           dst.label, printf('%s (%d)', gpu.name, m.deviceId), m.contextId, m.greenContextId, m.streamId,
           '[CUDA memcpy ' || op.label || ']', m.correlationId
    FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m
    LEFT JOIN ENUM_CUDA_MEMCPY_OPER AS op ON m.copyKind == op.id
    LEFT JOIN ENUM_CUDA_MEM_KIND AS src ON m.srcKind == src.id
    LEFT JOIN ENUM_CUDA_MEM_KIND AS dst ON m.dstKind == dst.id
    LEFT JOIN TARGET_INFO_GPU AS gpu ON m.deviceId == gpu.id
)
SELECT start, duration, correlation, gridX, gridY, gridZ, blockX, blockY, blockZ, regs, ssmem, dsmem, bytes,
       CASE WHEN bytes IS NULL THEN NULL ELSE bytes * (1000000000 / duration) END AS throughput,
       srckind, dstkind, device, context, NULLIF(greenContext, 0) AS greenctx, stream, name
FROM recs ORDER BY start, correlation LIMIT 600;
