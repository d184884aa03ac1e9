-- CUDA API calls with their thread's name, pid and tid decoded by bit shifts (inner join on ThreadNames).
SELECT r.start AS enter, r.end AS leave, api.value AS name, (r.globalTid >> 24) & 0x00FFFFFF AS process,
       r.globalTid & 0x00FFFFFF AS thread, r.correlationId AS id, thread_name.value AS thread_name
FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r
JOIN ThreadNames AS t ON r.globalTid == t.globalTid
JOIN StringIds AS api ON r.nameId = api.id
JOIN StringIds AS thread_name ON t.nameId = thread_name.id
ORDER BY r.start, r.correlationId LIMIT 400;
