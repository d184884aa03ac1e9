SELECT name, nameEnum, value FROM TARGET_INFO_SYSTEM_ENV
WHERE name IN ('Hostname', 'OsDescription', 'CpuDescription', 'CpuCores') ORDER BY nameEnum;
