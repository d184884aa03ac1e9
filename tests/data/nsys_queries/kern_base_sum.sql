SELECT s.value AS name, SUM(k.end - k.start) AS total, COUNT(*) AS instances
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.shortName
GROUP BY s.value ORDER BY total DESC, name;
