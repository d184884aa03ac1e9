-- Problems counted by the import of a damaged export, with what was kept.
SELECT 'problem' AS what, kind AS name, count AS n FROM PS_PROBLEMS
UNION ALL SELECT 'kept', 'kernels', COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL
UNION ALL SELECT 'kept', 'memcpys', COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY
UNION ALL SELECT 'kept', 'api calls', COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME
UNION ALL SELECT 'kept', 'unknown names', COUNT(*) FROM StringIds WHERE value = '[unknown]'
UNION ALL SELECT 'meta', key, value FROM PS_META WHERE key IN ('nsys_export_version', 'source_format')
ORDER BY 1, 2;
