-- Launch -> kernel links: runtime call and kernel with the same correlationId in the same process.
SELECT s.value AS api, COUNT(*) AS kernels, SUM(k.start - r.start) AS launch_to_start_ns
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r
  ON r.correlationId = k.correlationId AND r.globalTid / 0x1000000 % 0x1000000 = k.globalPid / 0x1000000 % 0x1000000
JOIN StringIds AS s ON s.id = r.nameId
GROUP BY 1 ORDER BY 2 DESC;
