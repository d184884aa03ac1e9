-- pthread calls of the OS runtime trace with pid and tid decoded, and the event class joined for its label.
SELECT o.start, o.end, o.eventClass, c.label AS class, o.globalTid / 0x1000000 % 0x1000000 AS pid,
       o.globalTid % 0x1000000 AS tid, s.value AS event
FROM OSRT_API AS o
LEFT JOIN ENUM_NSYS_EVENT_CLASS AS c ON o.eventClass = c.id
LEFT OUTER JOIN StringIds AS s ON o.nameId = s.id
WHERE o.eventClass = 27 AND s.value LIKE '%pthread%'
ORDER BY o.start, tid;
