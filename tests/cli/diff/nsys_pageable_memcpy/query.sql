-- Memcpys to or from pageable host memory, by copy kind (nsys's cuda_memcpy_async rule input).
SELECT o.label AS copy_kind, src.label AS src, dst.label AS dst, COUNT(*) AS copies, SUM(m.bytes) AS bytes,
       SUM(m.end - m.start) AS total_ns
FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m
JOIN ENUM_CUDA_MEMCPY_OPER AS o ON o.id = m.copyKind
JOIN ENUM_CUDA_MEM_KIND AS src ON src.id = m.srcKind
JOIN ENUM_CUDA_MEM_KIND AS dst ON dst.id = m.dstKind
WHERE src.name = 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE' OR dst.name = 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE'
GROUP BY 1, 2, 3 ORDER BY copies DESC;
