SELECT s.value AS name, SUM(k.end - k.start) AS total, COUNT(*) AS instances, ROUND(AVG(k.end - k.start), 1) AS avg,
       MIN(k.end - k.start) AS min, MAX(k.end - k.start) AS max
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.demangledName
GROUP BY s.value ORDER BY total DESC, instances, name;
