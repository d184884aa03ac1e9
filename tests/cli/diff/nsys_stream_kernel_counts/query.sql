-- Kernels per device and stream.
SELECT deviceId, streamId, COUNT(*) AS kernels, SUM(end - start) AS total_ns, MIN(start) AS first_start,
       MAX(end) AS last_end
FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY deviceId, streamId ORDER BY deviceId, streamId;
