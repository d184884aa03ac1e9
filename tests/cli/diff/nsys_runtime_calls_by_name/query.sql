-- CUDA API calls by name and thread: process id decoded from globalTid as in nsys recipes.
SELECT globalTid / 0x1000000 % 0x1000000 AS pid, globalTid % 0x1000000 AS tid, s.value AS name, COUNT(*) AS calls,
       SUM(r.end - r.start) AS total_ns
FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r JOIN StringIds AS s ON s.id = r.nameId
GROUP BY 1, 2, 3 ORDER BY total_ns DESC, name;
