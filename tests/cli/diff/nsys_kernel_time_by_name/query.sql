-- Kernel time by short name through StringIds (the nsys recipe query, unchanged).
SELECT s.value AS name, COUNT(*) AS instances, SUM(k.end - k.start) AS total_ns, MIN(k.end - k.start) AS min_ns,
       MAX(k.end - k.start) AS max_ns
FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.shortName
GROUP BY s.value ORDER BY total_ns DESC, name;
