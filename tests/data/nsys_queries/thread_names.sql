-- Every named thread with its process, as scripts label their per-thread tracks and OS-runtime rows.
SELECT t.globalTid / 0x1000000 % 0x1000000 AS pid, t.globalTid % 0x1000000 AS tid, t.priority, s.value AS name
FROM ThreadNames AS t JOIN StringIds AS s ON s.id = t.nameId
ORDER BY pid, tid, name;
