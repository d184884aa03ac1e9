-- Copies named by ENUM_CUDA_MEMCPY_OPER.name, with bytes, joined to their launching call on correlationId alone.
SELECT m.start AS enter, m.end AS leave, m.deviceId AS gpu, e.name AS name, m.streamId, 'cuda_memcpy' AS type,
       m.bytes, m.correlationId AS id, (r.globalTid >> 24) & 0x00FFFFFF AS process
FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m
JOIN ENUM_CUDA_MEMCPY_OPER AS e ON m.copyKind = e.id
JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r ON m.correlationId = r.correlationId
ORDER BY enter, id;
