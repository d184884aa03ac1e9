-- What the import recorded about its source, and its problem counts (none for this clean export).
SELECT 'meta' AS what, key, value FROM PS_META
WHERE key IN ('source_format', 'source_file', 'nsys_export_version', 'nsys_product_version', 'input_count')
UNION ALL SELECT 'problem', kind, count FROM PS_PROBLEMS
UNION ALL SELECT 'gpu', id, name FROM TARGET_INFO_GPU
UNION ALL SELECT 'process', pid, name FROM PS_PROCESSES
ORDER BY 1, 2;
