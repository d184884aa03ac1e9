SELECT e.name AS operation, e.label, COUNT(*) AS count, SUM(m.end - m.start) AS total, SUM(m.bytes) AS bytes
FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m JOIN ENUM_CUDA_MEMCPY_OPER AS e ON e.id = m.copyKind
GROUP BY e.name, e.label ORDER BY total DESC;
