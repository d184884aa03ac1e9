SELECT e.name, e.label, COUNT(*) AS count, SUM(y.end - y.start) AS total
FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION AS y JOIN ENUM_CUPTI_SYNC_TYPE AS e ON e.id = y.syncType
GROUP BY e.name, e.label ORDER BY e.name;
