-- Per kernel: its launch call's duration, the queue wait, the kernel's duration and the total, with the API name
-- stripped of its _vNNNN suffix; call and kernel joined on correlationId within the same process (masked globalTid).
SELECT r.start AS api_start, r.end - r.start AS api_dur,
       iif(k.start - r.end >= 0, k.start - r.end, NULL) AS queue_dur, k.start AS kernel_start,
       k.end - k.start AS kernel_dur, max(r.end, k.end) - r.start AS total_dur,
       (r.globalTid >> 24) & 0x00FFFFFF AS pid, r.globalTid & 0x00FFFFFF AS tid, k.deviceId,
       CASE substr(api.value, -6, 2) WHEN '_v' THEN substr(api.value, 1, length(api.value) - 6) ELSE api.value END AS api,
       printf('%4d %4d %4d', k.gridX, k.gridY, k.gridZ) AS grid, printf('%4d %4d %4d', k.blockX, k.blockY, k.blockZ) AS block,
       kname.value AS kernel
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r
  ON k.correlationId == r.correlationId AND k.globalPid == (r.globalTid & 0xFFFFFFFFFF000000)
LEFT JOIN StringIds AS api ON r.nameId == api.id
JOIN StringIds AS kname ON kname.id = k.demangledName
ORDER BY api_start LIMIT 500;
