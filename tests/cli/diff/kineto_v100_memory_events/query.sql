-- PyTorch allocator events ('[memory]') by device type: allocations (bytes > 0), frees (bytes < 0), net bytes.
SELECT deviceType, COUNT(*) AS events, SUM(bytes > 0) AS allocations, SUM(bytes < 0) AS frees, SUM(bytes) AS net_bytes
FROM PS_MEMORY_EVENTS GROUP BY deviceType ORDER BY deviceType;
