-- Synchronizations named by ENUM_CUPTI_SYNC_TYPE.name (stream 4294967295 where there is none), with their call.
SELECT y.start AS enter, y.end AS leave, y.deviceId AS gpu, e.name AS name, y.streamId, 'cuda_sync' AS type,
       y.correlationId AS id, (r.globalTid >> 24) & 0x00FFFFFF AS process
FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION AS y
JOIN ENUM_CUPTI_SYNC_TYPE AS e ON y.syncType = e.id
JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r ON y.correlationId = r.correlationId
ORDER BY enter, id LIMIT 500;
