-- OS runtime calls per function: time, count, average, min and max.
SELECT s.value AS name, SUM(o.end - o.start) AS total, COUNT(*) AS calls, ROUND(AVG(o.end - o.start), 1) AS avg,
       MIN(o.end - o.start) AS min, MAX(o.end - o.start) AS max
FROM OSRT_API AS o JOIN StringIds AS s ON s.id = o.nameId
GROUP BY s.value ORDER BY total DESC, name;
