SELECT src.label AS source, dst.label AS destination, COUNT(*) AS count, SUM(m.bytes) AS bytes
FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m
JOIN ENUM_CUDA_MEM_KIND AS src ON src.id = m.srcKind
JOIN ENUM_CUDA_MEM_KIND AS dst ON dst.id = m.dstKind
WHERE src.name = 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE' OR dst.name = 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE'
GROUP BY source, destination ORDER BY source, destination;
