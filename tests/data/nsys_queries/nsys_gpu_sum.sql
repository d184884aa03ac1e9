-- Time per GPU operation across kernels and copies, with each one's share of the total.
WITH ops AS (
    SELECT s.value AS name, k.end - k.start AS duration, 'CUDA_KERNEL' AS category
    FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.demangledName
    UNION ALL
    SELECT '[CUDA memcpy ' || e.label || ']', m.end - m.start, 'MEMORY_OPER'
    FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m JOIN ENUM_CUDA_MEMCPY_OPER AS e ON e.id == m.copyKind
), summary AS (
    SELECT name, category, SUM(duration) AS total, COUNT(*) AS num, AVG(duration) AS avg, MIN(duration) AS min,
           MAX(duration) AS max
    FROM ops GROUP BY name, category
)
SELECT round(total * 100.0 / (SELECT SUM(total) FROM summary), 1) AS percent, total, num, round(avg, 1), min, max,
       category, name
FROM summary ORDER BY total DESC, num, name;
