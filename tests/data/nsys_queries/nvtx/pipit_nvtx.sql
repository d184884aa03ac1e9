-- NVTX ranges (start/end and push/pop) named by their inline text or registered string, with pid/tid and JSON payload.
SELECT n.start AS enter, n.end AS leave, 'annotation' AS type, IFNULL(n.text, s.value) AS name,
       (n.globalTid >> 24) & 0x00FFFFFF AS process, n.globalTid & 0x00FFFFFF AS thread, n.jsonText AS meta
FROM NVTX_EVENTS AS n LEFT JOIN StringIds AS s ON s.id = n.textId
WHERE n.eventType IN (59, 60)
ORDER BY enter, name LIMIT 500;
