SELECT s.value AS name, COUNT(*) AS calls, SUM(r.end - r.start) AS total, MIN(r.end - r.start) AS min,
       MAX(r.end - r.start) AS max
FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r JOIN StringIds AS s ON s.id = r.nameId
GROUP BY s.value ORDER BY total DESC, name;
