-- Kernels named by shortName, joined to their launching call on correlationId alone; the process from the call.
SELECT k.start AS enter, k.end AS leave, k.deviceId AS gpu, s.value AS name, k.streamId, 'kernel' AS type,
       k.correlationId AS id, (r.globalTid >> 24) & 0x00FFFFFF AS process
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k
JOIN StringIds AS s ON k.shortName = s.id
JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r ON k.correlationId = r.correlationId
ORDER BY enter, id LIMIT 500;
