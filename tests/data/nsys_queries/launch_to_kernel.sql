SELECT s.value AS api, COUNT(*) AS kernels, SUM(k.start - r.start) AS launch_to_start
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r
  ON r.correlationId = k.correlationId AND k.globalPid = r.globalTid / 0x1000000 * 0x1000000
JOIN StringIds AS s ON s.id = r.nameId
GROUP BY api ORDER BY kernels DESC, api;
