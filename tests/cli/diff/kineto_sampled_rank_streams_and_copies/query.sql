-- Kernels per device and stream, then copies by kind and memory type, on a trace without deviceProperties.
SELECT 'kernels' AS what, deviceId || '/' || streamId AS lane, COUNT(*) AS n, SUM(end - start) AS total_ns
FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY deviceId, streamId
UNION ALL
SELECT 'memcpy', o.label || ' (' || src.label || ' -> ' || dst.label || ')', COUNT(*), SUM(m.end - m.start)
FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m JOIN ENUM_CUDA_MEMCPY_OPER AS o ON o.id = m.copyKind
JOIN ENUM_CUDA_MEM_KIND AS src ON src.id = m.srcKind JOIN ENUM_CUDA_MEM_KIND AS dst ON dst.id = m.dstKind
GROUP BY 2
ORDER BY 1, 2;
