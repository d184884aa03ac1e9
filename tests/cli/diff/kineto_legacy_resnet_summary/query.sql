-- The figures tests/data/kineto_ref.py prints, from the imported trace (nsys-style tables and enums).
SELECT (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) AS kernels,
       (SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL) AS kernel_ns,
       (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY) AS memcpys,
       (SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY) AS memcpy_bytes,
       (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m
          JOIN ENUM_CUDA_MEM_KIND AS src ON src.id = m.srcKind JOIN ENUM_CUDA_MEM_KIND AS dst ON dst.id = m.dstKind
         WHERE 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE' IN (src.name, dst.name)) AS pageable_memcpys,
       (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET) AS memsets,
       (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME) AS api_calls,
       (SELECT COUNT(*) FROM PS_FRAMEWORK_OPS WHERE lower(category) IN ('cpu_op', 'operator')) AS cpu_ops,
       (SELECT COUNT(*) FROM PS_MEMORY_EVENTS) AS memory_events;
