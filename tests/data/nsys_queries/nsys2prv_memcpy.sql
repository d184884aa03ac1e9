-- Copies named '[CUDA memcpy <kind>]' from ENUM_CUDA_MEMCPY_OPER labels, with source and destination memory labels.
SELECT m.start, m.end - m.start AS duration, m.bytes, src.label AS srcmemkind, dst.label AS dstmemkind,
       printf('%s (%d)', gpu.name, m.deviceId) AS device, m.deviceId, m.contextId, m.greenContextId, m.streamId,
       '[CUDA memcpy ' || op.label || ']' AS name, m.correlationId, m.globalPid / 0x1000000 % 0x1000000 AS pid,
       coalesce(m.graphNodeId, NULL) AS graphNode
FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m
LEFT JOIN ENUM_CUDA_MEMCPY_OPER AS op ON m.copyKind == op.id
LEFT JOIN ENUM_CUDA_MEM_KIND AS src ON m.srcKind == src.id
LEFT JOIN ENUM_CUDA_MEM_KIND AS dst ON m.dstKind == dst.id
LEFT JOIN TARGET_INFO_GPU AS gpu ON m.deviceId == gpu.id
ORDER BY m.start;
